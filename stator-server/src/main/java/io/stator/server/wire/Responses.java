package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.Capacity;
import io.stator.api.ConsumedCapacity;
import io.stator.api.DeleteItemResponse;
import io.stator.api.GetItemResponse;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.ListTablesResponse;
import io.stator.api.PutItemResponse;
import io.stator.api.QueryResponse;
import io.stator.api.ScanResponse;
import io.stator.api.UpdateItemResponse;
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

  // ---- responses --------------------------------------------------------------------------

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

  static void strings(JsonGenerator out, java.util.Collection<String> values)
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

  static void bool(JsonGenerator out, String name, Boolean value) throws IOException {
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
