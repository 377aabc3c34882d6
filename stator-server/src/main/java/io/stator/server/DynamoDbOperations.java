package io.stator.server;

import java.util.Set;

/**
 * The names of the operations of DynamoDB's API (version 2012-08-10) that Stator does not serve
 * yet, so that a request for one can say so. DynamoDB itself answers a bare
 * UnknownOperationException only for names it does not know; a user who calls, say,
 * CreateGlobalTable deserves to learn that it is Stator that lacks it rather than see an
 * empty error message.
 */
final class DynamoDbOperations {
  private static final String TARGET_PREFIX = "DynamoDB_20120810.";

  private static final Set<String> UNSERVED =
      Set.of(
          "CreateGlobalTable",
          "DescribeGlobalTable",
          "DescribeGlobalTableSettings", "DescribeKinesisStreamingDestination",
          "DescribeTableReplicaAutoScaling", "DisableKinesisStreamingDestination",
          "EnableKinesisStreamingDestination",
          "ListGlobalTables",
          "UpdateGlobalTable",
          "UpdateGlobalTableSettings", "UpdateKinesisStreamingDestination",
          "UpdateTableReplicaAutoScaling");

  private DynamoDbOperations() {}

  /** DynamoDB's operations that Stator does not serve yet. */
  static Set<String> unserved() {
    return UNSERVED;
  }

  /**
   * The message for an {@code X-Amz-Target} that Stator does not serve: null for a name
   * DynamoDB does not know either (DynamoDB's own answer has no message), a short explanation
   * for one of DynamoDB's operations.
   */
  static String unservedMessage(String target) {
    if (target == null || !target.startsWith(TARGET_PREFIX)) {
      return null;
    }
    String name = target.substring(TARGET_PREFIX.length());
    return UNSERVED.contains(name)
        ? "Stator does not support the DynamoDB operation " + name + " yet"
        : null;
  }
}
