package io.stator.api;

/**
 * The values of DynamoDB's {@code Select}, each constant named as on the wire: its {@code name()}
 * is the string a request or response record holds.
 */
public enum Select {
  ALL_ATTRIBUTES,
  ALL_PROJECTED_ATTRIBUTES,
  SPECIFIC_ATTRIBUTES,
  COUNT
}
