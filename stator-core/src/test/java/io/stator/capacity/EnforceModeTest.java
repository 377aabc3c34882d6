package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.GetItemRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.ProvisionedThroughputExceededException;
import io.stator.api.PutItemRequest;
import io.stator.api.ThrottlingReason;
import io.stator.api.UpdateItemRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Observe and enforce through the engine's operations, on a hand-moved clock. */
class EnforceModeTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

  private Engine open(CapacityMode mode) {
    Engine db = (Engine) Stator.open(new MemoryStorage(),
        EngineOptions.defaults().withClock(clock).withCapacityMode(mode));
    // 1,000 WCU provisioned: one partition, and plenty of table throughput.
    db.createTable(new CreateTableRequest("sensors",
        List.of(new AttributeDefinition("pk", "S")),
        List.of(new KeySchemaElement("pk", "HASH")),
        null, null, null, new ProvisionedThroughput(10L, 990L),
        null, null, null, null, null, null, null));
    return db;
  }

  private static PutItemRequest put(String pk, int n) {
    return new PutItemRequest("sensors",
        Map.of("pk", new AttributeValue.S(pk), "n", new AttributeValue.N(Integer.toString(n))),
        null, null, null, null, null, null, null, null, null);
  }

  @Test
  void enforceRefusesPastTheCeilingAndWritesNothing() {
    try (Engine db = open(CapacityMode.ENFORCE)) {
      for (int i = 0; i < 1000; i++) {
        db.putItem(put("2026-03-01", i));
      }
      assertThatThrownBy(() -> db.putItem(put("2026-03-01", 1000)))
          .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e ->
              assertThat(e.throttlingReasons()).containsExactly(new ThrottlingReason(
                  "TableWriteKeyRangeThroughputExceeded",
                  "arn:aws:dynamodb:us-east-1:000000000000:table/sensors")));
      assertThatThrownBy(() -> db.updateItem(new UpdateItemRequest("sensors",
          Map.of("pk", new AttributeValue.S("2026-03-01")), "SET n = :n", null, null,
          Map.of(":n", new AttributeValue.N("-1")), null, null, null, null, null, null, null)))
          .isInstanceOf(ProvisionedThroughputExceededException.class);
      Map<String, AttributeValue> stored = db.getItem(new GetItemRequest("sensors",
          Map.of("pk", new AttributeValue.S("2026-03-01")), true, null, null, null, null))
          .item();
      assertThat(stored.get("n")).isEqualTo(new AttributeValue.N("999"));
      // A second later the key has its ceiling again.
      clock.advanceSeconds(1);
      db.putItem(put("2026-03-01", 1000));
    }
  }

  @Test
  void observeServesEverythingAndCountsTheWouldBeThrottles() {
    try (Engine db = open(CapacityMode.OBSERVE)) {
      for (int i = 0; i < 1100; i++) {
        db.putItem(put("2026-03-01", i));
      }
      PartitionReport report = db.partitions("sensors");
      assertThat(report.writeThrottles()).isEqualTo(100);
      assertThat(report.partitions().get(0).hotKeys().get(0).partitionKey())
          .isEqualTo("2026-03-01");
      assertThat(report.partitions().get(0).hotKeys().get(0).throttles()).isEqualTo(100);
      assertThat(db.getItem(new GetItemRequest("sensors",
          Map.of("pk", new AttributeValue.S("2026-03-01")), true, null, null, null, null))
          .item().get("n")).isEqualTo(new AttributeValue.N("1099"));
    }
  }
}
