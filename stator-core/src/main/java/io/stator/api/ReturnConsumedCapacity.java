package io.stator.api;

/**
 * The values of DynamoDB's {@code ReturnConsumedCapacity}, each constant named as on the wire: its
 * {@code name()} is the string a request or response record holds.
 */
public enum ReturnConsumedCapacity {
  INDEXES,
  TOTAL,
  NONE
}
