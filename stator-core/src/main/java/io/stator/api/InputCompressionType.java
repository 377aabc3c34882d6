package io.stator.api;

/**
 * The values of DynamoDB's {@code InputCompressionType}, each constant named as on the wire: its
 * {@code name()} is the string a request or response record holds.
 */
public enum InputCompressionType {
  GZIP,
  ZSTD,
  NONE
}
