package io.stator.api;

/**
 * The values of DynamoDB's {@code ReturnItemCollectionMetrics}, each constant named as on the
 * wire: its {@code name()} is the string a request or response record holds.
 */
public enum ReturnItemCollectionMetrics {
  SIZE,
  NONE
}
