package io.stator.server;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * DynamoDB's operations (API version 2012-08-10) that only mean something across an AWS
 * account's Regions and services, and what Stator answers instead of them. Global tables
 * replicate a table to other AWS Regions; Kinesis streaming destinations deliver its changes to
 * Amazon Kinesis Data Streams. Stator serves one place and no Kinesis, and has the table's own
 * DynamoDB stream for both needs, so a request for one of these gets a ValidationException that
 * says so and names what to use; a name DynamoDB does not know gets DynamoDB's bare
 * UnknownOperationException.
 */
final class DynamoDbOperations {
  private static final String TARGET_PREFIX = "DynamoDB_20120810.";

  private static final Set<String> GLOBAL_TABLES =
      Set.of(
          "CreateGlobalTable", "DescribeGlobalTable", "DescribeGlobalTableSettings",
          "ListGlobalTables", "UpdateGlobalTable", "UpdateGlobalTableSettings",
          "DescribeTableReplicaAutoScaling", "UpdateTableReplicaAutoScaling");

  private static final Set<String> KINESIS =
      Set.of(
          "DescribeKinesisStreamingDestination", "DisableKinesisStreamingDestination",
          "EnableKinesisStreamingDestination", "UpdateKinesisStreamingDestination");

  private static final Set<String> UNSERVED =
      Stream.concat(GLOBAL_TABLES.stream(), KINESIS.stream()).collect(Collectors.toSet());

  private DynamoDbOperations() {}

  /** DynamoDB's operations that Stator answers with what it offers instead. */
  static Set<String> unserved() {
    return UNSERVED;
  }

  /** The operation an {@code X-Amz-Target} names if it is one of {@link #unserved}, else null. */
  static String unservedName(String target) {
    if (target == null || !target.startsWith(TARGET_PREFIX)) {
      return null;
    }
    String name = target.substring(TARGET_PREFIX.length());
    return UNSERVED.contains(name) ? name : null;
  }

  /** The ValidationException's message for one of {@link #unserved}: why, and what instead. */
  static String instead(String name) {
    if (KINESIS.contains(name)) {
      return name + " is not available in Stator, which has no Amazon Kinesis Data Streams to"
          + " deliver a table's changes to: read them from the table's DynamoDB stream instead"
          + " (StreamSpecification on CreateTable or UpdateTable, then the DynamoDB Streams API"
          + " at this same endpoint)";
    }
    return name + " is not available in Stator, which serves every table from one place:"
        + " global tables replicate a table to other AWS Regions. To copy a table's changes"
        + " elsewhere, read them from its DynamoDB stream (StreamSpecification on CreateTable or"
        + " UpdateTable)";
  }
}
