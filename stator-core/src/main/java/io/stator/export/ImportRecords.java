package io.stator.export;

import io.stator.api.AttributeDefinition;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.ImportTableDescription;
import io.stator.api.InputFormatOptions;
import io.stator.api.KeySchemaElement;
import io.stator.api.OnDemandThroughput;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.S3BucketSource;
import io.stator.api.TableCreationParameters;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * An import's record: its description as fields of an item ({@link JobRecords}), the
 * TableCreationParameters with it (names, types, keys, billing, throughput, the GSIs' keys and
 * projections; not the SSESpecification, which Stator records nowhere else either), so that
 * DescribeImport answers it after a restart.
 */
final class ImportRecords {
  private ImportRecords() {}

  /** {@code d} at a later point: its status, end time and counts. */
  static ImportTableDescription ended(ImportTableDescription d, String status, Instant end,
      Long bytes, Long processed, Long imported, Long errors, String code, String message) {
    return new ImportTableDescription(d.importArn(), status, d.tableArn(), d.tableId(),
        d.clientToken(), d.s3BucketSource(), errors, d.inputFormat(), d.inputFormatOptions(),
        d.inputCompressionType(), d.tableCreationParameters(), d.startTime(), end, bytes,
        processed, imported, code, message);
  }

  /** The record of {@code d}, made by a request of the fingerprint given. */
  static Map<String, AttributeValue> encode(ImportTableDescription d, String fingerprint) {
    S3BucketSource s = d.s3BucketSource();
    InputFormatOptions o = d.inputFormatOptions();
    TableCreationParameters t = d.tableCreationParameters();
    JobRecords.Fields f = new JobRecords.Fields()
        .s("arn", d.importArn()).s("status", d.importStatus()).s("tableArn", d.tableArn())
        .s("tableId", d.tableId()).s("token", d.clientToken())
        .s("owner", s.s3BucketOwner()).s("bucket", s.s3Bucket()).s("prefix", s.s3KeyPrefix())
        .n("errors", d.errorCount()).s("format", d.inputFormat())
        .s("compression", d.inputCompressionType()).t("start", d.startTime())
        .t("end", d.endTime()).n("bytes", d.processedSizeBytes())
        .n("processed", d.processedItemCount()).n("imported", d.importedItemCount())
        .s("failureCode", d.failureCode()).s("failureMessage", d.failureMessage())
        .s("table", t.tableName()).s("billing", t.billingMode())
        .s("fingerprint", fingerprint);
    if (o != null) {
      f.s("delimiter", o.csvDelimiter());
      if (o.csvHeaderList() != null) {
        f.map.put("header", strings(o.csvHeaderList()));
      }
    }
    if (t.attributeDefinitions() != null) {
      f.map.put("definitions", list(t.attributeDefinitions(), a -> new JobRecords.Fields()
          .s("name", a.attributeName()).s("type", a.attributeType()).map));
    }
    if (t.keySchema() != null) {
      f.map.put("keys", keys(t.keySchema()));
    }
    f.m("throughput", throughput(t.provisionedThroughput()));
    if (t.onDemandThroughput() != null) {
      f.m("onDemand", new JobRecords.Fields()
          .n("read", t.onDemandThroughput().maxReadRequestUnits())
          .n("write", t.onDemandThroughput().maxWriteRequestUnits()).map);
    }
    if (t.globalSecondaryIndexes() != null) {
      f.map.put("gsis", list(t.globalSecondaryIndexes(), g -> {
        JobRecords.Fields i = new JobRecords.Fields().s("name", g.indexName())
            .s("projection", g.projection() == null ? null : g.projection().projectionType())
            .m("throughput", throughput(g.provisionedThroughput()));
        if (g.keySchema() != null) {
          i.map.put("keys", keys(g.keySchema()));
        }
        if (g.projection() != null && g.projection().nonKeyAttributes() != null) {
          i.map.put("nonKey", strings(g.projection().nonKeyAttributes()));
        }
        return i.map;
      }));
    }
    return f.map;
  }

  static ImportTableDescription decode(Map<String, AttributeValue> m) {
    List<String> header = texts(m.get("header"));
    String delimiter = JobRecords.s(m, "delimiter");
    InputFormatOptions options = header == null && delimiter == null ? null
        : new InputFormatOptions(delimiter, header);
    List<GlobalSecondaryIndex> gsis = decodeList(m.get("gsis"), g -> new GlobalSecondaryIndex(
        JobRecords.s(g, "name"), keys(g.get("keys")),
        new Projection(JobRecords.s(g, "projection"), texts(g.get("nonKey"))),
        throughput(JobRecords.m(g, "throughput")), null));
    Map<String, AttributeValue> onDemand = JobRecords.m(m, "onDemand");
    TableCreationParameters t = new TableCreationParameters(JobRecords.s(m, "table"),
        decodeList(m.get("definitions"), a -> new AttributeDefinition(JobRecords.s(a, "name"),
            JobRecords.s(a, "type"))),
        keys(m.get("keys")), JobRecords.s(m, "billing"),
        throughput(JobRecords.m(m, "throughput")),
        onDemand == null ? null : new OnDemandThroughput(JobRecords.n(onDemand, "read"),
            JobRecords.n(onDemand, "write")),
        null, gsis);
    return new ImportTableDescription(JobRecords.s(m, "arn"), JobRecords.s(m, "status"),
        JobRecords.s(m, "tableArn"), JobRecords.s(m, "tableId"), JobRecords.s(m, "token"),
        new S3BucketSource(JobRecords.s(m, "owner"), JobRecords.s(m, "bucket"),
            JobRecords.s(m, "prefix")),
        JobRecords.n(m, "errors"), JobRecords.s(m, "format"), options,
        JobRecords.s(m, "compression"), t, JobRecords.t(m, "start"), JobRecords.t(m, "end"),
        JobRecords.n(m, "bytes"), JobRecords.n(m, "processed"), JobRecords.n(m, "imported"),
        JobRecords.s(m, "failureCode"), JobRecords.s(m, "failureMessage"));
  }

  private static AttributeValue keys(List<KeySchemaElement> keys) {
    return list(keys, k -> new JobRecords.Fields().s("name", k.attributeName())
        .s("type", k.keyType()).map);
  }

  private static List<KeySchemaElement> keys(AttributeValue v) {
    return decodeList(v, k -> new KeySchemaElement(JobRecords.s(k, "name"),
        JobRecords.s(k, "type")));
  }

  private static Map<String, AttributeValue> throughput(ProvisionedThroughput p) {
    return p == null ? null : new JobRecords.Fields().n("read", p.readCapacityUnits())
        .n("write", p.writeCapacityUnits()).map;
  }

  private static ProvisionedThroughput throughput(Map<String, AttributeValue> m) {
    return m == null ? null
        : new ProvisionedThroughput(JobRecords.n(m, "read"), JobRecords.n(m, "write"));
  }

  private static <T> AttributeValue list(List<T> values,
      Function<T, Map<String, AttributeValue>> each) {
    List<AttributeValue> out = new ArrayList<>();
    for (T v : values) {
      out.add(new AttributeValue.M(each.apply(v)));
    }
    return new AttributeValue.L(out);
  }

  private static <T> List<T> decodeList(AttributeValue v,
      Function<Map<String, AttributeValue>, T> each) {
    if (!(v instanceof AttributeValue.L l)) {
      return null;
    }
    List<T> out = new ArrayList<>();
    for (AttributeValue e : l.value()) {
      out.add(each.apply(((AttributeValue.M) e).value()));
    }
    return out;
  }

  private static AttributeValue strings(List<String> values) {
    return new AttributeValue.L(values.stream().<AttributeValue>map(AttributeValue.S::new)
        .toList());
  }

  private static List<String> texts(AttributeValue v) {
    if (!(v instanceof AttributeValue.L l)) {
      return null;
    }
    return l.value().stream().map(e -> ((AttributeValue.S) e).value()).toList();
  }
}
