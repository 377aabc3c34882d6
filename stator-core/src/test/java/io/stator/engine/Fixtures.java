package io.stator.engine;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteItemRequest;
import io.stator.api.GetItemRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.ScanRequest;
import io.stator.capacity.PartitionReport;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Request builders for the engine tests. */
final class Fixtures {
  private Fixtures() {}

  static CreateTableRequest create(
      String name, String hash, String hashType, String range, String rangeType) {
    List<AttributeDefinition> defs = new ArrayList<>();
    List<KeySchemaElement> keys = new ArrayList<>();
    defs.add(new AttributeDefinition(hash, hashType));
    keys.add(new KeySchemaElement(hash, "HASH"));
    if (range != null) {
      defs.add(new AttributeDefinition(range, rangeType));
      keys.add(new KeySchemaElement(range, "RANGE"));
    }
    return new CreateTableRequest(
        name, defs, keys, null, null, "PAY_PER_REQUEST",
        null, null, null, null, null, null, null, null);
  }

  static CreateTableRequest provisioned(String name, long read, long write) {
    return new CreateTableRequest(
        name,
        List.of(new AttributeDefinition("pk", "S")),
        List.of(new KeySchemaElement("pk", "HASH")),
        null, null, null, new ProvisionedThroughput(read, write),
        null, null, null, null, null, null, null);
  }

  static Map<String, AttributeValue> item(Object... nameValues) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      Object v = nameValues[i + 1];
      m.put(
          (String) nameValues[i],
          v instanceof AttributeValue av
              ? av
              : v instanceof Number ? AttributeValue.n(v.toString()) : AttributeValue.s((String) v));
    }
    return m;
  }

  static void put(Database db, String table, Map<String, AttributeValue> item) {
    db.putItem(putRequest(table, item, null));
  }

  static PutItemRequest putRequest(
      String table, Map<String, AttributeValue> item, String returnValues) {
    return new PutItemRequest(
        table, item, null, null, null, returnValues, null, null, null, null, null);
  }

  static GetItemRequest get(String table, Map<String, AttributeValue> key) {
    return new GetItemRequest(table, key, null, null, null, null, null);
  }

  static DeleteItemRequest delete(
      String table, Map<String, AttributeValue> key, String returnValues) {
    return new DeleteItemRequest(
        table, key, null, null, null, returnValues, null, null, null, null, null);
  }

  static QueryRequest query(
      String table, String keyCondition, Map<String, AttributeValue> values) {
    return query(table, keyCondition, null, values, null, null, null);
  }

  static QueryRequest query(
      String table,
      String keyCondition,
      Map<String, String> names,
      Map<String, AttributeValue> values,
      Boolean forward,
      Integer limit,
      Map<String, AttributeValue> exclusiveStartKey) {
    return new QueryRequest(
        table, null, null, limit, null, forward, exclusiveStartKey, keyCondition, null, null,
        names, values, null, null, null, null, null);
  }

  static ScanRequest scan(
      String table, Integer limit, Map<String, AttributeValue> start, Integer segment,
      Integer total) {
    return new ScanRequest(
        table, null, null, limit, null, start, segment, total, null, null, null, null, null,
        null, null, null);
  }

  static Map<String, AttributeValue> values(Object... nameValues) {
    return item(nameValues);
  }

  /** The write units the partition model charged to one partition key of a table. */
  static double writeUnitsOf(Engine db, String table, String partitionKey) {
    return db.partitions(table).partitions().stream()
        .flatMap(p -> p.hotKeys().stream())
        .filter(k -> k.partitionKey().equals(partitionKey))
        .mapToDouble(PartitionReport.HotKey::writeUnits)
        .sum();
  }
}
