package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportConflictException;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ExportSummary;
import software.amazon.awssdk.services.dynamodb.model.ExportType;
import software.amazon.awssdk.services.dynamodb.model.ExportViewType;
import software.amazon.awssdk.services.dynamodb.model.InvalidExportTimeException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListExportsResponse;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryUnavailableException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableNotFoundException;

/**
 * ExportTableToPointInTime, DescribeExport and ListExports through the AWS SDK: an export of a
 * table as of a time while writes go on holds exactly the table at that time, in the files and
 * manifests DynamoDB writes, under the bucket's directory; its status goes IN_PROGRESS to
 * COMPLETED and outlives a restart; and DynamoDB's errors, a bucket or prefix that would leave
 * the export directory among them, writing nothing.
 */
class ExportTest extends TableFilesTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  @Test
  void anExportHoldsTheTableAsOfItsTimeInDynamoDbsFiles() {
    assumeTrue(endpoint.exportDirectory() != null, "the files are read from the server's disk");
    String table = recoveredTable("export");
    Map<String, Map<String, AttributeValue>> atT = new TreeMap<>();
    for (int i = 0; i < 120; i++) {
      put(table, row(i, "first"), atT);
    }
    dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("p" + 119 % 7), "sk", n("119"))));
    atT.remove("p" + 119 % 7 + "/119");
    Instant t = instantBetweenWrites();
    for (int i = 0; i < 30; i++) {
      put(table, row(i, "after"), new TreeMap<>()); // changed after T
    }
    for (int i = 30; i < 40; i++) {
      int k = i;
      dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("p" + k % 7), "sk",
          n(String.valueOf(k)))));
    }
    put(table, row(500, "new"), new TreeMap<>()); // made after T

    String tableArn = tableArn(table);
    String tableId = dynamo.describeTable(r -> r.tableName(table)).table().tableId();
    ExportDescription started = export(table, t, "bucket-a", "runs/first");
    assertThat(started.exportArn()).startsWith(tableArn + "/export/");
    assertThat(started.tableArn()).isEqualTo(tableArn);
    assertThat(started.tableId()).isEqualTo(tableId);
    assertThat(started.exportTime()).isEqualTo(t);
    assertThat(started.exportType()).isEqualTo(ExportType.FULL_EXPORT);
    String id = started.exportArn().substring((tableArn + "/export/").length());
    assertThat(started.exportManifest())
        .isEqualTo("runs/first/AWSDynamoDB/" + id + "/manifest-summary.json");

    ExportDescription done = awaitExport(started.exportArn());
    assertThat(done.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
    assertThat(done.failureCode()).isNull();
    assertThat(done.itemCount()).isEqualTo(atT.size());
    assertThat(done.billedSizeBytes()).isGreaterThan(0L);
    assertThat(done.endTime()).isAfterOrEqualTo(done.startTime());

    ExportedFiles files = new ExportedFiles(bucket("bucket-a"), done.exportManifest());
    assertThat(files.summary().get("exportArn").asString()).isEqualTo(done.exportArn());
    assertThat(files.summary().get("itemCount").asNumber())
        .isEqualTo(String.valueOf(atT.size()));
    assertThat(files.summary().get("outputFormat").asString()).isEqualTo("DYNAMODB_JSON");
    assertThat(files.dataFiles().keySet())
        .allMatch(k -> k.startsWith("runs/first/AWSDynamoDB/" + id + "/data/")
            && k.endsWith(".json.gz"));
    Map<String, Map<String, AttributeValue>> exported = new TreeMap<>();
    for (Map<String, AttributeValue> item : files.items()) {
      assertThat(exported.put(keyOf(item), item)).as("exported twice").isNull();
    }
    assertThat(exported).isEqualTo(atT);
  }

  @Test
  void anExportWithoutTimeIsOfNowAndListedWithItsTable() {
    String table = recoveredTable("export-now");
    String other = recoveredTable("export-other");
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < 5; i++) {
      put(table, row(i, "only"), model);
    }
    Instant before = Instant.now().minusMillis(1);
    ExportDescription first = dynamo.exportTableToPointInTime(r -> r.tableArn(tableArn(table))
        .s3Bucket("bucket-now")).exportDescription();
    assertThat(first.exportTime()).isAfter(before);
    assertThat(first.exportManifest()).startsWith("AWSDynamoDB/");
    ExportDescription second = export(table, null, "bucket-now", "again/");
    ExportDescription third = export(table, null, "bucket-now", "third");
    ExportDescription elsewhere = export(other, null, "bucket-now", "other");
    for (ExportDescription d : List.of(first, second, third, elsewhere)) {
      ExportDescription done = awaitExport(d.exportArn());
      assertThat(done.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
      assertThat(done.itemCount()).isEqualTo(d == elsewhere ? 0 : 5);
    }
    assertThat(awaitExport(second.exportArn()).exportManifest()).startsWith("again/AWSDynamoDB/");

    ListExportsResponse page1 = dynamo.listExports(r -> r.tableArn(tableArn(table))
        .maxResults(2));
    assertThat(page1.exportSummaries()).extracting(ExportSummary::exportArn)
        .containsExactly(first.exportArn(), second.exportArn());
    assertThat(page1.exportSummaries()).allMatch(s -> s.exportStatus() == ExportStatus.COMPLETED
        && s.exportType() == ExportType.FULL_EXPORT);
    assertThat(page1.nextToken()).isNotNull();
    ListExportsResponse page2 = dynamo.listExports(r -> r.tableArn(tableArn(table))
        .maxResults(2).nextToken(page1.nextToken()));
    assertThat(page2.exportSummaries()).extracting(ExportSummary::exportArn)
        .containsExactly(third.exportArn());
    assertThat(page2.nextToken()).isNull();
    assertThat(dynamo.listExports(r -> r.maxResults(25)).exportSummaries())
        .extracting(ExportSummary::exportArn).contains(first.exportArn(), elsewhere.exportArn());
  }

  @Test
  void anIncrementalExportHoldsEachItemChangedInItsPeriodOnce() {
    assumeTrue(endpoint.exportDirectory() != null, "the files are read from the server's disk");
    String table = recoveredTable("export-incremental");
    Map<String, Map<String, AttributeValue>> before = new TreeMap<>();
    for (int i = 0; i < 20; i++) {
      put(table, row(i, "before"), before);
    }
    Instant from = instantBetweenWrites();
    Map<String, Map<String, AttributeValue>> changed = new TreeMap<>();
    for (int i = 0; i < 5; i++) {
      put(table, row(i, "once"), changed);
      put(table, row(i, "twice"), changed); // two changes, one line
    }
    for (int i = 5; i < 8; i++) {
      int k = i;
      dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("p" + k % 7), "sk",
          n(String.valueOf(k)))));
    }
    put(table, row(100, "made"), changed);
    Instant to = instantBetweenWrites();
    put(table, row(10, "later"), new TreeMap<>()); // after the period

    for (ExportViewType view : List.of(ExportViewType.NEW_AND_OLD_IMAGES,
        ExportViewType.NEW_IMAGE)) {
      ExportDescription started = dynamo.exportTableToPointInTime(r -> r
          .tableArn(tableArn(table)).s3Bucket("bucket-incremental").s3Prefix(view.toString())
          .exportType(ExportType.INCREMENTAL_EXPORT).incrementalExportSpecification(i -> i
              .exportFromTime(from).exportToTime(to).exportViewType(view)))
          .exportDescription();
      assertThat(started.exportType()).isEqualTo(ExportType.INCREMENTAL_EXPORT);
      assertThat(started.incrementalExportSpecification().exportFromTime()).isEqualTo(from);
      ExportDescription done = awaitExport(started.exportArn());
      assertThat(done.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
      assertThat(done.itemCount()).isEqualTo(9);
      ExportedFiles files = new ExportedFiles(bucket("bucket-incremental"),
          done.exportManifest());
      assertThat(files.summary().get("exportType").asString()).isEqualTo("INCREMENTAL_EXPORT");
      Map<String, Map<String, software.amazon.awssdk.protocols.jsoncore.JsonNode>> lines =
          new TreeMap<>();
      for (var line : files.lines()) {
        Map<String, AttributeValue> keys = ExportedFiles.item(line.get("Keys"));
        assertThat(keys.keySet()).containsExactly("pk", "sk");
        assertThat(Long.parseLong(line.get("Metadata").asObject().get("WriteTimestampMicros")
            .asObject().get("N").asString()) / 1000).isBetween(from.toEpochMilli(),
            to.toEpochMilli());
        lines.put(keyOf(keys), line);
      }
      assertThat(lines.keySet()).hasSize(9).contains("p0/0", "p5/5", "p2/100")
          .doesNotContain("p3/10");
      for (var e : lines.entrySet()) {
        Map<String, AttributeValue> now = changed.get(e.getKey());
        var line = e.getValue();
        assertThat(line.containsKey("NewImage") ? ExportedFiles.item(line.get("NewImage"))
            : null).as(e.getKey()).isEqualTo(now);
        Map<String, AttributeValue> then = before.get(e.getKey());
        assertThat(line.containsKey("OldImage") ? ExportedFiles.item(line.get("OldImage"))
            : null).as(e.getKey())
            .isEqualTo(view == ExportViewType.NEW_AND_OLD_IMAGES ? then : null);
      }
    }
  }

  @Test
  void aRetryWithItsClientTokenIsTheSameExportAndOtherParametersAConflict() {
    String table = recoveredTable("export-token");
    String arn = tableArn(table);
    ExportDescription first = dynamo.exportTableToPointInTime(r -> r.tableArn(arn)
        .s3Bucket("bucket-token").clientToken("token-1")).exportDescription();
    ExportDescription retried = dynamo.exportTableToPointInTime(r -> r.tableArn(arn)
        .s3Bucket("bucket-token").clientToken("token-1")).exportDescription();
    assertThat(retried.exportArn()).isEqualTo(first.exportArn());
    assertThat(retried.clientToken()).isEqualTo("token-1");
    assertErrorContaining(ExportConflictException.class, "ExportConflictException", "token-1",
        () -> dynamo.exportTableToPointInTime(r -> r.tableArn(arn).s3Bucket("bucket-other")
            .clientToken("token-1")));
    assertThat(awaitExport(first.exportArn()).exportStatus()).isEqualTo(ExportStatus.COMPLETED);
    assertThat(dynamo.listExports(r -> r.tableArn(arn)).exportSummaries())
        .extracting(ExportSummary::exportArn).containsExactly(first.exportArn());
  }

  @Test
  void aBucketOrPrefixOutsideTheExportDirectoryIsRefusedAndWritesNothing() throws Exception {
    String table = recoveredTable("export-escape");
    String arn = tableArn(table);
    for (String prefix : List.of("../outside", "/etc", "a/../../b", "./here", "a/..")) {
      assertValidationContaining("Invalid S3Prefix '" + prefix + "'",
          () -> dynamo.exportTableToPointInTime(r -> r.tableArn(arn)
              .s3Bucket("bucket-escape").s3Prefix(prefix)));
    }
    assertValidationContaining("s3Bucket", () -> dynamo.exportTableToPointInTime(r -> r
        .tableArn(arn).s3Bucket("..")));
    assertThat(dynamo.listExports(r -> r.tableArn(arn)).exportSummaries()).isEmpty();
    if (endpoint.exportDirectory() != null) {
      assertThat(Files.exists(bucket("bucket-escape"))).isFalse();
      try (var listed = Files.list(endpoint.exportDirectory().getParent())) {
        assertThat(listed.map(p -> p.getFileName().toString())).doesNotContain("outside", "b");
      }
    }
  }

  @Test
  void dynamoDbsErrorsForAnExportMakeNone() {
    String plain = createTable("export-plain", "pk", S);
    String arn = tableArn(plain);
    assertErrorContaining(PointInTimeRecoveryUnavailableException.class,
        "PointInTimeRecoveryUnavailableException", "UpdateContinuousBackups",
        () -> dynamo.exportTableToPointInTime(r -> r.tableArn(arn).s3Bucket("bucket-errors")));
    assertErrorContaining(TableNotFoundException.class, "TableNotFoundException", plain,
        () -> dynamo.exportTableToPointInTime(r -> r
            .tableArn(arn.replace(plain, plain + "-missing")).s3Bucket("bucket-errors")));
    String table = recoveredTable("export-time");
    String recovered = tableArn(table);
    for (Duration off : List.of(Duration.ofHours(-1), Duration.ofHours(1))) {
      assertErrorContaining(InvalidExportTimeException.class, "InvalidExportTimeException",
          "outside the point in time recovery window", () -> dynamo.exportTableToPointInTime(
              r -> r.tableArn(recovered).s3Bucket("bucket-errors")
                  .exportTime(Instant.now().plus(off))));
    }
    assertValidationContaining("ExportFromTime", () -> dynamo.exportTableToPointInTime(
        r -> r.tableArn(recovered).s3Bucket("bucket-errors")
            .exportType(ExportType.INCREMENTAL_EXPORT)));
    Instant now = Instant.now();
    assertValidationContaining("must be before", () -> dynamo.exportTableToPointInTime(
        r -> r.tableArn(recovered).s3Bucket("bucket-errors")
            .exportType(ExportType.INCREMENTAL_EXPORT).incrementalExportSpecification(
                i -> i.exportFromTime(now).exportToTime(now.minusSeconds(1)))));
    assertErrorContaining(InvalidExportTimeException.class, "InvalidExportTimeException",
        "outside the point in time recovery window", () -> dynamo.exportTableToPointInTime(
            r -> r.tableArn(recovered).s3Bucket("bucket-errors")
                .exportType(ExportType.INCREMENTAL_EXPORT).incrementalExportSpecification(
                    i -> i.exportFromTime(now.minus(Duration.ofHours(2))))));
    assertErrorContaining(ExportNotFoundException.class, "ExportNotFoundException",
        "Export not found", () -> dynamo.describeExport(r -> r.exportArn(recovered
            + "/export/01700000000000-0123abcd")));
    assertThat(dynamo.listExports(r -> r.tableArn(recovered)).exportSummaries()).isEmpty();
    assertThat(dynamo.listExports(r -> r.tableArn(arn)).exportSummaries()).isEmpty();
    if (endpoint.exportDirectory() != null) {
      assertThat(Files.exists(bucket("bucket-errors"))).isFalse();
    }
  }

  @Test
  void anExportOutlivesARestart() {
    assumeTrue(target.isDurable(), "a restart needs durable storage");
    String table = recoveredTable("export-restart");
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < 10; i++) {
      put(table, row(i, "kept"), model);
    }
    ExportDescription done = awaitExport(export(table, null, "bucket-restart", "r")
        .exportArn());
    assertThat(done.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
    endpoint.restart();
    dynamo = endpoint.client();
    ExportDescription after =
        dynamo.describeExport(r -> r.exportArn(done.exportArn())).exportDescription();
    assertThat(after).isEqualTo(done);
    assertThat(dynamo.listExports(r -> r.tableArn(tableArn(table))).exportSummaries())
        .extracting(ExportSummary::exportArn).containsExactly(done.exportArn());
  }
}
