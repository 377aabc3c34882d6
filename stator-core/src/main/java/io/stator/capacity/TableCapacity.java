package io.stator.capacity;

import io.stator.schema.MaxThroughput;
import io.stator.schema.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The partition model of one table incarnation or of one of its global secondary indexes (see
 * {@link CapacityModel} for the design): to DynamoDB's throughput model a GSI is a table of its
 * own, with its own throughput, partitions and ceilings, so both are this class and differ only
 * in the resource type their ThrottlingReasons name ({@code Table...} or {@code Index...}).
 *
 * <p>Not synchronized itself: every call comes through the {@link TableThroughput} of its table,
 * under that one lock, so a write charged to the table and to its indexes is decided as one.
 */
final class TableCapacity {
  private final CapacitySettings settings;
  final String arn;
  final String hashKeyType;
  // The ThrottlingReasons, by kind: "Table..." or "Index..." as this resource is a table or a
  // GSI. Built once, not per request.
  private final String readKeyRange;
  private final String writeKeyRange;
  private final String readProvisioned;
  private final String writeProvisioned;
  private final String readMaxOnDemand;
  private final String writeMaxOnDemand;
  /** Told the partitions' starts after every split (so they can be kept across restarts). */
  private final Consumer<long[]> onSplit;
  private final TreeMap<Long, Partition> partitions = new TreeMap<>(Long::compareUnsigned);
  /** The partitions' starts, ascending, replaced on every split (read without the lock). */
  private volatile long[] starts;
  // The partitions in order and their starts, for finding a request's partition by binary
  // search (no boxed key, no tree descent); replaced with {@link #starts}, read under the lock.
  private Partition[] ordered;
  private long[] orderedStarts;

  private String billingMode;
  /** billingMode is PAY_PER_REQUEST (asked on every request, so kept rather than compared). */
  private boolean onDemand;
  private long provisionedRead;
  private long provisionedWrite;
  // On-demand with OnDemandThroughput: one second of each ceiling, or null where none is set.
  private MaxThroughput max;
  private TokenBucket maxRead;
  private TokenBucket maxWrite;
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

  /** A base table with no saved partitions (for tests). */
  TableCapacity(TableDefinition table, String arn, CapacitySettings settings, long sizeBytes,
      long nowMillis) {
    this(Throughput.of(table), table.hashKey().type(), "Table", arn, settings, sizeBytes, null,
        starts -> {}, nowMillis);
  }

  /**
   * @param savedStarts the partitions' starts kept from an earlier run (ascending, the first 0),
   *     or null to start from DynamoDB's rule of thumb
   */
  TableCapacity(Throughput throughput, String hashKeyType, String resourceType, String arn,
      CapacitySettings settings, long sizeBytes, long[] savedStarts, Consumer<long[]> onSplit,
      long nowMillis) {
    this.settings = settings;
    this.arn = arn;
    this.hashKeyType = hashKeyType;
    this.readKeyRange = resourceType + "ReadKeyRangeThroughputExceeded";
    this.writeKeyRange = resourceType + "WriteKeyRangeThroughputExceeded";
    this.readProvisioned = resourceType + "ReadProvisionedThroughputExceeded";
    this.writeProvisioned = resourceType + "WriteProvisionedThroughputExceeded";
    // CapacityModel tells these reasons by their end, to answer ThrottlingException for them
    this.readMaxOnDemand = resourceType + "Read" + CapacityModel.MAX_ON_DEMAND;
    this.writeMaxOnDemand = resourceType + "Write" + CapacityModel.MAX_ON_DEMAND;
    this.onSplit = onSplit;
    this.billingMode = throughput.billingMode();
    this.onDemand = TableDefinition.PAY_PER_REQUEST.equals(billingMode);
    this.provisionedRead = throughput.read();
    this.provisionedWrite = throughput.write();
    setMax(throughput.max(), nowMillis);
    this.tableRead = new TokenBucket(
        provisionedRead, (double) provisionedRead * settings.burstSeconds(), nowMillis);
    this.tableWrite = new TokenBucket(
        provisionedWrite, (double) provisionedWrite * settings.burstSeconds(), nowMillis);
    long[] bounds = savedStarts != null && savedStarts.length > 0 && savedStarts[0] == 0
        ? savedStarts
        : evenStarts(Math.max(requiredPartitions(), sizePartitions(sizeBytes)));
    for (int i = 0; i < bounds.length; i++) {
      long end = i == bounds.length - 1 ? 0 : bounds[i + 1];
      partitions.put(bounds[i], newPartition(bounds[i], end, nowMillis));
    }
    for (Partition p : partitions.values()) {
      p.bytes = sizeBytes / bounds.length;
    }
    reshare(nowMillis);
    publishStarts();
    if (savedStarts != null) {
      ensurePartitions(nowMillis); // the throughput may have been raised since they were kept
    }
  }

  /** {@code count} equal ranges of the hash space. */
  private static long[] evenStarts(int count) {
    long step = Long.divideUnsigned(-1L, count) + 1; // 2^64 / count, rounded up
    long[] out = new long[count];
    for (int i = 0; i < count; i++) {
      out[i] = i * step;
    }
    return out;
  }

  private void publishStarts() {
    long[] out = new long[partitions.size()];
    Partition[] in = new Partition[out.length];
    int i = 0;
    for (Partition p : partitions.values()) {
      in[i] = p;
      out[i++] = p.start;
    }
    ordered = in;
    orderedStarts = out;
    starts = out;
  }

  /** The partition whose range holds {@code hash} (the partitions tile the space from 0). */
  private Partition partitionOf(long hash) {
    long[] s = orderedStarts;
    int low = 0;
    int high = s.length - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (Long.compareUnsigned(s[mid], hash) <= 0) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return ordered[low];
  }

  /** The partitions' starts, ascending (the same array until a partition splits). */
  long[] starts() {
    return starts;
  }

  /**
   * The partitions the throughput needs: DynamoDB's rule of thumb, RCU/3000 + WCU/1000 rounded
   * up, for provisioned tables; for on-demand ones the documented initial count, or what twice
   * the observed peak needs once traffic has grown past it.
   */
  private int requiredPartitions() {
    double read = onDemand ? 2 * observedReadPeak : provisionedRead;
    double write = onDemand ? 2 * observedWritePeak : provisionedWrite;
    int needed = (int) Math.ceil(
        read / settings.partitionReadCeiling() + write / settings.partitionWriteCeiling());
    return Math.max(onDemand ? settings.onDemandPartitions() : 1, needed);
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

  void follow(TableDefinition table, long nowMillis) {
    follow(Throughput.of(table), nowMillis);
  }

  /** Follows UpdateTable: new throughput, new billing mode, more partitions if needed. */
  void follow(Throughput throughput, long nowMillis) {
    if (!throughput.max().equals(max)) {
      setMax(throughput.max(), nowMillis);
    }
    if (throughput.billingMode().equals(billingMode)
        && throughput.read() == provisionedRead
        && throughput.write() == provisionedWrite) {
      return;
    }
    billingMode = throughput.billingMode();
    onDemand = TableDefinition.PAY_PER_REQUEST.equals(billingMode);
    provisionedRead = throughput.read();
    provisionedWrite = throughput.write();
    tableRead.refill(nowMillis);
    tableWrite.refill(nowMillis);
    tableRead.resize(provisionedRead, (double) provisionedRead * settings.burstSeconds());
    tableWrite.resize(provisionedWrite, (double) provisionedWrite * settings.burstSeconds());
    ensurePartitions(nowMillis);
  }

  /**
   * Follows the OnDemandThroughput ceilings: a bucket of one second of each ceiling set, full
   * when set or changed, as a new ceiling applies from the next request on.
   */
  private void setMax(MaxThroughput newMax, long nowMillis) {
    max = newMax;
    maxRead = newMax.limitsReads()
        ? new TokenBucket(newMax.readRequestUnits(), newMax.readRequestUnits(), nowMillis)
        : null;
    maxWrite = newMax.limitsWrites()
        ? new TokenBucket(newMax.writeRequestUnits(), newMax.writeRequestUnits(), nowMillis)
        : null;
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
  String charge(boolean write, long hash, byte[] key, double units, long sizeDelta,
      long nowMillis) {
    // prepare, then refuse or apply, without the Charge object: most charges come this way.
    int lane = Lanes.current();
    Partition p = locate(hash, nowMillis);
    HotKeys.Counter counter = count(p, lane, write, hash, key, units);
    String reason = refusal(p, write, units, nowMillis);
    if (reason != null) {
      refuse(p, write, counter);
    } else {
      apply(p, lane, write, units, sizeDelta, nowMillis);
    }
    return reason;
  }

  /**
   * One request's charge on one partition, decided but not yet applied: a write charged to a
   * table and its global secondary indexes is admitted only if every one of them admits it, so
   * each is prepared first and all are then applied, or all refused.
   *
   * @param lane the lane of the thread that prepared it (see Lanes)
   * @param reason the ThrottlingReason, or null when the partition and the throughput admit it
   */
  record Charge(TableCapacity owner, Partition partition, int lane, boolean write, double units,
      long sizeDelta, HotKeys.Counter counter, String reason) {}

  /**
   * Finds the partition of {@code hash} (splitting it first if it has been hot long enough),
   * counts the request's demand there, and decides whether it is admitted; takes nothing.
   */
  Charge prepare(boolean write, long hash, byte[] key, double units, long sizeDelta,
      long nowMillis) {
    int lane = Lanes.current();
    Partition p = locate(hash, nowMillis);
    HotKeys.Counter counter = count(p, lane, write, hash, key, units);
    return new Charge(this, p, lane, write, units, sizeDelta, counter,
        refusal(p, write, units, nowMillis));
  }

  /**
   * The partition of {@code hash} now, after splitting it if it has been hot long enough, with
   * its heat detector and the on-demand window moved to the current second.
   */
  private Partition locate(long hash, long nowMillis) {
    long second = Math.floorDiv(nowMillis, 1000);
    Partition p = partitionOf(hash);
    p.rollTo(second, settings);
    if (p.hotSeconds >= settings.heatSeconds() && splitForHeat(p, nowMillis)) {
      p = partitionOf(hash);
      p.rollTo(second, settings);
    }
    rollWindow(second, nowMillis);
    return p;
  }

  /** Counts a request's demand on its partition and key (throttled or not). */
  private static HotKeys.Counter count(Partition p, int lane, boolean write, long hash,
      byte[] key, double units) {
    HotKeys.Counter counter = key == null
        ? null
        : p.hotKeys.add(lane, key, hash, write ? 0 : units, write ? units : 0);
    p.demand(lane, write, units);
    return counter;
  }

  /** Counts a refused charge as a throttle of its partition and key. */
  void refuse(Charge c) {
    refuse(c.partition(), c.write(), c.counter());
  }

  private void refuse(Partition p, boolean write, HotKeys.Counter counter) {
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
  }

  /** Takes an admitted charge's units, and splits its partition if it grew past the size limit. */
  void apply(Charge c, long nowMillis) {
    apply(c.partition(), c.lane(), c.write(), c.units(), c.sizeDelta(), nowMillis);
  }

  private void apply(Partition p, int lane, boolean write, double units, long sizeDelta,
      long nowMillis) {
    take(p, write, units);
    p.consumed(lane, Math.floorDiv(nowMillis, 1000), write, units);
    if (write && sizeDelta != 0) {
      p.bytes = Math.max(0, p.bytes + sizeDelta);
      if (p.bytes > settings.partitionSizeLimit() && p.widthMinusOne() != 0
          && partitions.get(p.start) == p) {
        split(p, p.middle(), nowMillis);
        splitsForSize++;
      }
    }
  }

  /** Why DynamoDB would refuse {@code units} on {@code p} now, or null; changes nothing. */
  private String refusal(Partition p, boolean write, double units, long nowMillis) {
    TokenBucket ceiling = write ? p.writeCeiling : p.readCeiling;
    ceiling.refill(nowMillis);
    if (!ceiling.admits(units)) {
      return write ? writeKeyRange : readKeyRange;
    }
    if (onDemand) {
      // The user's ceiling (OnDemandThroughput) before the scaling limit: DynamoDB throttles a
      // request above it at once, whatever the table's previous peak.
      TokenBucket ceilingSet = write ? maxWrite : maxRead;
      if (ceilingSet != null) {
        ceilingSet.refill(nowMillis);
        if (!ceilingSet.admits(units)) {
          return write ? writeMaxOnDemand : readMaxOnDemand;
        }
      }
      double window = write ? windowWrite : windowRead;
      double peak = Math.max(
          write ? observedWritePeak : observedReadPeak,
          write ? settings.onDemandWritePeak() : settings.onDemandReadPeak());
      // Past twice the previous peak, DynamoDB throttles while it adds partitions: the
      // partitions' key ranges are what run out, so the reason names them.
      return window + units > 2 * peak ? (write ? writeKeyRange : readKeyRange) : null;
    }
    TokenBucket table = write ? tableWrite : tableRead;
    TokenBucket share = write ? p.writeShare : p.readShare;
    table.refill(nowMillis);
    share.refill(nowMillis);
    if (!table.admits(units)) {
      return write ? writeProvisioned : readProvisioned;
    }
    // Adaptive capacity: a partition past its share may use the table's unused capacity, up to
    // the ceiling above; without it the partition is limited to its share.
    return share.admits(units) || settings.adaptiveCapacity()
        ? null
        : write ? writeProvisioned : readProvisioned;
  }

  /** Takes admitted units from the buckets {@link #refusal} found holding them. */
  private void take(Partition p, boolean write, double units) {
    TokenBucket ceiling = write ? p.writeCeiling : p.readCeiling;
    if (onDemand) {
      if (write) {
        windowWrite += units;
      } else {
        windowRead += units;
      }
      ceiling.take(units);
      TokenBucket ceilingSet = write ? maxWrite : maxRead;
      if (ceilingSet != null) {
        ceilingSet.take(units);
      }
      return;
    }
    TokenBucket table = write ? tableWrite : tableRead;
    TokenBucket share = write ? p.writeShare : p.readShare;
    if (share.admits(units)) {
      share.take(units);
    } else if (write) { // adaptive capacity lends the table's unused capacity
      p.lentWrite += units;
    } else {
      p.lentRead += units;
    }
    table.take(units);
    ceiling.take(units);
  }

  /** On-demand bookkeeping: a new second closes the last one, which may be a new peak. */
  private void rollWindow(long second, long nowMillis) {
    if (second == windowSecond) {
      return;
    }
    if (second == windowSecond + 1) {
      observedReadPeak = Math.max(observedReadPeak, windowRead);
      observedWritePeak = Math.max(observedWritePeak, windowWrite);
      if (onDemand) {
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
    onSplit.accept(starts);
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

  PartitionReport report(String tableName, String indexName, long nowMillis) {
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
        indexName,
        billingMode,
        settings.mode().name().toLowerCase(java.util.Locale.ROOT),
        onDemand ? null : provisionedRead,
        onDemand ? null : provisionedWrite,
        onDemand ? null : tableRead.tokens(),
        onDemand ? null : tableWrite.tokens(),
        readThrottles,
        writeThrottles,
        splitsForHeat,
        splitsForSize,
        splitsForThroughput,
        stats);
  }

  int partitionCount() {
    return partitions.size();
  }

  /** The partitions' ranges, by start (for tests). */
  Map<Long, Long> ranges() {
    Map<Long, Long> out = new TreeMap<>(Long::compareUnsigned);
    partitions.values().forEach(p -> out.put(p.start, p.end));
    return out;
  }
}
