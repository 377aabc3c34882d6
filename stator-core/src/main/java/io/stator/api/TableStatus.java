package io.stator.api;

/**
 * The values of DynamoDB's {@code TableStatus}, each constant named as on the wire: its {@code
 * name()} is the string a request or response record holds.
 */
public enum TableStatus {
  CREATING,
  UPDATING,
  DELETING,
  ACTIVE,
  INACCESSIBLE_ENCRYPTION_CREDENTIALS,
  ARCHIVING,
  ARCHIVED,
  REPLICATION_NOT_AUTHORIZED
}
