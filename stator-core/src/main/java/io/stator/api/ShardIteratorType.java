package io.stator.api;

/**
 * The values of DynamoDB Streams' {@code ShardIteratorType}, each constant named as on the wire:
 * its {@code name()} is the string a request or response record holds.
 */
public enum ShardIteratorType {
  TRIM_HORIZON,
  LATEST,
  AT_SEQUENCE_NUMBER,
  AFTER_SEQUENCE_NUMBER
}
