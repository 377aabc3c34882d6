package io.stator.api;

/**
 * The values of DynamoDB's {@code SSEStatus}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum SSEStatus {
  ENABLING,
  ENABLED,
  DISABLING,
  DISABLED,
  UPDATING
}
