package io.stator.capacity;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lanes of calling threads: the per-request counters that do not decide anything (hot keys,
 * consumption per second, demand for the heat detector) are kept per lane and summed when read,
 * so that two event loops charging one table on two cores each write memory of their own
 * instead of passing the same cache lines back and forth on every request. See {@link
 * HotKeyLanes} for why and what it saved. Lanes are about memory, not locking: every lane is
 * still written and read under its table's lock.
 */
final class Lanes {
  /** Twice the cores, rounded up to a power of two, so that event loops rarely share a lane. */
  static final int COUNT =
      Integer.highestOneBit(Math.max(1, 2 * Runtime.getRuntime().availableProcessors() - 1)) * 2;

  private static final AtomicInteger NEXT = new AtomicInteger();
  /** Each thread's lane, handed out in turn as threads first charge a request. */
  private static final ThreadLocal<Integer> LANE =
      ThreadLocal.withInitial(() -> NEXT.getAndIncrement() & (COUNT - 1));

  private Lanes() {}

  /** The calling thread's lane. */
  static int current() {
    return LANE.get();
  }
}
