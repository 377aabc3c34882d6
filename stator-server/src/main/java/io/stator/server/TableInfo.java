package io.stator.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.api.AttributeDefinition;
import io.stator.api.KeySchemaElement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the export and import commands need of a table's DescribeTable: its ARN, id, status,
 * approximate item count, key schema and attribute definitions.
 */
record TableInfo(String arn, String id, String status, long itemCount,
    List<KeySchemaElement> keySchema, List<AttributeDefinition> attributeDefinitions) {

  /**
   * The table, ACTIVE: made (on-demand, with {@code keys}: the partition key, then the sort key)
   * when it is missing and keys are given; an existing table must have those keys.
   */
  static TableInfo ready(DynamoDbApi api, String table, List<AttributeDefinition> keys)
      throws IOException {
    TableInfo info;
    try {
      info = describe(api, table);
    } catch (DynamoDbApi.ApiError e) {
      if (!e.type.equals("ResourceNotFoundException")) {
        throw e;
      }
      if (keys == null) {
        throw new IllegalArgumentException("table " + table + " not found at " + api.base()
            + ": make it first, or give its keys with --key NAME:TYPE (the partition key, then"
            + " the sort key if any) to have it made");
      }
      create(api, table, keys);
      info = describe(api, table);
    }
    if (keys != null && !info.hasKeys(keys)) {
      throw new IllegalArgumentException("table " + table + " exists with other keys than"
          + " --key gives: " + info.keySchema());
    }
    for (long deadline = System.nanoTime() + 60_000_000_000L; !"ACTIVE".equals(info.status()); ) {
      if (System.nanoTime() > deadline) {
        throw new IOException("table " + table + " is still " + info.status() + " after 60 s");
      }
      DynamoDbApi.backoff(1);
      info = describe(api, table);
    }
    return info;
  }

  private boolean hasKeys(List<AttributeDefinition> keys) {
    if (keys.size() != keySchema.size()) {
      return false;
    }
    for (int i = 0; i < keys.size(); i++) {
      String name = keys.get(i).attributeName();
      if (!keySchema.get(i).attributeName().equals(name)
          || !attributeDefinitions.contains(keys.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static void create(DynamoDbApi api, String table, List<AttributeDefinition> keys)
      throws IOException {
    api.call("CreateTable", out -> {
      out.writeStringField("TableName", table);
      out.writeStringField("BillingMode", "PAY_PER_REQUEST");
      out.writeArrayFieldStart("AttributeDefinitions");
      for (AttributeDefinition k : keys) {
        out.writeStartObject();
        out.writeStringField("AttributeName", k.attributeName());
        out.writeStringField("AttributeType", k.attributeType());
        out.writeEndObject();
      }
      out.writeEndArray();
      out.writeArrayFieldStart("KeySchema");
      for (int i = 0; i < keys.size(); i++) {
        out.writeStartObject();
        out.writeStringField("AttributeName", keys.get(i).attributeName());
        out.writeStringField("KeyType", i == 0 ? "HASH" : "RANGE");
        out.writeEndObject();
      }
      out.writeEndArray();
    }, in -> {
      in.skipChildren();
      return null;
    });
  }

  static TableInfo describe(DynamoDbApi api, String table) throws IOException {
    return api.call("DescribeTable", out -> out.writeStringField("TableName", table), in -> {
      TableInfo info = null;
      while (in.nextToken() == JsonToken.FIELD_NAME) {
        in.nextToken();
        if (in.currentName().equals("Table")) {
          info = read(in);
        } else {
          in.skipChildren();
        }
      }
      return info;
    });
  }

  private static TableInfo read(JsonParser in) throws IOException {
    String arn = null;
    String id = null;
    String status = null;
    long count = 0;
    List<KeySchemaElement> keys = new ArrayList<>();
    List<AttributeDefinition> definitions = new ArrayList<>();
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      in.nextToken();
      switch (field) {
        case "TableArn" -> arn = in.getText();
        case "TableId" -> id = in.getText();
        case "TableStatus" -> status = in.getText();
        case "ItemCount" -> count = in.getLongValue();
        case "KeySchema" -> {
          while (in.nextToken() == JsonToken.START_OBJECT) {
            String[] pair = pair(in, "AttributeName", "KeyType");
            keys.add(new KeySchemaElement(pair[0], pair[1]));
          }
        }
        case "AttributeDefinitions" -> {
          while (in.nextToken() == JsonToken.START_OBJECT) {
            String[] pair = pair(in, "AttributeName", "AttributeType");
            definitions.add(new AttributeDefinition(pair[0], pair[1]));
          }
        }
        default -> in.skipChildren();
      }
    }
    return new TableInfo(arn, id, status, count, keys, definitions);
  }

  /** The two string members named of the object the parser is on. */
  private static String[] pair(JsonParser in, String first, String second) throws IOException {
    String[] out = new String[2];
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      in.nextToken();
      if (field.equals(first)) {
        out[0] = in.getText();
      } else if (field.equals(second)) {
        out[1] = in.getText();
      } else {
        in.skipChildren();
      }
    }
    return out;
  }
}
