package io.stator.api;

/**
 * The values of DynamoDB's {@code ReturnValue}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum ReturnValue {
  NONE,
  ALL_OLD,
  UPDATED_OLD,
  ALL_NEW,
  UPDATED_NEW
}
