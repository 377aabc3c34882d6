package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.server.wire.WireProtocol;
import org.junit.jupiter.api.Test;

/** The list of DynamoDB operations Stator lacks stays in step with what it serves. */
class DynamoDbOperationsTest {
  @Test
  void noServedOperationIsListedAsUnserved() {
    assertThat(DynamoDbOperations.unserved()).doesNotContainAnyElementsOf(
        WireProtocol.operations());
    assertThat(WireProtocol.operations()).contains("TagResource", "UntagResource",
        "ListTagsOfResource", "DescribeContinuousBackups", "UpdateContinuousBackups",
        "DescribeLimits", "DescribeEndpoints", "CreateBackup", "DescribeBackup", "ListBackups",
        "DeleteBackup", "RestoreTableFromBackup", "RestoreTableToPointInTime",
        "ExportTableToPointInTime", "DescribeExport", "ListExports", "ImportTable",
        "DescribeImport", "ListImports");
  }

  @Test
  void anOperationOnlyAnAwsAccountHasSaysWhatToUseInstead() {
    assertThat(DynamoDbOperations.unservedName("DynamoDB_20120810.CreateGlobalTable"))
        .isEqualTo("CreateGlobalTable");
    assertThat(DynamoDbOperations.unservedName("DynamoDB_20120810.TagResourceX")).isNull();
    assertThat(DynamoDbOperations.unservedName("DynamoDBStreams_20120810.CreateGlobalTable"))
        .isNull();
    assertThat(DynamoDbOperations.instead("CreateGlobalTable"))
        .startsWith("CreateGlobalTable is not available in Stator")
        .contains("global tables replicate a table to other AWS Regions")
        .contains("DynamoDB stream");
    assertThat(DynamoDbOperations.instead("EnableKinesisStreamingDestination"))
        .contains("no Amazon Kinesis Data Streams")
        .contains("DynamoDB Streams API");
  }
}
