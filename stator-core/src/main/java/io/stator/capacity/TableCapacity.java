package io.stator.capacity;

import io.stator.schema.TableDefinition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The partition model of one table incarnation (see {@link CapacityModel} for the design). All
 * methods are synchronized: one table's requests pass one short critical section, which costs
 * far less than the storage work around it and keeps every bucket and sketch consistent.
 */
final class TableCapacity {
  private final CapacitySettings settings;
  final String arn;
  final String hashKeyType;
  private final TreeMap<Long, Partition> partitions = new TreeMap<>(Long::compareUnsigned);
  /** The partitions' starts, ascending, replaced on every split (read without the lock). */
  private volatile long[] starts;

  private String billingMode;
  private long provisionedRead;
  private long provisionedWrite;
  // Provisioned: the table's throughput with its burst reserve.
  private final TokenBucket tableRead;
  private final TokenBucket tableWrite;
  // On-demand: the busiest second seen, and the consumption of the current second.
  private double observedReadPeak;
  private double observedWritePeak;
  private long windowSecond = Long.MIN_VALUE;
  private double windowRead;
  private double windowWrite;

  long readThrottles;
  long writeThrottles;
  int splitsForHeat;
  int splitsForSize;
  int splitsForThroughput;

  TableCapacity(TableDefinition table, String arn, CapacitySettings settings, long sizeBytes,
      long nowMillis) {
    this.settings = settings;
    this.arn = arn;
    this.hashKeyType = table.hashKey().type();
    this.billingMode = table.billingMode();
    this.provisionedRead = table.readCapacityUnits();
    this.provisionedWrite = table.writeCapacityUnits();
    this.tableRead = new TokenBucket(
        provisionedRead, (double) provisionedRead * settings.burstSeconds(), nowMillis);
    this.tableWrite = new TokenBucket(
        provisionedWrite, (double) provisionedWrite * settings.burstSeconds(), nowMillis);
    int count = Math.max(requiredPartitions(), sizePartitions(sizeBytes));
    long step = Long.divideUnsigned(-1L, count) + 1; // 2^64 / count, rounded up
    for (int i = 0; i < count; i++) {
      long start = i * step;
      long end = i == count - 1 ? 0 : (i + 1) * step;
      partitions.put(start, newPartition(start, end, nowMillis));
    }
    for (Partition p : partitions.values()) {
      p.bytes = sizeBytes / count;
    }
    reshare(nowMillis);
    publishStarts();
  }

  private void publishStarts() {
    long[] out = new long[partitions.size()];
    int i = 0;
    for (long start : partitions.keySet()) {
      out[i++] = start;
    }
    starts = out;
  }

  /** The partitions' starts, ascending (the same array until a partition splits). */
  long[] starts() {
    return starts;
  }

  private boolean onDemand() {
    return TableDefinition.PAY_PER_REQUEST.equals(billingMode);
  }

  /**
   * The partitions the throughput needs: DynamoDB's rule of thumb, RCU/3000 + WCU/1000 rounded
   * up, for provisioned tables; for on-demand ones the documented initial count, or what twice
   * the observed peak needs once traffic has grown past it.
   */
  private int requiredPartitions() {
    double read = onDemand() ? 2 * observedReadPeak : provisionedRead;
    double write = onDemand() ? 2 * observedWritePeak : provisionedWrite;
    int needed = (int) Math.ceil(
        read / settings.partitionReadCeiling() + write / settings.partitionWriteCeiling());
    return Math.max(onDemand() ? settings.onDemandPartitions() : 1, needed);
  }

  private int sizePartitions(long sizeBytes) {
    return (int) Math.max(1, (sizeBytes + settings.partitionSizeLimit() - 1)
        / settings.partitionSizeLimit());
  }

  private Partition newPartition(long start, long end, long nowMillis) {
    double count = Math.max(1, partitions.size());
    return new Partition(start, end, settings, provisionedRead / count,
        provisionedWrite / count, nowMillis);
  }

  /** Follows UpdateTable: new throughput, new billing mode, more partitions if needed. */
  synchronized void follow(TableDefinition table, long nowMillis) {
    if (table.billingMode().equals(billingMode)
        && table.readCapacityUnits() == provisionedRead
        && table.writeCapacityUnits() == provisionedWrite) {
      return;
    }
    billingMode = table.billingMode();
    provisionedRead = table.readCapacityUnits();
    provisionedWrite = table.writeCapacityUnits();
    tableRead.refill(nowMillis);
    tableWrite.refill(nowMillis);
    tableRead.resize(provisionedRead, (double) provisionedRead * settings.burstSeconds());
    tableWrite.resize(provisionedWrite, (double) provisionedWrite * settings.burstSeconds());
    ensurePartitions(nowMillis);
  }

  /** Splits partitions (the widest first, in the middle) until the throughput has enough. */
  private void ensurePartitions(long nowMillis) {
    int required = requiredPartitions();
    while (partitions.size() < required) {
      Partition widest = null;
      for (Partition p : partitions.values()) {
        if (widest == null || Long.compareUnsigned(p.widthMinusOne(), widest.widthMinusOne()) > 0) {
          widest = p;
        }
      }
      if (widest.widthMinusOne() == 0) {
        return;
      }
      split(widest, widest.middle(), nowMillis);
      splitsForThroughput++;
    }
  }

  /**
   * Charges one request of {@code units} on the partition holding {@code hash}; returns the
   * ThrottlingReason DynamoDB would give, or null when the request is within capacity. A
   * throttled request consumes nothing (DynamoDB rejected it), but its demand counts towards
   * heat and hot keys, because that is the traffic the key design attracts.
   */
  synchronized String charge(boolean write, long hash, ByteBuffer key, double units,
      long sizeDelta, long nowMillis) {
    long second = Math.floorDiv(nowMillis, 1000);
    Partition p = partitions.floorEntry(hash).getValue();
    p.rollTo(second, settings);
    if (p.hotSeconds >= settings.heatSeconds() && splitForHeat(p, nowMillis)) {
      p = partitions.floorEntry(hash).getValue();
      p.rollTo(second, settings);
    }
    rollWindow(second, nowMillis);
    HotKeys.Counter counter =
        key == null ? null : p.hotKeys.add(key, hash, write ? 0 : units, write ? units : 0);
    p.demand(write, units);

    String reason = admit(p, write, units, nowMillis);
    if (reason != null) {
      if (write) {
        p.writeThrottles++;
        writeThrottles++;
      } else {
        p.readThrottles++;
        readThrottles++;
      }
      if (counter != null) {
        counter.throttled++;
      }
      return reason;
    }
    p.consumed(second, write, units);
    if (write && sizeDelta != 0) {
      p.bytes = Math.max(0, p.bytes + sizeDelta);
      if (p.bytes > settings.partitionSizeLimit() && p.widthMinusOne() != 0) {
        split(p, p.middle(), nowMillis);
        splitsForSize++;
      }
    }
    return null;
  }

  private String admit(Partition p, boolean write, double units, long nowMillis) {
    String kind = write ? "Write" : "Read";
    TokenBucket ceiling = write ? p.writeCeiling : p.readCeiling;
    ceiling.refill(nowMillis);
    if (!ceiling.admits(units)) {
      return "Table" + kind + "KeyRangeThroughputExceeded";
    }
    if (onDemand()) {
      double window = write ? windowWrite : windowRead;
      double peak = Math.max(
          write ? observedWritePeak : observedReadPeak,
          write ? settings.onDemandWritePeak() : settings.onDemandReadPeak());
      if (window + units > 2 * peak) {
        // Past twice the previous peak, DynamoDB throttles while it adds partitions: the
        // partitions' key ranges are what run out, so the reason names them.
        return "Table" + kind + "KeyRangeThroughputExceeded";
      }
      if (write) {
        windowWrite += units;
      } else {
        windowRead += units;
      }
      ceiling.take(units);
      return null;
    }
    TokenBucket table = write ? tableWrite : tableRead;
    TokenBucket share = write ? p.writeShare : p.readShare;
    table.refill(nowMillis);
    share.refill(nowMillis);
    if (!table.admits(units)) {
      return "Table" + kind + "ProvisionedThroughputExceeded";
    }
    if (share.admits(units)) {
      share.take(units);
    } else if (settings.adaptiveCapacity()) {
      // Adaptive capacity: the partition is past its share, the table is not; lend it the
      // table's unused capacity (the ceiling above still caps it).
      if (write) {
        p.lentWrite += units;
      } else {
        p.lentRead += units;
      }
    } else {
      return "Table" + kind + "ProvisionedThroughputExceeded";
    }
    table.take(units);
    ceiling.take(units);
    return null;
  }

  /** On-demand bookkeeping: a new second closes the last one, which may be a new peak. */
  private void rollWindow(long second, long nowMillis) {
    if (second == windowSecond) {
      return;
    }
    if (second == windowSecond + 1) {
      observedReadPeak = Math.max(observedReadPeak, windowRead);
      observedWritePeak = Math.max(observedWritePeak, windowWrite);
      if (onDemand()) {
        ensurePartitions(nowMillis);
      }
    }
    windowSecond = second;
    windowRead = 0;
    windowWrite = 0;
  }

  /**
   * Split for heat: at the weighted median of the hot keys' hashes, so the hot traffic divides
   * between the halves. One hot key alone cannot be divided, and DynamoDB does not split for
   * it: the key stays capped at one partition's ceiling, which is the lesson of a hot key.
   */
  private boolean splitForHeat(Partition p, long nowMillis) {
    p.hotSeconds = 0;
    List<HotKeys.Counter> keys = new ArrayList<>(p.hotKeys.top());
    if (keys.size() < 2) {
      return false;
    }
    keys.sort((a, b) -> Long.compareUnsigned(a.hash, b.hash));
    double total = 0;
    for (HotKeys.Counter c : keys) {
      total += c.weight;
    }
    double sum = 0;
    int median = 0;
    for (; median < keys.size(); median++) {
      sum += keys.get(median).weight;
      if (sum >= total / 2) {
        break;
      }
    }
    median = Math.max(1, Math.min(median, keys.size() - 1));
    long low = keys.get(median - 1).hash;
    long high = keys.get(median).hash;
    if (low == high) {
      return false;
    }
    long at = low + ((high - low - 1) >>> 1) + 1; // in (low, high]
    split(p, at, nowMillis);
    splitsForHeat++;
    return true;
  }

  /** Replaces {@code p} by {@code [p.start, at)} and {@code [at, p.end)}. */
  private void split(Partition p, long at, long nowMillis) {
    partitions.remove(p.start);
    Partition left = newPartition(p.start, at, nowMillis);
    Partition right = newPartition(at, p.end, nowMillis);
    left.bytes = p.bytes / 2;
    right.bytes = p.bytes - left.bytes;
    for (HotKeys.Counter c : p.hotKeys.top()) {
      (right.contains(c.hash) ? right : left).hotKeys.put(c);
    }
    partitions.put(left.start, left);
    partitions.put(right.start, right);
    reshare(nowMillis);
    publishStarts();
  }

  /** Each partition's share of provisioned throughput: an equal part. */
  private void reshare(long nowMillis) {
    double count = partitions.size();
    for (Partition q : partitions.values()) {
      q.readShare.refill(nowMillis);
      q.writeShare.refill(nowMillis);
      q.readShare.resize(provisionedRead / count,
          provisionedRead / count * settings.burstSeconds());
      q.writeShare.resize(provisionedWrite / count,
          provisionedWrite / count * settings.burstSeconds());
    }
  }

  synchronized PartitionReport report(String tableName, long nowMillis) {
    long second = Math.floorDiv(nowMillis, 1000);
    tableRead.refill(nowMillis);
    tableWrite.refill(nowMillis);
    List<PartitionReport.PartitionStats> stats = new ArrayList<>();
    int index = 0;
    for (Partition p : partitions.values()) {
      List<PartitionReport.HotKey> hot = new ArrayList<>();
      for (HotKeys.Counter c : p.hotKeys.top()) {
        hot.add(new PartitionReport.HotKey(
            PartitionReport.label(c.key, hashKeyType), c.readUnits, c.writeUnits, c.throttled,
            c.error));
      }
      stats.add(new PartitionReport.PartitionStats(
          index++,
          String.format("%016x", p.start),
          p.end == 0 ? "10000000000000000" : String.format("%016x", p.end),
          p.perSecond(second, false),
          p.perSecond(second, true),
          p.peakSecond(second, false),
          p.peakSecond(second, true),
          p.readThrottles,
          p.writeThrottles,
          p.lentRead,
          p.lentWrite,
          p.bytes,
          hot));
    }
    return new PartitionReport(
        tableName,
        billingMode,
        settings.mode().name().toLowerCase(java.util.Locale.ROOT),
        onDemand() ? null : provisionedRead,
        onDemand() ? null : provisionedWrite,
        onDemand() ? null : tableRead.tokens(),
        onDemand() ? null : tableWrite.tokens(),
        readThrottles,
        writeThrottles,
        splitsForHeat,
        splitsForSize,
        splitsForThroughput,
        stats);
  }

  synchronized int partitionCount() {
    return partitions.size();
  }

  /** The partitions' ranges, by start (for tests). */
  synchronized Map<Long, Long> ranges() {
    Map<Long, Long> out = new TreeMap<>(Long::compareUnsigned);
    partitions.values().forEach(p -> out.put(p.start, p.end));
    return out;
  }
}
