package io.stator.api;

/**
 * The values of DynamoDB's {@code TableClass}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum TableClass {
  STANDARD,
  STANDARD_INFREQUENT_ACCESS
}
