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

  long readThrottles;
  long writeThrottles;
  double lentRead;
  double lentWrite;

  // Split for heat: the second being counted, and the run of hot seconds before it. The demand
  // and the consumption per second are counted per lane of threads (see Lanes) and summed when
  // read: they are written on every request, the rest of this object rarely.
  private long demandSecond = Long.MIN_VALUE;
  int hotSeconds;
  private final Load[] loads = new Load[Lanes.COUNT];

  /** One lane's counts: demand in the current second, consumption over the last WINDOW. */
  private static final class Load {
    long second = Long.MIN_VALUE;
    double demandRead;
    double demandWrite;
    // Consumption per second over the last WINDOW seconds (a ring indexed by second).
    final long[] slotSecond = new long[WINDOW];
    final double[] slotRead = new double[WINDOW];
    final double[] slotWrite = new double[WINDOW];

    Load() {
      java.util.Arrays.fill(slotSecond, Long.MIN_VALUE);
    }
  }

  private Load load(int lane) {
    Load l = loads[lane];
    if (l == null) {
      l = loads[lane] = new Load();
    }
    return l;
  }

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
   * Moves the heat detector to {@code second}: the second just closed was hot if its demand (of
   * every lane) reached {@code threshold} of a ceiling; a gap of idle seconds ends the run.
   */
  void rollTo(long second, CapacitySettings s) {
    if (second == demandSecond) {
      return;
    }
    double demandRead = 0;
    double demandWrite = 0;
    for (Load l : loads) {
      if (l != null && l.second == demandSecond) {
        demandRead += l.demandRead;
        demandWrite += l.demandWrite;
      }
    }
    boolean hot =
        demandRead >= s.heatThreshold() * s.partitionReadCeiling()
            || demandWrite >= s.heatThreshold() * s.partitionWriteCeiling();
    hotSeconds = hot && second == demandSecond + 1 ? hotSeconds + 1 : 0;
    demandSecond = second;
  }

  /** Counts demand in the current second (the one {@link #rollTo} last moved to). */
  void demand(int lane, boolean write, double units) {
    Load l = load(lane);
    if (l.second != demandSecond) {
      l.second = demandSecond;
      l.demandRead = 0;
      l.demandWrite = 0;
    }
    if (write) {
      l.demandWrite += units;
    } else {
      l.demandRead += units;
    }
  }

  void consumed(int lane, long second, boolean write, double units) {
    Load l = load(lane);
    int i = (int) Math.floorMod(second, WINDOW);
    if (l.slotSecond[i] != second) {
      l.slotSecond[i] = second;
      l.slotRead[i] = 0;
      l.slotWrite[i] = 0;
    }
    if (write) {
      l.slotWrite[i] += units;
    } else {
      l.slotRead[i] += units;
    }
  }

  /**
   * Units consumed in slot {@code i} by every lane, when the slot holds a second of the WINDOW
   * up to {@code second} (within the window a slot holds one second, the same in every lane).
   */
  private double slot(int i, long second, boolean write) {
    double sum = 0;
    for (Load l : loads) {
      if (l != null && l.slotSecond[i] > second - WINDOW && l.slotSecond[i] <= second) {
        sum += write ? l.slotWrite[i] : l.slotRead[i];
      }
    }
    return sum;
  }

  /** Units consumed in the last WINDOW seconds up to {@code second}, per second on average. */
  double perSecond(long second, boolean write) {
    double sum = 0;
    for (int i = 0; i < WINDOW; i++) {
      sum += slot(i, second, write);
    }
    return sum / WINDOW;
  }

  /** The busiest second of the last WINDOW seconds. */
  double peakSecond(long second, boolean write) {
    double max = 0;
    for (int i = 0; i < WINDOW; i++) {
      max = Math.max(max, slot(i, second, write));
    }
    return max;
  }
}
