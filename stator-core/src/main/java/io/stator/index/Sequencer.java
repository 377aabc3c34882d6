package io.stator.index;

import java.util.TreeSet;

/**
 * Sequence numbers of change-log records, and the watermark below which every number is
 * resolved.
 *
 * <p>A writer takes a number after it has read the item for this attempt, and resolves it after
 * its commit succeeded or failed. The watermark is the smallest number still in flight (or the
 * next number when none is): every record with a smaller number is either committed or will
 * never be, so the log below the watermark is final and may be applied in order.
 *
 * <p>Taking a number and registering it in flight happen under one lock, as does reading the
 * watermark, so no reader can see a number taken but not yet in flight.
 */
final class Sequencer {
  private final TreeSet<Long> inFlight = new TreeSet<>();
  private long next;

  Sequencer(long first) {
    this.next = first;
  }

  synchronized long take() {
    long n = next++;
    inFlight.add(n);
    return n;
  }

  synchronized void resolve(long n) {
    inFlight.remove(n);
  }

  synchronized long watermark() {
    return inFlight.isEmpty() ? next : inFlight.first();
  }

  synchronized boolean idle() {
    return inFlight.isEmpty();
  }
}
