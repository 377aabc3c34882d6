package io.stator.api;

/**
 * The values of DynamoDB Streams' {@code StreamStatus}, each constant named as on the wire: its
 * {@code name()} is the string a request or response record holds.
 */
public enum StreamStatus {
  ENABLING,
  ENABLED,
  DISABLING,
  DISABLED
}
