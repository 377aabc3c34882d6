/**
 * Attribute values: one type per DynamoDB data type ({@link io.stator.value.AttributeValue}),
 * DynamoDB's number rules ({@link io.stator.value.Numbers}), binary values and sets.
 */
package io.stator.value;
