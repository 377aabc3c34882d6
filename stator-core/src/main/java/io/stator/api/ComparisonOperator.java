package io.stator.api;

/**
 * The values of DynamoDB's {@code ComparisonOperator}, each constant named as on the wire: its
 * {@code name()} is the string a request or response record holds.
 */
public enum ComparisonOperator {
  EQ,
  NE,
  IN,
  LE,
  LT,
  GE,
  GT,
  BETWEEN,
  NOT_NULL,
  NULL,
  CONTAINS,
  NOT_CONTAINS,
  BEGINS_WITH
}
