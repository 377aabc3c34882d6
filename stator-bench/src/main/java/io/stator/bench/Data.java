package io.stator.bench;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.value.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data model of every benchmark, the same as the load benchmark's (bench/preload.js): table
 * "bench" with partition key pk (S, "p0000"...) and sort key sk (N), 10 items per partition, each
 * ~1 KB: a 960-byte payload, a counter n and the GSI attributes gpk and gsk.
 */
final class Data {
  static final String TABLE = "bench";
  static final int PARTITIONS = 1000;
  static final int PER_PARTITION = 10;
  static final int ITEMS = PARTITIONS * PER_PARTITION;
  static final String PAYLOAD = "0123456789abcdef".repeat(60);

  private Data() {}

  static String pk(int partition) {
    return String.format("p%04d", partition);
  }

  static Map<String, AttributeValue> key(int partition, int sk) {
    Map<String, AttributeValue> key = new LinkedHashMap<>();
    key.put("pk", AttributeValue.s(pk(partition)));
    key.put("sk", AttributeValue.n(Integer.toString(sk)));
    return key;
  }

  static Map<String, AttributeValue> item(int partition, int sk, long n) {
    Map<String, AttributeValue> item = key(partition, sk);
    item.put("n", AttributeValue.n(Long.toString(n)));
    item.put("gpk", AttributeValue.s(String.format("g%03d", partition % 100)));
    item.put("gsk", AttributeValue.s(pk(partition) + "#" + sk));
    item.put("payload", AttributeValue.s(PAYLOAD));
    return item;
  }

  static CreateTableRequest createTable() {
    return new CreateTableRequest(
        TABLE,
        List.of(new AttributeDefinition("pk", "S"), new AttributeDefinition("sk", "N")),
        List.of(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("sk", "RANGE")),
        null, null, "PAY_PER_REQUEST", null, null, null, null, null, null, null, null);
  }

  static PutItemRequest put(Map<String, AttributeValue> item) {
    return new PutItemRequest(TABLE, item, null, null, null, null, null, null, null, null, null);
  }

  /** An UpdateItem that adds one to the item's counter {@code n}. */
  static UpdateItemRequest increment(int partition, int sk) {
    return new UpdateItemRequest(TABLE, key(partition, sk), "ADD n :one", null, null,
        Map.of(":one", AttributeValue.n("1")), null, null, null, null, null, null, null);
  }

  static GetItemRequest consistentGet(int partition, int sk) {
    return new GetItemRequest(TABLE, key(partition, sk), true, null, null, null, null);
  }

  static QueryRequest queryPartition(int partition) {
    return new QueryRequest(
        TABLE, null, null, null, null, null, null, "pk = :p", null, null, null,
        Map.of(":p", AttributeValue.s(pk(partition))), null, null, null, null, null);
  }

  /** The table as the load benchmark creates it: with the GSI "bygroup" (gpk, gsk), all projected. */
  static CreateTableRequest createTableWithIndex() {
    return new CreateTableRequest(
        TABLE,
        List.of(
            new AttributeDefinition("pk", "S"),
            new AttributeDefinition("sk", "N"),
            new AttributeDefinition("gpk", "S"),
            new AttributeDefinition("gsk", "S")),
        List.of(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("sk", "RANGE")),
        null,
        List.of(new GlobalSecondaryIndex(
            "bygroup",
            List.of(new KeySchemaElement("gpk", "HASH"), new KeySchemaElement("gsk", "RANGE")),
            new Projection("ALL", null),
            null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null);
  }

  /** Creates the table and puts all its items. */
  static void load(Database database) {
    database.createTable(createTable());
    for (int i = 0; i < ITEMS; i++) {
      database.putItem(put(item(i / PER_PARTITION, i % PER_PARTITION, i)));
    }
  }

  // The request bodies as an SDK sends them (the load benchmark's wrk scripts send the same).

  static byte[] getItemJson(int partition, int sk) {
    return utf8(
        "{\"TableName\":\"bench\",\"Key\":" + keyJson(partition, sk) + ",\"ConsistentRead\":true}");
  }

  static byte[] putItemJson(int partition, int sk, long n) {
    return utf8("{\"TableName\":\"bench\",\"Item\":" + itemJson(partition, sk, n) + "}");
  }

  static byte[] queryJson(int partition) {
    return utf8(
        "{\"TableName\":\"bench\",\"KeyConditionExpression\":\"pk = :p\","
            + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"" + pk(partition) + "\"}}}");
  }

  private static String keyJson(int partition, int sk) {
    return "{\"pk\":{\"S\":\"" + pk(partition) + "\"},\"sk\":{\"N\":\"" + sk + "\"}}";
  }

  private static String itemJson(int partition, int sk, long n) {
    return "{\"pk\":{\"S\":\"" + pk(partition) + "\"},\"sk\":{\"N\":\"" + sk + "\"},"
        + "\"n\":{\"N\":\"" + n + "\"},\"gpk\":{\"S\":\"" + String.format("g%03d", partition % 100)
        + "\"},\"gsk\":{\"S\":\"" + pk(partition) + "#" + sk + "\"},"
        + "\"payload\":{\"S\":\"" + PAYLOAD + "\"}}";
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
