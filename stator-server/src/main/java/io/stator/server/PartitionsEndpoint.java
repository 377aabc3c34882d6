package io.stator.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.stator.api.Database;
import io.stator.api.DynamoDbException;
import io.stator.capacity.PartitionReport;
import io.stator.capacity.PartitionReports;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Stator's own read-only view of the capacity model: {@code GET /stator/tables/<name>/partitions}
 * answers the table's partitions, consumption, throttles and hot keys as JSON, or as the text
 * table {@code stator hot-keys} prints with {@code ?format=text}; {@code ?index=<name>}
 * answers the same for a global secondary index, which has partitions of its own. DynamoDB's API
 * is only ever {@code POST /}, so no path under {@code /stator/} can collide with it.
 */
final class PartitionsEndpoint {
  static final String PREFIX = "/stator/";
  static final String TABLES = "/stator/tables/";
  private static final String PARTITIONS = "/partitions";
  private static final JsonFactory JSON = new JsonFactory();

  private PartitionsEndpoint() {}

  /** An answer: HTTP status, content type, body. */
  record Answer(int status, String contentType, byte[] body) {}

  static boolean handles(String uri) {
    return uri.startsWith(PREFIX);
  }

  static Answer answer(Database database, String uri) {
    QueryStringDecoder decoder = new QueryStringDecoder(uri);
    String path = decoder.rawPath();
    if (!path.startsWith(TABLES) || !path.endsWith(PARTITIONS)
        || path.length() <= TABLES.length() + PARTITIONS.length()
        || !(database instanceof PartitionReports reports)) {
      return json(404, "NotFound", "No such resource: " + path);
    }
    String table;
    Map<String, List<String>> parameters;
    try {
      table = URLDecoder.decode(
          path.substring(TABLES.length(), path.length() - PARTITIONS.length()),
          StandardCharsets.UTF_8);
      parameters = decoder.parameters();
    } catch (IllegalArgumentException malformedEscape) {
      return json(400, "BadRequest", "Malformed percent-escape in " + uri);
    }
    List<String> indexes = parameters.get("index");
    String index = indexes == null || indexes.isEmpty() ? null : indexes.get(0);
    PartitionReport report;
    try {
      report = reports.partitions(table, index);
    } catch (DynamoDbException e) {
      return json(404, e.type().name(), index == null
          ? "Table not found: " + table
          : "Global secondary index not found: " + index + " of table " + table);
    }
    List<String> format = parameters.get("format");
    if (format != null && format.contains("text")) {
      int keys = 5;
      List<String> k = parameters.get("keys");
      if (k != null && !k.isEmpty()) {
        try {
          keys = Math.max(1, Integer.parseInt(k.get(0)));
        } catch (NumberFormatException e) {
          // keep the default
        }
      }
      return new Answer(200, "text/plain; charset=utf-8",
          report.text(keys).getBytes(StandardCharsets.UTF_8));
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try {
      write(report, out);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return new Answer(200, "application/json", out.toByteArray());
  }

  private static Answer json(int status, String type, String message) {
    String body = "{\"__type\":\"" + type + "\",\"message\":" + quote(message) + "}";
    return new Answer(status, "application/json", body.getBytes(StandardCharsets.UTF_8));
  }

  private static String quote(String s) {
    java.io.StringWriter w = new java.io.StringWriter();
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeString(s);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return w.toString();
  }

  static void write(PartitionReport r, OutputStream out) throws IOException {
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("TableName", r.tableName());
      if (r.indexName() != null) {
        g.writeStringField("IndexName", r.indexName());
      }
      g.writeStringField("BillingMode", r.billingMode());
      g.writeStringField("CapacityMode", r.capacityMode());
      if (r.provisionedReadCapacityUnits() != null) {
        g.writeNumberField("ProvisionedReadCapacityUnits", r.provisionedReadCapacityUnits());
        g.writeNumberField("ProvisionedWriteCapacityUnits", r.provisionedWriteCapacityUnits());
        g.writeNumberField("BurstReadCapacityUnits", r.burstReadCapacityUnits());
        g.writeNumberField("BurstWriteCapacityUnits", r.burstWriteCapacityUnits());
      }
      g.writeNumberField("ReadThrottles", r.readThrottles());
      g.writeNumberField("WriteThrottles", r.writeThrottles());
      g.writeNumberField("SplitsForHeat", r.splitsForHeat());
      g.writeNumberField("SplitsForSize", r.splitsForSize());
      g.writeNumberField("SplitsForThroughput", r.splitsForThroughput());
      g.writeArrayFieldStart("Partitions");
      for (PartitionReport.PartitionStats p : r.partitions()) {
        g.writeStartObject();
        g.writeNumberField("Index", p.index());
        g.writeStringField("HashStart", p.hashStart());
        g.writeStringField("HashEnd", p.hashEnd());
        g.writeNumberField("ReadCapacityUnitsPerSecond", p.readUnitsPerSecond());
        g.writeNumberField("WriteCapacityUnitsPerSecond", p.writeUnitsPerSecond());
        g.writeNumberField("PeakReadCapacityUnitsPerSecond", p.peakReadUnitsPerSecond());
        g.writeNumberField("PeakWriteCapacityUnitsPerSecond", p.peakWriteUnitsPerSecond());
        g.writeNumberField("ReadThrottles", p.readThrottles());
        g.writeNumberField("WriteThrottles", p.writeThrottles());
        g.writeNumberField("AdaptiveReadCapacityUnits", p.adaptiveReadUnits());
        g.writeNumberField("AdaptiveWriteCapacityUnits", p.adaptiveWriteUnits());
        g.writeNumberField("SizeBytes", p.sizeBytes());
        g.writeArrayFieldStart("HotKeys");
        for (PartitionReport.HotKey k : p.hotKeys()) {
          g.writeStartObject();
          g.writeStringField("PartitionKey", k.partitionKey());
          g.writeNumberField("ReadCapacityUnits", k.readUnits());
          g.writeNumberField("WriteCapacityUnits", k.writeUnits());
          g.writeNumberField("Throttles", k.throttles());
          g.writeNumberField("Error", k.error());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
  }
}
