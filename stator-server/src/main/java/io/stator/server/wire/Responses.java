package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.AttributeDefinition;
import io.stator.api.BillingModeSummary;
import io.stator.api.Capacity;
import io.stator.api.ConsumedCapacity;
import io.stator.api.ContributorInsightsSummary;
import io.stator.api.CreateTableResponse;
import io.stator.api.DeleteItemResponse;
import io.stator.api.DeleteTableResponse;
import io.stator.api.DescribeContributorInsightsResponse;
import io.stator.api.DescribeTableResponse;
import io.stator.api.DescribeTimeToLiveResponse;
import io.stator.api.GetItemResponse;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListContributorInsightsResponse;
import io.stator.api.ListTablesResponse;
import io.stator.api.LocalSecondaryIndexDescription;
import io.stator.api.Projection;
import io.stator.api.OnDemandThroughput;
import io.stator.api.ProvisionedThroughputDescription;
import io.stator.api.PutItemResponse;
import io.stator.api.QueryResponse;
import io.stator.api.ScanResponse;
import io.stator.api.StreamSpecification;
import io.stator.api.RestoreSummary;
import io.stator.api.TableDescription;
import io.stator.api.TimeToLiveDescription;
import io.stator.api.UpdateContributorInsightsResponse;
import io.stator.api.UpdateItemResponse;
import io.stator.api.UpdateTableResponse;
import io.stator.api.UpdateTimeToLiveResponse;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Writers of every response shape in DynamoDB's JSON: PascalCase members, null members omitted,
 * numbers in attribute values as strings, binaries as base64, timestamps as epoch seconds with
 * a fraction (the AWS JSON protocol's timestamp format).
 */
final class Responses {
  private Responses() {}

  @FunctionalInterface
  interface Writer<T> {
    void write(JsonGenerator out, T value) throws IOException;
  }

  // ---- responses ----------------------------------------------------------------------------

  static void createTable(JsonGenerator out, CreateTableResponse r) throws IOException {
    out.writeStartObject();
    field(out, "TableDescription", r.tableDescription(), Responses::tableDescription);
    out.writeEndObject();
  }

  static void describeTable(JsonGenerator out, DescribeTableResponse r) throws IOException {
    out.writeStartObject();
    field(out, "Table", r.table(), Responses::tableDescription);
    out.writeEndObject();
  }

  static void deleteTable(JsonGenerator out, DeleteTableResponse r) throws IOException {
    out.writeStartObject();
    field(out, "TableDescription", r.tableDescription(), Responses::tableDescription);
    out.writeEndObject();
  }

  static void updateTable(JsonGenerator out, UpdateTableResponse r) throws IOException {
    out.writeStartObject();
    field(out, "TableDescription", r.tableDescription(), Responses::tableDescription);
    out.writeEndObject();
  }

  static void updateTimeToLive(JsonGenerator out, UpdateTimeToLiveResponse r)
      throws IOException {
    out.writeStartObject();
    field(out, "TimeToLiveSpecification", r.timeToLiveSpecification(), (o, spec) -> {
      o.writeStartObject();
      bool(o, "Enabled", spec.enabled());
      string(o, "AttributeName", spec.attributeName());
      o.writeEndObject();
    });
    out.writeEndObject();
  }

  static void describeTimeToLive(JsonGenerator out, DescribeTimeToLiveResponse r)
      throws IOException {
    out.writeStartObject();
    field(out, "TimeToLiveDescription", r.timeToLiveDescription(),
        Responses::timeToLiveDescription);
    out.writeEndObject();
  }

  static void timeToLiveDescription(JsonGenerator out, TimeToLiveDescription d)
      throws IOException {
    out.writeStartObject();
    string(out, "TimeToLiveStatus", d.timeToLiveStatus());
    string(out, "AttributeName", d.attributeName());
    out.writeEndObject();
  }

  static void updateContributorInsights(
      JsonGenerator out, UpdateContributorInsightsResponse r) throws IOException {
    out.writeStartObject();
    string(out, "TableName", r.tableName());
    string(out, "IndexName", r.indexName());
    string(out, "ContributorInsightsStatus", r.contributorInsightsStatus());
    string(out, "ContributorInsightsMode", r.contributorInsightsMode());
    out.writeEndObject();
  }

  static void describeContributorInsights(
      JsonGenerator out, DescribeContributorInsightsResponse r) throws IOException {
    out.writeStartObject();
    string(out, "TableName", r.tableName());
    string(out, "IndexName", r.indexName());
    field(out, "ContributorInsightsRuleList", r.contributorInsightsRuleList(),
        Responses::strings);
    string(out, "ContributorInsightsStatus", r.contributorInsightsStatus());
    timestamp(out, "LastUpdateDateTime", r.lastUpdateDateTime());
    field(out, "FailureException", r.failureException(), (o, f) -> {
      o.writeStartObject();
      string(o, "ExceptionName", f.exceptionName());
      string(o, "ExceptionDescription", f.exceptionDescription());
      o.writeEndObject();
    });
    string(out, "ContributorInsightsMode", r.contributorInsightsMode());
    out.writeEndObject();
  }

  static void listContributorInsights(JsonGenerator out, ListContributorInsightsResponse r)
      throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("ContributorInsightsSummaries");
    for (ContributorInsightsSummary summary : r.contributorInsightsSummaries()) {
      out.writeStartObject();
      string(out, "TableName", summary.tableName());
      string(out, "IndexName", summary.indexName());
      string(out, "ContributorInsightsStatus", summary.contributorInsightsStatus());
      string(out, "ContributorInsightsMode", summary.contributorInsightsMode());
      out.writeEndObject();
    }
    out.writeEndArray();
    string(out, "NextToken", r.nextToken());
    out.writeEndObject();
  }

  static void listTables(JsonGenerator out, ListTablesResponse r) throws IOException {
    out.writeStartObject();
    // DynamoDB always answers TableNames, an empty list when there are no tables.
    List<String> names = r.tableNames() == null ? List.of() : r.tableNames();
    field(out, "TableNames", names, Responses::strings);
    string(out, "LastEvaluatedTableName", r.lastEvaluatedTableName());
    out.writeEndObject();
  }

  static void putItem(JsonGenerator out, PutItemResponse r) throws IOException {
    writeResponse(out, r.attributes(), r.consumedCapacity(), r.itemCollectionMetrics());
  }

  static void deleteItem(JsonGenerator out, DeleteItemResponse r) throws IOException {
    writeResponse(out, r.attributes(), r.consumedCapacity(), r.itemCollectionMetrics());
  }

  static void updateItem(JsonGenerator out, UpdateItemResponse r) throws IOException {
    writeResponse(out, r.attributes(), r.consumedCapacity(), r.itemCollectionMetrics());
  }

  private static void writeResponse(
      JsonGenerator out,
      Map<String, AttributeValue> attributes,
      ConsumedCapacity capacity,
      ItemCollectionMetrics metrics)
      throws IOException {
    out.writeStartObject();
    field(out, "Attributes", attributes, Responses::item);
    field(out, "ConsumedCapacity", capacity, Responses::consumedCapacity);
    field(out, "ItemCollectionMetrics", metrics, Responses::itemCollectionMetrics);
    out.writeEndObject();
  }

  static void getItem(JsonGenerator out, GetItemResponse r) throws IOException {
    out.writeStartObject();
    field(out, "Item", r.item(), Responses::item);
    field(out, "ConsumedCapacity", r.consumedCapacity(), Responses::consumedCapacity);
    out.writeEndObject();
  }

  static void query(JsonGenerator out, QueryResponse r) throws IOException {
    page(out, r.items(), r.count(), r.scannedCount(), r.lastEvaluatedKey(), r.consumedCapacity());
  }

  static void scan(JsonGenerator out, ScanResponse r) throws IOException {
    page(out, r.items(), r.count(), r.scannedCount(), r.lastEvaluatedKey(), r.consumedCapacity());
  }

  private static void page(
      JsonGenerator out,
      List<Map<String, AttributeValue>> items,
      int count,
      int scannedCount,
      Map<String, AttributeValue> lastEvaluatedKey,
      ConsumedCapacity capacity)
      throws IOException {
    out.writeStartObject();
    // Select=COUNT answers no Items member at all.
    if (items != null) {
      out.writeArrayFieldStart("Items");
      for (Map<String, AttributeValue> item : items) {
        item(out, item);
      }
      out.writeEndArray();
    }
    out.writeNumberField("Count", count);
    out.writeNumberField("ScannedCount", scannedCount);
    field(out, "LastEvaluatedKey", lastEvaluatedKey, Responses::item);
    field(out, "ConsumedCapacity", capacity, Responses::consumedCapacity);
    out.writeEndObject();
  }

  // ---- table descriptions -------------------------------------------------------------------

  static void tableDescription(JsonGenerator out, TableDescription t) throws IOException {
    out.writeStartObject();
    field(out, "AttributeDefinitions", t.attributeDefinitions(), list(Responses::attributeDef));
    string(out, "TableName", t.tableName());
    field(out, "KeySchema", t.keySchema(), list(Responses::keySchemaElement));
    string(out, "TableStatus", t.tableStatus());
    timestamp(out, "CreationDateTime", t.creationDateTime());
    field(out, "ProvisionedThroughput", t.provisionedThroughput(), Responses::throughput);
    number(out, "TableSizeBytes", t.tableSizeBytes());
    number(out, "ItemCount", t.itemCount());
    string(out, "TableArn", t.tableArn());
    string(out, "TableId", t.tableId());
    field(out, "BillingModeSummary", t.billingModeSummary(), Responses::billingModeSummary);
    field(out, "LocalSecondaryIndexes", t.localSecondaryIndexes(), list(Responses::lsi));
    field(out, "GlobalSecondaryIndexes", t.globalSecondaryIndexes(), list(Responses::gsi));
    field(out, "StreamSpecification", t.streamSpecification(), Responses::streamSpecification);
    string(out, "LatestStreamLabel", t.latestStreamLabel());
    string(out, "LatestStreamArn", t.latestStreamArn());
    bool(out, "DeletionProtectionEnabled", t.deletionProtectionEnabled());
    SettingsResponses.tableClassSummary(out, t.tableClassSummary());
    SettingsResponses.sseDescription(out, t.sseDescription());
    field(out, "OnDemandThroughput", t.onDemandThroughput(), Responses::onDemandThroughput);
    field(out, "RestoreSummary", t.restoreSummary(), Responses::restoreSummary);
    out.writeEndObject();
  }

  private static void restoreSummary(JsonGenerator out, RestoreSummary r) throws IOException {
    out.writeStartObject();
    string(out, "SourceBackupArn", r.sourceBackupArn());
    string(out, "SourceTableArn", r.sourceTableArn());
    timestamp(out, "RestoreDateTime", r.restoreDateTime());
    bool(out, "RestoreInProgress", r.restoreInProgress());
    out.writeEndObject();
  }

  static void onDemandThroughput(JsonGenerator out, OnDemandThroughput o)
      throws IOException {
    out.writeStartObject();
    number(out, "MaxReadRequestUnits", o.maxReadRequestUnits());
    number(out, "MaxWriteRequestUnits", o.maxWriteRequestUnits());
    out.writeEndObject();
  }

  static void attributeDef(JsonGenerator out, AttributeDefinition d) throws IOException {
    out.writeStartObject();
    string(out, "AttributeName", d.attributeName());
    string(out, "AttributeType", d.attributeType());
    out.writeEndObject();
  }

  static void keySchemaElement(JsonGenerator out, KeySchemaElement k) throws IOException {
    out.writeStartObject();
    string(out, "AttributeName", k.attributeName());
    string(out, "KeyType", k.keyType());
    out.writeEndObject();
  }

  private static void throughput(JsonGenerator out, ProvisionedThroughputDescription p)
      throws IOException {
    out.writeStartObject();
    timestamp(out, "LastIncreaseDateTime", p.lastIncreaseDateTime());
    timestamp(out, "LastDecreaseDateTime", p.lastDecreaseDateTime());
    number(out, "NumberOfDecreasesToday", p.numberOfDecreasesToday());
    number(out, "ReadCapacityUnits", p.readCapacityUnits());
    number(out, "WriteCapacityUnits", p.writeCapacityUnits());
    out.writeEndObject();
  }

  private static void billingModeSummary(JsonGenerator out, BillingModeSummary b)
      throws IOException {
    out.writeStartObject();
    string(out, "BillingMode", b.billingMode());
    timestamp(out, "LastUpdateToPayPerRequestDateTime", b.lastUpdateToPayPerRequestDateTime());
    out.writeEndObject();
  }

  static void projection(JsonGenerator out, Projection p) throws IOException {
    out.writeStartObject();
    string(out, "ProjectionType", p.projectionType());
    field(out, "NonKeyAttributes", p.nonKeyAttributes(), Responses::strings);
    out.writeEndObject();
  }

  private static void lsi(JsonGenerator out, LocalSecondaryIndexDescription i) throws IOException {
    out.writeStartObject();
    string(out, "IndexName", i.indexName());
    field(out, "KeySchema", i.keySchema(), list(Responses::keySchemaElement));
    field(out, "Projection", i.projection(), Responses::projection);
    number(out, "IndexSizeBytes", i.indexSizeBytes());
    number(out, "ItemCount", i.itemCount());
    string(out, "IndexArn", i.indexArn());
    out.writeEndObject();
  }

  private static void gsi(JsonGenerator out, GlobalSecondaryIndexDescription i)
      throws IOException {
    out.writeStartObject();
    string(out, "IndexName", i.indexName());
    field(out, "KeySchema", i.keySchema(), list(Responses::keySchemaElement));
    field(out, "Projection", i.projection(), Responses::projection);
    string(out, "IndexStatus", i.indexStatus());
    bool(out, "Backfilling", i.backfilling());
    field(out, "ProvisionedThroughput", i.provisionedThroughput(), Responses::throughput);
    number(out, "IndexSizeBytes", i.indexSizeBytes());
    number(out, "ItemCount", i.itemCount());
    string(out, "IndexArn", i.indexArn());
    field(out, "OnDemandThroughput", i.onDemandThroughput(), Responses::onDemandThroughput);
    out.writeEndObject();
  }

  static void streamSpecification(JsonGenerator out, StreamSpecification s)
      throws IOException {
    out.writeStartObject();
    bool(out, "StreamEnabled", s.streamEnabled());
    string(out, "StreamViewType", s.streamViewType());
    out.writeEndObject();
  }

  // ---- capacity -----------------------------------------------------------------------------

  static void consumedCapacity(JsonGenerator out, ConsumedCapacity c) throws IOException {
    out.writeStartObject();
    string(out, "TableName", c.tableName());
    number(out, "CapacityUnits", c.capacityUnits());
    number(out, "ReadCapacityUnits", c.readCapacityUnits());
    number(out, "WriteCapacityUnits", c.writeCapacityUnits());
    field(out, "Table", c.table(), Responses::capacity);
    field(out, "LocalSecondaryIndexes", c.localSecondaryIndexes(), map(Responses::capacity));
    field(out, "GlobalSecondaryIndexes", c.globalSecondaryIndexes(), map(Responses::capacity));
    out.writeEndObject();
  }

  private static void capacity(JsonGenerator out, Capacity c) throws IOException {
    out.writeStartObject();
    number(out, "ReadCapacityUnits", c.readCapacityUnits());
    number(out, "WriteCapacityUnits", c.writeCapacityUnits());
    number(out, "CapacityUnits", c.capacityUnits());
    out.writeEndObject();
  }

  static void itemCollectionMetrics(JsonGenerator out, ItemCollectionMetrics m)
      throws IOException {
    out.writeStartObject();
    field(out, "ItemCollectionKey", m.itemCollectionKey(), Responses::item);
    if (m.sizeEstimateRangeGB() != null) {
      out.writeArrayFieldStart("SizeEstimateRangeGB");
      for (Double d : m.sizeEstimateRangeGB()) {
        out.writeNumber(d);
      }
      out.writeEndArray();
    }
    out.writeEndObject();
  }

  // ---- attribute values ---------------------------------------------------------------------

  static void item(JsonGenerator out, Map<String, AttributeValue> item) throws IOException {
    out.writeStartObject();
    for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
      out.writeFieldName(e.getKey());
      attributeValue(out, e.getValue());
    }
    out.writeEndObject();
  }

  static void attributeValue(JsonGenerator out, AttributeValue value) throws IOException {
    out.writeStartObject();
    // Java 17 has no pattern switch; the sealed hierarchy is small enough for a chain.
    if (value instanceof AttributeValue.S s) {
      out.writeFieldName("S");
      if (s.hasUtf8() && out.getOutputTarget() instanceof OutputStream) {
        // A stored item's string, written out as the UTF-8 it is kept in, without making the
        // String: quotes, backslashes and control characters escaped as in a String, other
        // characters as their UTF-8 (writeString escapes those beyond the BMP as surrogate
        // pairs instead; both read as the same string). A generator of chars cannot take bytes.
        out.writeUTF8String(s.unsafeUtf8Array(), s.utf8Offset(), s.utf8Length());
      } else {
        out.writeString(s.value());
      }
    } else if (value instanceof AttributeValue.N n) {
      out.writeStringField("N", n.value());
    } else if (value instanceof AttributeValue.B b) {
      out.writeStringField("B", b.value().toBase64());
    } else if (value instanceof AttributeValue.Bool b) {
      out.writeBooleanField("BOOL", b.value());
    } else if (value instanceof AttributeValue.Null) {
      out.writeBooleanField("NULL", true);
    } else if (value instanceof AttributeValue.M m) {
      out.writeFieldName("M");
      item(out, m.value());
    } else if (value instanceof AttributeValue.L l) {
      out.writeArrayFieldStart("L");
      for (AttributeValue v : l.value()) {
        attributeValue(out, v);
      }
      out.writeEndArray();
    } else if (value instanceof AttributeValue.SS ss) {
      out.writeFieldName("SS");
      strings(out, ss.value());
    } else if (value instanceof AttributeValue.NS ns) {
      out.writeFieldName("NS");
      strings(out, ns.value());
    } else if (value instanceof AttributeValue.BS bs) {
      out.writeArrayFieldStart("BS");
      for (Bytes b : bs.value()) {
        out.writeString(b.toBase64());
      }
      out.writeEndArray();
    }
    out.writeEndObject();
  }

  // ---- members ------------------------------------------------------------------------------

  static <T> void field(JsonGenerator out, String name, T value, Writer<T> writer)
      throws IOException {
    if (value != null) {
      out.writeFieldName(name);
      writer.write(out, value);
    }
  }

  static <T> Writer<List<T>> list(Writer<T> element) {
    return (out, values) -> {
      out.writeStartArray();
      for (T v : values) {
        element.write(out, v);
      }
      out.writeEndArray();
    };
  }

  private static <T> Writer<Map<String, T>> map(Writer<T> value) {
    return (out, values) -> {
      out.writeStartObject();
      for (Map.Entry<String, T> e : values.entrySet()) {
        out.writeFieldName(e.getKey());
        value.write(out, e.getValue());
      }
      out.writeEndObject();
    };
  }

  private static void strings(JsonGenerator out, java.util.Collection<String> values)
      throws IOException {
    out.writeStartArray();
    for (String s : values) {
      out.writeString(s);
    }
    out.writeEndArray();
  }

  static void string(JsonGenerator out, String name, String value) throws IOException {
    if (value != null) {
      out.writeStringField(name, value);
    }
  }

  static void number(JsonGenerator out, String name, Long value) throws IOException {
    if (value != null) {
      out.writeNumberField(name, value);
    }
  }

  private static void number(JsonGenerator out, String name, Double value) throws IOException {
    if (value != null) {
      out.writeNumberField(name, value);
    }
  }

  private static void bool(JsonGenerator out, String name, Boolean value) throws IOException {
    if (value != null) {
      out.writeBooleanField(name, value);
    }
  }

  /** Epoch seconds with the fraction DynamoDB gives, e.g. {@code 1700000000.123}. */
  static void timestamp(JsonGenerator out, String name, Instant value) throws IOException {
    if (value != null) {
      BigDecimal seconds =
          BigDecimal.valueOf(value.getEpochSecond())
              .add(BigDecimal.valueOf(value.getNano(), 9))
              .stripTrailingZeros();
      out.writeFieldName(name);
      out.writeNumber(seconds.scale() < 0 ? seconds.setScale(0) : seconds);
    }
  }
}
