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
  void anUnservedOperationSaysSo() {
    assertThat(DynamoDbOperations.unservedMessage("DynamoDB_20120810.CreateGlobalTable"))
        .isEqualTo("Stator does not support the DynamoDB operation CreateGlobalTable yet");
    assertThat(DynamoDbOperations.unservedMessage("DynamoDB_20120810.TagResourceX")).isNull();
  }
}
