package io.stator.capacity;

/**
 * One logical partition: the hash range {@code [start, end)} (unsigned; the last partition's
 * end is 2^64, written 0), its per-second ceilings, its share of a provisioned table's
 * throughput, its size, its statistics and its hot keys.
 */
final class Partition {
  static final int WINDOW = 60;

  final long start;
  final long end;
  final TokenBucket readCeiling;
  final TokenBucket writeCeiling;
  final TokenBucket readShare;
  final TokenBucket writeShare;
  final HotKeyLanes hotKeys;
  long bytes;

  // Consumption per second over the last WINDOW seconds (a ring indexed by second).
  private final long[] slotSecond = new long[WINDOW];
  private final double[] slotRead = new double[WINDOW];
  private final double[] slotWrite = new double[WINDOW];
  long readThrottles;
  long writeThrottles;
  double lentRead;
  double lentWrite;

  // Split for heat: demand in the current second, and the run of hot seconds before it.
  private long demandSecond = Long.MIN_VALUE;
  private double demandRead;
  private double demandWrite;
  int hotSeconds;

  Partition(long start, long end, CapacitySettings s, double readShare, double writeShare,
      long nowMillis) {
    this.start = start;
    this.end = end;
    this.readCeiling = new TokenBucket(s.partitionReadCeiling(), s.partitionReadCeiling(),
        nowMillis);
    this.writeCeiling = new TokenBucket(s.partitionWriteCeiling(), s.partitionWriteCeiling(),
        nowMillis);
    this.readShare = new TokenBucket(readShare, readShare * s.burstSeconds(), nowMillis);
    this.writeShare = new TokenBucket(writeShare, writeShare * s.burstSeconds(), nowMillis);
    this.hotKeys = new HotKeyLanes(s.hotKeys());
    java.util.Arrays.fill(slotSecond, Long.MIN_VALUE);
  }

  boolean contains(long hash) {
    return Long.compareUnsigned(hash, start) >= 0
        && (end == 0 || Long.compareUnsigned(hash, end) < 0);
  }

  /** The number of hashes in the range, minus one (so the full range fits in a long). */
  long widthMinusOne() {
    return end - start - 1;
  }

  /** The middle of the range: the start of the upper half. */
  long middle() {
    return start + (widthMinusOne() >>> 1) + 1;
  }

  /**
   * Moves the heat detector to {@code second}: the second just closed was hot if its demand
   * reached {@code threshold} of a ceiling; a gap of idle seconds ends the run.
   */
  void rollTo(long second, CapacitySettings s) {
    if (second == demandSecond) {
      return;
    }
    boolean hot =
        demandRead >= s.heatThreshold() * s.partitionReadCeiling()
            || demandWrite >= s.heatThreshold() * s.partitionWriteCeiling();
    hotSeconds = hot && second == demandSecond + 1 ? hotSeconds + 1 : 0;
    demandSecond = second;
    demandRead = 0;
    demandWrite = 0;
  }

  void demand(boolean write, double units) {
    if (write) {
      demandWrite += units;
    } else {
      demandRead += units;
    }
  }

  void consumed(long second, boolean write, double units) {
    int i = (int) Math.floorMod(second, WINDOW);
    if (slotSecond[i] != second) {
      slotSecond[i] = second;
      slotRead[i] = 0;
      slotWrite[i] = 0;
    }
    if (write) {
      slotWrite[i] += units;
    } else {
      slotRead[i] += units;
    }
  }

  /** Units consumed in the last WINDOW seconds up to {@code second}, per second on average. */
  double perSecond(long second, boolean write) {
    double sum = 0;
    for (int i = 0; i < WINDOW; i++) {
      if (slotSecond[i] > second - WINDOW && slotSecond[i] <= second) {
        sum += write ? slotWrite[i] : slotRead[i];
      }
    }
    return sum / WINDOW;
  }

  /** The busiest second of the last WINDOW seconds. */
  double peakSecond(long second, boolean write) {
    double max = 0;
    for (int i = 0; i < WINDOW; i++) {
      if (slotSecond[i] > second - WINDOW && slotSecond[i] <= second) {
        max = Math.max(max, write ? slotWrite[i] : slotRead[i]);
      }
    }
    return max;
  }
}
