package io.stator.stream;

import java.time.Clock;
import java.util.TreeSet;

/**
 * Sequence numbers of stream records, for all streams of one engine, and the point below which
 * every number taken is resolved (committed or abandoned).
 *
 * <p>A number is the writer's clock in epoch milliseconds times {@link #PER_MILLI}, plus a
 * counter within the millisecond times {@link #WRITERS}, plus the engine's id among the engines
 * writing on its storage ({@link WriterIds}), and never less than the last number plus one:
 * numbers strictly increase, engines sharing a store never take the same one (they count
 * alone, each in its own residue modulo {@code WRITERS}: {@link StreamWrites#numberOf}), carry
 * the time the record was made (its ApproximateCreationDateTime and its shard come from its
 * number alone), and a restart continues above the old ones because the clock moved on (and
 * because {@link #advanceTo} is told the largest stored number); a reader also waits for the
 * other engines' writers ({@link Watermarks}).
 *
 * <p>A writer takes a number after reading the item and resolves it after its commit attempt.
 * Two writes of one item commit in number order: the second read the item after the first
 * committed, so it took its number later (through another engine, whose clock may be behind,
 * above the number stored with the item: {@link StreamWrites#number}). A reader must not pass a
 * number still in flight, or it could skip a record that commits after it read past that point;
 * {@link #settle} waits for the numbers taken before it to resolve, which takes a commit's time.
 */
final class StreamSequencer {
  /** Numbers per millisecond: room for a million records per millisecond. */
  static final long PER_MILLI = 1_000_000L;
  /**
   * Engines told apart by the low digits of a number, which leaves each a thousand numbers per
   * millisecond; past that its numbers run ahead of its clock until the clock catches up.
   */
  static final int WRITERS = 1000;

  private final Clock clock;
  final int writer;
  private final TreeSet<Long> inFlight = new TreeSet<>();
  private long next;

  /** @param writer this engine's id among those writing on its storage, below {@link #WRITERS} */
  StreamSequencer(Clock clock, int writer) {
    if (writer < 0 || writer >= WRITERS) {
      throw new IllegalArgumentException("a writer id from 0 to " + (WRITERS - 1));
    }
    this.clock = clock;
    this.writer = writer;
  }

  /** The number of a record made now, at least {@code floor}; resolve it after the commit. */
  synchronized long take(long floor) {
    long n = StreamWrites.numberOf(writer, Math.max(Math.max(next, clock.millis() * PER_MILLI),
        floor));
    next = n + 1;
    inFlight.add(n);
    return n;
  }

  synchronized void resolve(long n) {
    if (inFlight.remove(n)) {
      notifyAll();
    }
  }

  /** The engine's clock now, never behind a number already taken, in epoch milliseconds. */
  synchronized long millis() {
    return Math.max(clock.millis(), (next - 1) / PER_MILLI);
  }

  /** Continues above {@code last} (the largest number found in storage at start). */
  synchronized void advanceTo(long last) {
    next = Math.max(next, last + 1);
  }

  /**
   * What a reader may read now: {@code bound} such that every number below it was taken
   * before, and every number taken from now on is at least {@code bound}; {@code complete}
   * when all of those below it are resolved (so the records below it are final). Waits up to
   * {@code timeoutMillis} for in-flight commits; when they take longer the answer is not
   * complete and its bound is the first number still in flight.
   */
  synchronized Settled settle(long timeoutMillis) {
    long bound = Math.max(next, clock.millis() * PER_MILLI);
    next = bound; // numbers taken from now on are at least bound
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (!inFlight.isEmpty() && inFlight.first() < bound) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return new Settled(inFlight.first(), false);
      }
      try {
        wait(Math.max(1, left / 1_000_000L));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Settled(inFlight.first(), false);
      }
    }
    return new Settled(bound, true);
  }

  /**
   * See {@link #settle}; {@code millis} is the engine's clock at the settle point, in epoch
   * milliseconds, which stays the reader's "now" when the bound is lowered below another
   * engine's watermark ({@link #below}).
   */
  record Settled(long bound, boolean complete, long millis) {
    Settled(long bound, boolean complete) {
      this(bound, complete, bound / PER_MILLI);
    }

    /** The same settle point, read no further than {@code limit}. */
    Settled below(long limit) {
      return limit >= bound ? this : new Settled(limit, complete, millis);
    }
  }

  /** DynamoDB's sequence numbers are strings of at least 21 digits. */
  static String format(long sequenceNumber) {
    return String.format("%021d", sequenceNumber);
  }

  /** The number of a SequenceNumber string, or -1 if it is not one Stator made. */
  static long parse(String sequenceNumber) {
    if (sequenceNumber == null || sequenceNumber.isEmpty() || sequenceNumber.length() > 40) {
      return -1;
    }
    for (int i = 0; i < sequenceNumber.length(); i++) {
      if (sequenceNumber.charAt(i) < '0' || sequenceNumber.charAt(i) > '9') {
        return -1;
      }
    }
    try {
      return Long.parseLong(sequenceNumber.replaceFirst("^0+(?=.)", ""));
    } catch (NumberFormatException tooLarge) {
      return -1;
    }
  }
}
