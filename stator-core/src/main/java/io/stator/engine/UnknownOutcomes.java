package io.stator.engine;

import io.stator.storage.Commit;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What became of a single-item write's commits whose outcome the storage could not tell ({@link
 * CommitOutcomeUnknownException}: a timeout, a lost connection), found out from the item itself.
 *
 * <p>Why not answer a 500 and let the client retry: every AWS SDK retries a 500 by itself, so an
 * UpdateItem {@code ADD} whose first try landed would be added twice, and a conditional PutItem
 * whose first try landed would fail its own {@code attribute_not_exists} on the retry. Why not
 * rerun the commit blindly: the same. Instead the engine reads the item again, as it does after
 * a conflict, and before checking anything else asks this class what the earlier tries did:
 *
 * <ul>
 *   <li>The item holds the version an unknown put carried: that try landed (no other commit is
 *       ever given that version, see {@code Storage}), and the write answers what it would have
 *       answered had the storage said so: the same old item, the same ReturnValues, the same
 *       capacity.
 *   <li>The item still holds the version the tries expected: none has landed yet. The write runs
 *       again from this read, and its commit expects that same version, so it fences the earlier
 *       tries off: if the new commit is applied the key's version changes and no earlier try can
 *       find it unchanged any more (versions never come back), and if an earlier try lands first
 *       the new commit conflicts, and the next read finds that try's version.
 *   <li>A try that deleted the item, and the item is absent: that try is taken to have landed.
 *       A delete leaves no version to recognise; the only other way the item can have gone is
 *       another client's write of it between the first try and this read, ending in a delete.
 *       The item is then absent either way, and the answer (the old item, ALL_OLD) is the one
 *       the first try would have given; what is not guaranteed in that race is that only one of
 *       the two deletes reports the old item.
 *   <li>Anything else (another version: another client wrote the item after the earlier tries
 *       were sent, before or after one of them landed) cannot be told apart, and the write
 *       answers the unknown outcome as it is, a 500 InternalServerError, which a client may
 *       retry. So does a write whose tries stay unknown {@value #TRIES} times.
 * </ul>
 *
 * <p>Every write of an item commits expecting the version it read (an absent item expects
 * {@link Commit.Expectation#ABSENT}), which is what makes the rerun safe.
 *
 * @param <A> the write's answer, as computed by the try that may have landed
 */
final class UnknownOutcomes<A> {
  /** How many tries of one write may end unknown before it answers the fault. */
  static final int TRIES = 3;

  private final List<Try<A>> tries = new ArrayList<>(1);
  private CommitOutcomeUnknownException last;

  /**
   * Records a try whose commit ended unknown: it expected the item at {@code expected}, put it
   * ({@code deletes} false, with the version {@code e} carries) or deleted it, and would have
   * answered {@code answer}.
   */
  void add(CommitOutcomeUnknownException e, long expected, boolean deletes, A answer) {
    tries.add(new Try<>(expected, deletes, e.version(), answer));
    last = e;
  }

  /**
   * Given the item's record as just read, the answer of an earlier try that landed; null when
   * none has landed and the write runs again (there is none yet, or they are all fenced off by
   * the rerun's expectation).
   *
   * @throws CommitOutcomeUnknownException when what became of the earlier tries cannot be told,
   *     or after {@value #TRIES} unknown tries
   */
  A landed(Optional<StoredRecord> current) {
    if (tries.isEmpty()) {
      return null;
    }
    long now = current.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT);
    for (Try<A> t : tries) {
      if (t.deletes() ? current.isEmpty() : now == t.version()) {
        return t.answer();
      }
    }
    // Each rerun read the version the first try expected, so they all expected the same.
    if (now == tries.get(0).expected() && tries.size() < TRIES) {
      return null;
    }
    throw last;
  }

  private record Try<A>(long expected, boolean deletes, long version, A answer) {}
}
