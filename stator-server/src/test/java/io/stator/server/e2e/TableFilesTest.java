package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportFormat;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * What the export and import tests share: a table with a GSI and point-in-time recovery, items
 * of every attribute type, an export and the wait for it, and the directory of a bucket.
 */
abstract class TableFilesTest extends EndToEndTest {
  static final ScalarAttributeType S = ScalarAttributeType.S;

  /** pk, sk; GSI byG (ALL); point-in-time recovery enabled. */
  String recoveredTable(String purpose) {
    String name = uniqueTableName(purpose);
    dynamo.createTable(b -> b.tableName(name)
        .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
        .attributeDefinitions(attribute("pk", S), attribute("sk", ScalarAttributeType.N),
            attribute("g", S))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .globalSecondaryIndexes(i -> i.indexName("byG").keySchema(key("g", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.ALL))));
    awaitActive(name);
    dynamo.updateContinuousBackups(r -> r.tableName(name)
        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
    return name;
  }

  /** An item of every type, text that needs escaping among them. */
  static Map<String, AttributeValue> row(int i, String version) {
    Map<String, AttributeValue> item = item("pk", s("p" + i % 7), "sk", n(String.valueOf(i)),
        "v", s(version + " \"quoted\"\n\u00e9\u4e2d"), "n", n("-" + i + ".25"),
        "b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, (byte) i, -1})),
        "ok", AttributeValue.fromBool(i % 2 == 0), "none", AttributeValue.fromNul(true),
        "l", AttributeValue.fromL(List.of(s("a"), n("2"), AttributeValue.fromM(
            Map.of("deep", s("x" + i))))),
        "ss", AttributeValue.fromSs(List.of("s", "s" + i)));
    item.put("ns", AttributeValue.fromNs(List.of("1", String.valueOf(i + 2))));
    item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {1}),
        SdkBytes.fromByteArray(new byte[] {2, (byte) i}))));
    if (i % 4 != 0) {
      item.put("g", s("g" + i % 5)); // every fourth item is in no GSI
    }
    return item;
  }

  static String keyOf(Map<String, AttributeValue> item) {
    return item.get("pk").s() + "/" + item.get("sk").n();
  }

  void put(String table, Map<String, AttributeValue> item,
      Map<String, Map<String, AttributeValue>> model) {
    dynamo.putItem(r -> r.tableName(table).item(item));
    model.put(keyOf(item), item);
  }

  /** The table's items by {@link #keyOf}, read with a consistent Scan. */
  Map<String, Map<String, AttributeValue>> items(String table) {
    Map<String, Map<String, AttributeValue>> out = new TreeMap<>();
    for (var page : dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true))) {
      page.items().forEach(i -> out.put(keyOf(i), i));
    }
    return out;
  }

  String tableArn(String table) {
    return dynamo.describeTable(r -> r.tableName(table)).table().tableArn();
  }

  /** Polls DescribeExport until the export is no longer IN_PROGRESS. */
  ExportDescription awaitExport(String arn) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      ExportDescription d = dynamo.describeExport(r -> r.exportArn(arn)).exportDescription();
      if (d.exportStatus() != ExportStatus.IN_PROGRESS) {
        return d;
      }
      assertThat(System.nanoTime()).as("export %s", arn).isLessThan(deadline);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** Polls DescribeImport until the import is no longer IN_PROGRESS. */
  ImportTableDescription awaitImport(String arn) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      ImportTableDescription d =
          dynamo.describeImport(r -> r.importArn(arn)).importTableDescription();
      if (d.importStatus() != ImportStatus.IN_PROGRESS) {
        return d;
      }
      assertThat(System.nanoTime()).as("import %s", arn).isLessThan(deadline);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** Writes {@code text} to {@code file}, gzip'd when {@code gzip}. */
  void write(Path file, String text, boolean gzip) throws IOException {
    Files.createDirectories(file.getParent());
    try (OutputStream out = gzip ? new GZIPOutputStream(Files.newOutputStream(file))
        : Files.newOutputStream(file)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Exports {@code table} as of {@code time} to {@code bucket}, prefix {@code prefix}. */
  ExportDescription export(String table, Instant time, String bucket, String prefix) {
    ExportDescription started = dynamo.exportTableToPointInTime(r -> r
        .tableArn(tableArn(table)).exportTime(time).s3Bucket(bucket).s3Prefix(prefix)
        .exportFormat(ExportFormat.DYNAMODB_JSON)).exportDescription();
    assertThat(started.exportStatus()).isEqualTo(ExportStatus.IN_PROGRESS);
    return started;
  }

  Path bucket(String name) {
    return endpoint.exportDirectory().resolve(name);
  }
}
