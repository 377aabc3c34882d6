package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.PutItemRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A table with a local secondary index never has one item collection split between partitions
 * (DynamoDB keeps an item collection, the items of one partition key value, on one partition).
 * Partitions are ranges of the partition key's hash, so every item of one key has one hash and
 * lies in one partition, and a split for heat falls strictly between two keys' hashes.
 */
class ItemCollectionSplitTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

  private Engine open() {
    Engine db = (Engine) Stator.open(new MemoryStorage(), EngineOptions.defaults()
        .withClock(clock).withCapacity(CapacitySettings.defaults().withHeatSeconds(3)));
    db.createTable(new CreateTableRequest("readings",
        List.of(new AttributeDefinition("sensor", "S"), new AttributeDefinition("at", "N"),
            new AttributeDefinition("value", "N")),
        List.of(new KeySchemaElement("sensor", "HASH"), new KeySchemaElement("at", "RANGE")),
        List.of(new LocalSecondaryIndex("byValue",
            List.of(new KeySchemaElement("sensor", "HASH"), new KeySchemaElement("value", "RANGE")),
            new Projection("KEYS_ONLY", null))),
        null, null, new ProvisionedThroughput(10L, 990L),
        null, null, null, null, null, null, null));
    return db;
  }

  private static void put(Engine db, String sensor, int at) {
    db.putItem(new PutItemRequest("readings", Map.of(
        "sensor", new AttributeValue.S(sensor),
        "at", new AttributeValue.N(Integer.toString(at)),
        "value", new AttributeValue.N(Integer.toString(at % 97))),
        null, null, null, null, null, null, null, null, null));
  }

  @Test
  void aHotItemCollectionIsNotSplit() {
    try (Engine db = open()) {
      // One partition key, 900 WCU/s over many sort keys, hot for twice the heat period.
      int at = 0;
      for (int second = 0; second < 6; second++) {
        for (int i = 0; i < 900; i++) {
          put(db, "hot", at++);
        }
        clock.advanceSeconds(1);
      }
      PartitionReport report = db.partitions("readings");
      assertThat(report.partitions()).hasSize(1);
      assertThat(report.splitsForHeat()).isZero();
      // The load was seen, and on one key: no split although the partition is hot.
      assertThat(report.partitions().get(0).hotKeys()).singleElement()
          .satisfies(k -> {
            assertThat(k.partitionKey()).isEqualTo("hot");
            assertThat(k.writeUnits()).isGreaterThan(0);
          });
    }
  }

  @Test
  void twoHotItemCollectionsSplitBetweenThem() {
    try (Engine db = open()) {
      int at = 0;
      for (int second = 0; second < 6; second++) {
        for (int i = 0; i < 450; i++) {
          put(db, "left", at);
          put(db, "right", at++);
        }
        clock.advanceSeconds(1);
      }
      PartitionReport report = db.partitions("readings");
      assertThat(report.splitsForHeat()).isEqualTo(1);
      // Each collection whole on one side of the split.
      assertThat(report.partitions()).hasSize(2)
          .allSatisfy(p -> assertThat(p.hotKeys()).hasSize(1));
    }
  }
}
