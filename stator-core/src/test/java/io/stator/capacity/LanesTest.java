package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.key.KeyCodec;
import io.stator.schema.KeyAttribute;
import io.stator.schema.TableDefinition;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The counters kept per lane of threads (demand, consumption per second, hot keys) add up to
 * what one thread charging the same requests would have counted: the report's figures and the
 * heat detector see the sum of the lanes.
 */
class LanesTest {
  private final long now = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
  private final ExecutorService first = Executors.newSingleThreadExecutor();
  private final ExecutorService second = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    first.shutdownNow();
    second.shutdownNow();
  }

  private static TableDefinition provisioned(long read, long write) {
    KeyAttribute pk = new KeyAttribute("pk", "S");
    return new TableDefinition("sensors", "id-1", "table.id-1", pk, null, List.of(pk),
        TableDefinition.PROVISIONED, read, write, Instant.EPOCH, null, null, null, "ACTIVE",
        null, null, null, null, null, null);
  }

  /** Charges a read on {@code thread}, under the table's lock as TableThroughput does. */
  private static String read(ExecutorService thread, TableCapacity t, String pk, double units,
      long at) throws Exception {
    byte[] k = KeyCodec.partition(new AttributeValue.S(pk));
    return thread.submit(() -> {
      synchronized (t) {
        return t.charge(false, KeyCodec.hashOf(k), k, units, 0, at);
      }
    }).get();
  }

  @Test
  void consumptionPerSecondAndPeakAddUpAcrossThreads() throws Exception {
    TableCapacity t = new TableCapacity(provisioned(2000, 0), "arn",
        CapacitySettings.defaults(), 0, now);
    assertThat(t.partitionCount()).isEqualTo(1);
    read(first, t, "a", 100, now);
    read(second, t, "b", 200, now + 10);
    read(first, t, "a", 50, now + 1000);
    PartitionReport.PartitionStats p =
        t.report("sensors", null, now + 1500).partitions().get(0);
    assertThat(p.peakReadUnitsPerSecond()).isEqualTo(300);
    assertThat(p.readUnitsPerSecond()).isEqualTo(350.0 / Partition.WINDOW);
    assertThat(p.hotKeys()).extracting(PartitionReport.HotKey::partitionKey)
        .containsExactly("b", "a");
    assertThat(p.hotKeys().get(1).readUnits()).isEqualTo(150);
    // A minute later those seconds have left the window.
    PartitionReport.PartitionStats later =
        t.report("sensors", null, now + 61_000).partitions().get(0);
    assertThat(later.peakReadUnitsPerSecond()).isZero();
    assertThat(later.readUnitsPerSecond()).isZero();
  }

  @Test
  void aPartitionHotOnlyWithBothThreadsTogetherSplits() throws Exception {
    // 2,000 RCU provisioned: one partition (ceiling 3,000; hot from 2,400 a second). Each
    // thread reads 1,250 a second of its own key: neither alone is hot, together they are.
    TableCapacity t = new TableCapacity(provisioned(2000, 0), "arn",
        CapacitySettings.defaults(), 0, now);
    assertThat(t.partitionCount()).isEqualTo(1);
    for (int s = 0; s < 62; s++) {
      long at = now + s * 1000L;
      assertThat(read(first, t, "left", 1250, at)).isNull();
      assertThat(read(second, t, "right", 1250, at + 1)).isNull();
    }
    assertThat(t.splitsForHeat).isEqualTo(1);
    assertThat(t.partitionCount()).isEqualTo(2);
  }
}
