package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.key.KeyCodec;
import io.stator.schema.KeyAttribute;
import io.stator.schema.TableDefinition;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The partition model on a clock moved by hand: every figure here follows from DynamoDB's
 * published numbers (3,000 RCU / 1,000 WCU per partition, 300 s of burst) and nothing sleeps.
 */
class PartitionModelTest {
  private static final long GB = 1024L * 1024 * 1024;

  private long now = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();

  private static TableDefinition provisioned(long read, long write) {
    return table(TableDefinition.PROVISIONED, read, write);
  }

  private static TableDefinition table(String mode, long read, long write) {
    KeyAttribute pk = new KeyAttribute("pk", "S");
    return new TableDefinition("sensors", "id-1", "table.id-1", pk, null, List.of(pk), mode,
        read, write, Instant.EPOCH, null, null, null, "ACTIVE", null, null, null, null, null, null);
  }

  private static byte[] key(String pk) {
    return KeyCodec.partition(new AttributeValue.S(pk));
  }

  private static String write(TableCapacity t, String pk, double units, long nowMillis) {
    byte[] k = key(pk);
    return t.charge(true, KeyCodec.hashOf(k), k, units, 0, nowMillis);
  }

  private static String read(TableCapacity t, String pk, double units, long nowMillis) {
    byte[] k = key(pk);
    return t.charge(false, KeyCodec.hashOf(k), k, units, 0, nowMillis);
  }

  @Test
  void initialPartitionsFollowTheRuleOfThumb() {
    CapacitySettings s = CapacitySettings.defaults();
    assertThat(new TableCapacity(provisioned(1, 1), "arn", s, 0, now).partitionCount())
        .isEqualTo(1);
    // 6,000 RCU / 3,000 + 2,000 WCU / 1,000 = 4.
    assertThat(new TableCapacity(provisioned(6000, 2000), "arn", s, 0, now).partitionCount())
        .isEqualTo(4);
    assertThat(new TableCapacity(provisioned(6001, 1), "arn", s, 0, now).partitionCount())
        .isEqualTo(3);
    // 25 GB need three 10 GB partitions.
    assertThat(new TableCapacity(provisioned(5, 5), "arn", s, 25 * GB, now).partitionCount())
        .isEqualTo(3);
    assertThat(new TableCapacity(table(TableDefinition.PAY_PER_REQUEST, 0, 0), "arn", s, 0, now)
        .partitionCount()).isEqualTo(4);
  }

  @Test
  void partitionsTileTheHashSpace() {
    TableCapacity t = new TableCapacity(provisioned(9000, 0), "arn", CapacitySettings.defaults(),
        0, now);
    var ranges = t.ranges();
    assertThat(ranges).hasSize(3);
    long expected = 0;
    for (var e : ranges.entrySet()) {
      assertThat(e.getKey()).isEqualTo(expected);
      expected = e.getValue();
    }
    assertThat(expected).as("the last range ends at 2^64").isZero();
  }

  @Test
  void burstCapacityIsSpentThenTheTableThrottlesAtItsProvisionedRate() {
    // 10 WCU provisioned: 300 s of burst is 3,000 WCU in reserve, refilling at 10 per second.
    TableCapacity t = new TableCapacity(provisioned(10, 10), "arn",
        CapacitySettings.defaults(), 0, now);
    int admitted = 0;
    String reason = null;
    // 900 WCU per second (under the 1,000 WCU partition ceiling) in 9-WCU writes.
    for (int second = 0; reason == null && second < 10; second++) {
      long at = now + second * 1000L;
      for (int i = 0; i < 100; i++) {
        reason = write(t, "k" + i, 9, at);
        if (reason != null) {
          break;
        }
        admitted++;
      }
    }
    // 3,000 in reserve + 10 per second for the 3 seconds elapsed = 3,030: 336 writes of 9.
    assertThat(admitted).isEqualTo(336);
    assertThat(reason).isEqualTo("TableWriteProvisionedThroughputExceeded");
    // A second later, one more second of the provisioned rate: one 9-WCU write (6 + 10 = 16).
    long later = now + 4000;
    assertThat(write(t, "a", 9, later)).isNull();
    assertThat(write(t, "a", 9, later)).isEqualTo("TableWriteProvisionedThroughputExceeded");
    assertThat(t.writeThrottles).isEqualTo(2);
  }

  @Test
  void aHotKeyThrottlesAtThePartitionCeilingWhileTheTableIsFarBelowItsTotal() {
    // 10,000 WCU provisioned over 10 partitions; one key gets 1,000 WCU a second and no more.
    TableCapacity t = new TableCapacity(provisioned(1, 10_000), "arn",
        CapacitySettings.defaults(), 0, now);
    assertThat(t.partitionCount()).isEqualTo(11);
    int admitted = 0;
    for (int i = 0; i < 1200; i++) {
      if (write(t, "2026-03-01", 1, now) == null) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(1000);
    assertThat(write(t, "2026-03-01", 1, now))
        .isEqualTo("TableWriteKeyRangeThroughputExceeded");
    // Other keys, elsewhere in the table, are unaffected.
    assertThat(write(t, "sensor-7#2026-03", 1, now)).isNull();
    // The next second the key has its ceiling again.
    assertThat(write(t, "2026-03-01", 1, now + 1000)).isNull();
    PartitionReport report = t.report("sensors", null, now + 1000);
    PartitionReport.HotKey hottest = report.partitions().stream()
        .flatMap(p -> p.hotKeys().stream())
        .max((a, b) -> Double.compare(a.writeUnits(), b.writeUnits()))
        .orElseThrow();
    assertThat(hottest.partitionKey()).isEqualTo("2026-03-01");
    assertThat(hottest.throttles()).isEqualTo(201);
  }

  @Test
  void adaptiveCapacityLendsUnusedTableCapacityToAHotPartition() {
    // 3,000 RCU + 1,000 WCU: two partitions, 1,500 RCU/s each as their share. One partition
    // reads 2,500 RCU/s for ten minutes; the other idles.
    int throttledWithout = hotPartitionThrottles(false);
    int throttledWith = hotPartitionThrottles(true);
    // Alone, the partition lives on its share plus its 300 s of share burst: 450,000 RCU of
    // reserve drained at 1,000 RCU/s over the share, so throttling starts after ~450 s; from
    // then on the share (1,500/s) serves 2,500 only 3 seconds in 5: ~60 of the last 150.
    assertThat(throttledWithout).isBetween(55, 65);
    // Adaptive capacity lends the idle half of the table: nothing throttles.
    assertThat(throttledWith).isZero();
  }

  private int hotPartitionThrottles(boolean adaptive) {
    TableCapacity t = new TableCapacity(provisioned(3000, 1000), "arn",
        CapacitySettings.defaults().withAdaptiveCapacity(adaptive), 0, now);
    assertThat(t.partitionCount()).isEqualTo(2);
    int throttled = 0;
    for (int second = 0; second < 600; second++) {
      if (read(t, "hot", 2500, now + second * 1000L) != null) {
        throttled++;
      }
    }
    PartitionReport report = t.report("sensors", null, now + 600_000);
    double lent = report.partitions().stream().mapToDouble(p -> p.adaptiveReadUnits()).sum();
    if (adaptive) {
      assertThat(lent).isGreaterThan(0);
    } else {
      assertThat(lent).isZero();
    }
    return throttled;
  }

  @Test
  void aPartitionHotForAMinuteSplitsBetweenItsHotKeys() {
    TableCapacity t = new TableCapacity(provisioned(1, 990), "arn",
        CapacitySettings.defaults(), 0, now);
    assertThat(t.partitionCount()).isEqualTo(1);
    // Two keys, 450 WCU/s each: 90% of the ceiling, for 60 s.
    for (int second = 0; second < 61; second++) {
      long at = now + second * 1000L;
      assertThat(write(t, "left", 450, at)).isNull();
      assertThat(write(t, "right", 450, at)).isNull();
    }
    assertThat(t.partitionCount()).isEqualTo(2);
    assertThat(t.splitsForHeat).isEqualTo(1);
    // The split point lies between the two keys' hashes.
    long a = KeyCodec.hashOf(key("left"));
    long b = KeyCodec.hashOf(key("right"));
    long at = t.ranges().keySet().stream().filter(s -> s != 0).findFirst().orElseThrow();
    long low = Long.compareUnsigned(a, b) < 0 ? a : b;
    long high = Long.compareUnsigned(a, b) < 0 ? b : a;
    assertThat(Long.compareUnsigned(low, at)).isNegative();
    assertThat(Long.compareUnsigned(at, high)).isLessThanOrEqualTo(0);
    // Each key now has a partition, and so a ceiling, of its own.
    for (int i = 0; i < 1000; i++) {
      assertThat(write(t, "left", 1, now + 70_000)).isNull();
      assertThat(write(t, "right", 1, now + 70_000)).isNull();
    }
  }

  @Test
  void oneHotKeyIsNotSplitFor() {
    TableCapacity t = new TableCapacity(provisioned(1, 990), "arn",
        CapacitySettings.defaults(), 0, now);
    for (int second = 0; second < 120; second++) {
      write(t, "2026-03-01", 1000, now + second * 1000L);
    }
    assertThat(t.partitionCount()).isEqualTo(1);
    assertThat(t.splitsForHeat).isZero();
  }

  @Test
  void aPartitionPastTheSizeLimitSplitsInTheMiddle() {
    TableCapacity t = new TableCapacity(provisioned(100, 100), "arn",
        CapacitySettings.defaults().withPartitionSizeLimit(10_000), 0, now);
    for (int i = 0; i < 11; i++) {
      byte[] k = key("k" + i);
      t.charge(true, KeyCodec.hashOf(k), k, 1, 1000, now + i * 1000L);
    }
    assertThat(t.partitionCount()).isEqualTo(2);
    assertThat(t.ranges()).containsKey(Long.MIN_VALUE); // 2^63, the middle of the hash space
    assertThat(t.splitsForSize).isEqualTo(1);
  }

  @Test
  void raisingProvisionedThroughputSplitsPartitions() {
    TableCapacity t = new TableCapacity(provisioned(100, 100), "arn",
        CapacitySettings.defaults(), 0, now);
    t.follow(provisioned(100, 3500), now);
    assertThat(t.partitionCount()).isEqualTo(4);
    assertThat(t.ranges()).hasSize(4);
  }

  @Test
  void onDemandServesTwiceThePreviousPeak() {
    CapacitySettings s = new CapacitySettings(CapacityMode.ENFORCE, true, 3000, 1000, 300,
        10 * GB, 0.8, 60, 4, 50, 50, 16);
    TableCapacity t = new TableCapacity(table(TableDefinition.PAY_PER_REQUEST, 0, 0), "arn", s,
        0, now);
    // Previous peak 50: 100 WCU in the first second.
    int admitted = 0;
    for (int i = 0; i < 150; i++) {
      if (write(t, "k" + i, 1, now) == null) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(100);
    // That second was a new peak of 100: the next second serves 200.
    admitted = 0;
    for (int i = 0; i < 250; i++) {
      if (write(t, "k" + i, 1, now + 1000) == null) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(200);
  }
}
