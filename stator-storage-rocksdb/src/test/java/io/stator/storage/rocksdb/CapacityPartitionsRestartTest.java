package io.stator.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.PutItemRequest;
import io.stator.capacity.CapacitySettings;
import io.stator.capacity.ManualClock;
import io.stator.capacity.PartitionReport;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.value.AttributeValue;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splits are permanent, on DynamoDB and across a restart of a Stator server: the partition
 * boundaries of a table and of its global secondary index, split for heat, are read back when
 * the RocksDB store is opened again.
 */
class CapacityPartitionsRestartTest {
  @TempDir Path dir;

  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));

  private Engine open() {
    return (Engine) Stator.open(RocksDbStorage.open(dir), EngineOptions.defaults()
        .withClock(clock).withCapacity(CapacitySettings.defaults().withHeatSeconds(3)));
  }

  private static List<String> starts(PartitionReport report) {
    return report.partitions().stream().map(PartitionReport.PartitionStats::hashStart).toList();
  }

  @Test
  void heatSplitsOfATableAndItsIndexSurviveARestart() {
    List<String> tableStarts;
    List<String> indexStarts;
    try (Engine db = open()) {
      db.createTable(new CreateTableRequest("sensors",
          List.of(new AttributeDefinition("sensor", "S"), new AttributeDefinition("day", "S")),
          List.of(new KeySchemaElement("sensor", "HASH")),
          null,
          List.of(new GlobalSecondaryIndex("byDay", List.of(new KeySchemaElement("day", "HASH")),
              new Projection("KEYS_ONLY", null), new ProvisionedThroughput(10L, 990L))),
          null, new ProvisionedThroughput(10L, 990L), null, null, null, null, null, null, null));
      // Two groups of sensors, each writing new readings of its own day, 450 WCU/s each for six
      // seconds: the index splits between the two days, the table between its hot sensors.
      for (int second = 0; second < 6; second++) {
        for (int i = 0; i < 450; i++) {
          for (String sensor : List.of("left", "right")) {
            db.putItem(new PutItemRequest("sensors", Map.of(
                "sensor", new AttributeValue.S(sensor + "-" + second + "-" + i),
                "day", new AttributeValue.S(sensor + "-day")),
                null, null, null, null, null, null, null, null, null));
          }
        }
        clock.advanceSeconds(1);
      }
      tableStarts = starts(db.partitions("sensors"));
      indexStarts = starts(db.partitions("sensors", "byDay"));
      assertThat(tableStarts).hasSize(2);
      assertThat(indexStarts).hasSize(2);
    }
    try (Engine db = open()) {
      assertThat(starts(db.partitions("sensors"))).isEqualTo(tableStarts);
      assertThat(starts(db.partitions("sensors", "byDay"))).isEqualTo(indexStarts);
    }
  }
}
