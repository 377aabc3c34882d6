/**
 * DynamoDB's expression language: condition, filter, key condition, projection and update
 * expressions, from the lexer and parser to syntax trees ({@link io.stator.expression.ConditionExpression},
 * {@link io.stator.expression.Path}, {@link io.stator.expression.UpdateExpression}) and their evaluation
 * against an item, with DynamoDB's reserved words and error messages.
 */
package io.stator.expression;
