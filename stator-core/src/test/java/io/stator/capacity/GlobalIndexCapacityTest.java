package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.CreateTableRequest;
import io.stator.api.GetItemRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.ProvisionedThroughputExceededException;
import io.stator.api.PutItemRequest;
import io.stator.api.PutRequest;
import io.stator.api.QueryRequest;
import io.stator.api.ThrottlingReason;
import io.stator.api.UpdateItemRequest;
import io.stator.api.WriteRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Global secondary indexes have throughput and partitions of their own, keyed by the index's
 * partition key: the table "sensors" (keyed by sensor, far from its limits) has the GSI "byDay"
 * keyed by day, where every reading of one day lands on one index partition.
 */
class GlobalIndexCapacityTest {
  private static final String INDEX_ARN =
      "arn:aws:dynamodb:us-east-1:000000000000:table/sensors/index/byDay";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

  private Engine open(CapacityMode mode, long indexRead, long indexWrite) {
    Engine db = (Engine) Stator.open(new MemoryStorage(),
        EngineOptions.defaults().withClock(clock).withCapacityMode(mode));
    db.createTable(new CreateTableRequest("sensors",
        List.of(new AttributeDefinition("sensor", "S"), new AttributeDefinition("day", "S")),
        List.of(new KeySchemaElement("sensor", "HASH")),
        null,
        List.of(new GlobalSecondaryIndex("byDay", List.of(new KeySchemaElement("day", "HASH")),
            new Projection("KEYS_ONLY", null),
            new ProvisionedThroughput(indexRead, indexWrite))),
        null, new ProvisionedThroughput(10_000L, 10_000L),
        null, null, null, null, null, null, null));
    return db;
  }

  private static Map<String, AttributeValue> reading(String sensor, String day) {
    return Map.of("sensor", new AttributeValue.S(sensor), "day", new AttributeValue.S(day));
  }

  private static PutItemRequest put(String sensor, String day) {
    return new PutItemRequest("sensors", reading(sensor, day),
        null, null, null, null, null, null, null, null, null);
  }

  private static Map<String, AttributeValue> get(Engine db, String sensor) {
    return db.getItem(new GetItemRequest("sensors",
        Map.of("sensor", new AttributeValue.S(sensor)), true, null, null, null, null)).item();
  }

  @Test
  void oneDayThrottlesAtTheIndexPartitionCeilingAndTheBaseWriteIsRefused() {
    try (Engine db = open(CapacityMode.ENFORCE, 10, 990)) {
      assertThat(db.partitions("sensors", "byDay").partitions()).hasSize(1);
      for (int i = 0; i < 1000; i++) {
        db.putItem(put("sensor-" + i, "2026-03-01"));
      }
      // The table is far below its 10,000 WCU; the index partition of "2026-03-01" is full.
      assertThatThrownBy(() -> db.putItem(put("sensor-1000", "2026-03-01")))
          .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e -> {
            assertThat(e.throttlingReasons()).containsExactly(new ThrottlingReason(
                "IndexWriteKeyRangeThroughputExceeded", INDEX_ARN));
            assertThat(e.getMessage()).contains("global secondary indexes");
          });
      assertThat(get(db, "sensor-1000")).isNull(); // nothing written
      PartitionReport index = db.partitions("sensors", "byDay");
      assertThat(index.indexName()).isEqualTo("byDay");
      assertThat(index.writeThrottles()).isEqualTo(1);
      assertThat(index.partitions().get(0).hotKeys().get(0).partitionKey())
          .isEqualTo("2026-03-01");
      assertThat(db.partitions("sensors").writeThrottles()).isZero();
      // A second later the index partition has its ceiling again.
      clock.advanceSeconds(1);
      db.putItem(put("sensor-1000", "2026-03-01"));
      assertThat(get(db, "sensor-1000")).isNotNull();
    }
  }

  @Test
  void theIndexProvisionedThroughputIsItsOwn() {
    // 1 WCU on the index: 300 seconds of burst, then IndexWriteProvisionedThroughputExceeded.
    try (Engine db = open(CapacityMode.ENFORCE, 10, 1)) {
      for (int i = 0; i < 300; i++) {
        db.putItem(put("sensor-" + i, "day-" + i));
      }
      assertThatThrownBy(() -> db.putItem(put("sensor-300", "day-300")))
          .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e ->
              assertThat(e.throttlingReasons()).containsExactly(new ThrottlingReason(
                  "IndexWriteProvisionedThroughputExceeded", INDEX_ARN)));
      assertThat(get(db, "sensor-300")).isNull(); // nothing written
      // An item without the index key writes nothing in the index, and is not throttled by it.
      db.putItem(new PutItemRequest("sensors", Map.of("sensor", new AttributeValue.S("x")),
          null, null, null, null, null, null, null, null, null));
      assertThat(get(db, "x")).isNotNull();
    }
  }

  @Test
  void indexReadsAreChargedToTheIndex() throws InterruptedException {
    // 1 RCU on the index: 300 RCU of burst, 600 eventually consistent Queries of 0.5 RCU.
    try (Engine db = open(CapacityMode.ENFORCE, 1, 1000)) {
      db.putItem(put("s1", "2026-03-01"));
      assertThat(db.awaitIndexes(java.time.Duration.ofSeconds(30))).isTrue(); // GSIs lag
      QueryRequest query = new QueryRequest("sensors", "byDay", null, null, null, null, null,
          "#d = :d", null, null, Map.of("#d", "day"),
          Map.of(":d", new AttributeValue.S("2026-03-01")), null, null, null, null, null);
      for (int i = 0; i < 600; i++) {
        assertThat(db.query(query).count()).isEqualTo(1);
      }
      assertThatThrownBy(() -> db.query(query))
          .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e ->
              assertThat(e.throttlingReasons()).containsExactly(new ThrottlingReason(
                  "IndexReadProvisionedThroughputExceeded", INDEX_ARN)));
      PartitionReport index = db.partitions("sensors", "byDay");
      assertThat(index.partitions().get(0).hotKeys().get(0).readUnits()).isEqualTo(300.5);
      // The table's own reads are untouched by the index's.
      assertThat(db.partitions("sensors").readThrottles()).isZero();
      assertThat(get(db, "s1")).isNotNull();
    }
  }

  @Test
  void observeCountsTheIndexThrottleAndWritesAnyway() {
    try (Engine db = open(CapacityMode.OBSERVE, 10, 990)) {
      for (int i = 0; i < 1100; i++) {
        db.putItem(put("sensor-" + i, "2026-03-01"));
      }
      assertThat(get(db, "sensor-1099")).isNotNull();
      assertThat(db.partitions("sensors", "byDay").writeThrottles()).isEqualTo(100);
      assertThat(db.partitions("sensors").writeThrottles()).isZero();
    }
  }

  @Test
  void anUpdateThatMovesTheIndexKeyChargesTheOldKeyAndTheNew() {
    try (Engine db = open(CapacityMode.ENFORCE, 10, 990)) {
      db.putItem(put("s1", "2026-03-01"));
      db.updateItem(new UpdateItemRequest("sensors", Map.of("sensor", new AttributeValue.S("s1")),
          "SET #d = :d", null, Map.of("#d", "day"),
          Map.of(":d", new AttributeValue.S("2026-03-02")), null, null, null, null, null, null,
          null));
      Map<String, Double> units = new java.util.HashMap<>();
      for (PartitionReport.PartitionStats p : db.partitions("sensors", "byDay").partitions()) {
        for (PartitionReport.HotKey k : p.hotKeys()) {
          units.put(k.partitionKey(), k.writeUnits());
        }
      }
      // A put under the first day, then a delete under it and a put under the second.
      assertThat(units).containsEntry("2026-03-01", 2.0).containsEntry("2026-03-02", 1.0);
    }
  }

  @Test
  void batchWriteItemReturnsIndexThrottledItemsUnprocessed() {
    try (Engine db = open(CapacityMode.ENFORCE, 10, 990)) {
      for (int i = 0; i < 999; i++) {
        db.putItem(put("sensor-" + i, "2026-03-01"));
      }
      BatchWriteItemResponse response = db.batchWriteItem(new BatchWriteItemRequest(Map.of(
          "sensors", List.of(
              new WriteRequest(new PutRequest(reading("a", "2026-03-01")), null),
              new WriteRequest(new PutRequest(reading("b", "2026-03-01")), null))),
          null, null));
      assertThat(response.unprocessedItems().get("sensors")).hasSize(1);
      assertThat(get(db, "a") == null ^ get(db, "b") == null).isTrue();
      // The item returned unprocessed is the one not written.
      String unprocessed = ((AttributeValue.S) response.unprocessedItems().get("sensors").get(0)
          .putRequest().item().get("sensor")).value();
      assertThat(get(db, unprocessed)).isNull();
    }
  }
}
