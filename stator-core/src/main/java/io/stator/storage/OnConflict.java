package io.stator.storage;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the engine does when a commit finds a version it expected changed: the one place outside
 * the item write pipeline that catches {@link CommitConflictException}.
 *
 * <p>An attempt reads what it needs, computes and commits expecting the versions it read, so an
 * attempt whose commit conflicted wrote nothing and can be run again from its read: the rerun sees
 * the change that beat it. Every caller that changes the catalog (UpdateTable, DeleteTable, a GSI
 * backfill, a stream following its partitions) or commits a batch of derived writes (the GSI
 * propagator, a read transaction's check) is such an attempt; what differs between them is only
 * how many times to try, what to undo or forget before the next try, and, where a conflict is an
 * answer rather than bad luck (a table created twice), what to answer.
 */
public final class OnConflict {
  private OnConflict() {}

  /** Runs {@code attempt} until one commits; returns its result. */
  public static <T> T rerun(Supplier<T> attempt) {
    return rerun(attempt, conflict -> {});
  }

  /**
   * Runs {@code attempt} until one commits; after each conflict, and before the next try,
   * {@code beforeRerun} undoes what the attempt did outside its commit (a space it created) or
   * forgets a copy the conflict showed stale.
   */
  public static <T> T rerun(Supplier<T> attempt, Consumer<CommitConflictException> beforeRerun) {
    while (true) {
      try {
        return attempt.get();
      } catch (CommitConflictException e) {
        beforeRerun.accept(e);
      }
    }
  }

  /**
   * Runs {@code attempt} at most {@code tries} times, yielding the processor between tries so the
   * writer that beat it can finish; when every try conflicted, throws what {@code exhausted}
   * makes of the last conflict.
   */
  public static <T> T rerun(
      int tries,
      Supplier<T> attempt,
      Function<CommitConflictException, ? extends RuntimeException> exhausted) {
    CommitConflictException last = null;
    for (int i = 0; i < tries; i++) {
      try {
        return attempt.get();
      } catch (CommitConflictException e) {
        last = e;
        Thread.yield();
      }
    }
    throw exhausted.apply(last);
  }

  /**
   * Runs {@code attempt} once; when its commit conflicts, the conflict is the answer, made by
   * {@code answer} (which may throw), not a reason to try again.
   */
  public static <T> T answer(Supplier<T> attempt, Function<CommitConflictException, T> answer) {
    try {
      return attempt.get();
    } catch (CommitConflictException e) {
      return answer.apply(e);
    }
  }
}
