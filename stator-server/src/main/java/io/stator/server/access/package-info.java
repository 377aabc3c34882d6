/**
 * Access control: which signed requests a principal may make, decided as AWS decides it for
 * DynamoDB, from the principal's identity-based policy in IAM's JSON policy language.
 *
 * <p>A request is turned into the actions and resources IAM would authorize ({@link
 * RequestedAccess}: {@code dynamodb:PutItem} on a table's ARN, {@code dynamodb:Query} on an
 * index's, one pair per table of a batch and per item of a transaction); each pair is allowed
 * when a statement allows it and none denies it ({@link Authorization}). An explicit deny wins,
 * and what no statement allows is denied.
 */
package io.stator.server.access;
