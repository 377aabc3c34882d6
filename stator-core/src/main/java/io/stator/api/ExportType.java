package io.stator.api;

/**
 * The values of DynamoDB's {@code ExportType}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum ExportType {
  FULL_EXPORT,
  INCREMENTAL_EXPORT
}
