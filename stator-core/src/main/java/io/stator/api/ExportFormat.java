package io.stator.api;

/**
 * The values of DynamoDB's {@code ExportFormat}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum ExportFormat {
  DYNAMODB_JSON,
  ION
}
