package io.stator.server;

import java.util.Set;

/**
 * The names of all operations of DynamoDB's API (version 2012-08-10), so that a request for one
 * Stator does not serve yet can say so. DynamoDB itself answers a bare UnknownOperationException
 * only for names it does not know; a user who calls, say, ExecuteStatement deserves to learn
 * that it is Stator that lacks it rather than see an empty error message.
 */
final class DynamoDbOperations {
  private static final String TARGET_PREFIX = "DynamoDB_20120810.";

  private static final Set<String> ALL =
      Set.of(
          "BatchExecuteStatement", "BatchGetItem", "BatchWriteItem", "CreateBackup",
          "CreateGlobalTable", "CreateTable", "DeleteBackup", "DeleteItem",
          "DeleteResourcePolicy", "DeleteTable", "DescribeBackup", "DescribeContinuousBackups",
          "DescribeContributorInsights", "DescribeEndpoints", "DescribeExport",
          "DescribeGlobalTable", "DescribeGlobalTableSettings", "DescribeImport",
          "DescribeKinesisStreamingDestination", "DescribeLimits", "DescribeTable",
          "DescribeTableReplicaAutoScaling", "DescribeTimeToLive",
          "DisableKinesisStreamingDestination", "EnableKinesisStreamingDestination",
          "ExecuteStatement", "ExecuteTransaction", "ExportTableToPointInTime", "GetItem",
          "GetResourcePolicy", "ImportTable", "ListBackups", "ListContributorInsights",
          "ListExports", "ListGlobalTables", "ListImports", "ListTables", "ListTagsOfResource",
          "PutItem", "PutResourcePolicy", "Query", "RestoreTableFromBackup",
          "RestoreTableToPointInTime", "Scan", "TagResource", "TransactGetItems",
          "TransactWriteItems", "UntagResource", "UpdateContinuousBackups",
          "UpdateContributorInsights", "UpdateGlobalTable", "UpdateGlobalTableSettings",
          "UpdateItem", "UpdateKinesisStreamingDestination", "UpdateTable",
          "UpdateTableReplicaAutoScaling", "UpdateTimeToLive");

  private DynamoDbOperations() {}

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
    return ALL.contains(name) ? "Stator does not support the DynamoDB operation " + name + " yet"
        : null;
  }
}
