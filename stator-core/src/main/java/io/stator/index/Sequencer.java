package io.stator.index;

import io.stator.stream.StreamWrites;
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
 *
 * <p>Engines sharing a storage write to one change log per table, each numbering alone: every
 * number ends in its engine's id ({@link StreamWrites#numberOf}), so two engines never give two records one key, where the later commit would
 * replace the earlier record and that change would never reach the GSI. The watermark is this
 * engine's own: each engine's propagator applies at least the records it numbered.
 */
final class Sequencer {
  private final TreeSet<Long> inFlight = new TreeSet<>();
  private final int writer;
  private long next;

  /** Numbers from {@code first} on that end in {@code writer} ({@link StreamWrites#writer}). */
  Sequencer(long first, int writer) {
    this.writer = writer;
    this.next = first;
  }

  synchronized long take() {
    long n = StreamWrites.numberOf(writer, next);
    next = n + 1;
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
