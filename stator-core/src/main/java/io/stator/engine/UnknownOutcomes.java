package io.stator.engine;

import io.stator.engine.OngoingTransactions.ItemId;
import io.stator.storage.Commit;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.Storage;
import io.stator.storage.StoredRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What became of a write's commits whose outcome the storage could not tell ({@link
 * CommitOutcomeUnknownException}: a timeout, a lost connection), found out from the keys they
 * wrote: an instance for the tries of one item's write (PutItem, UpdateItem, DeleteItem, a
 * BatchWriteItem's write, a TTL delete), and {@link #outcome} for a commit of several items
 * (TransactWriteItems, whose ClientRequestToken keeps the commits that it could not tell, see
 * {@code ClientRequestTokens}).
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
 * {@link Commit.Expectation#ABSENT}), which is what makes the rerun safe. Until a rerun commits,
 * an earlier try that has not landed may still land (a coordinator can finish it late): a rerun
 * that ends otherwise, with a storage fault or a TransactionConflictException for a transaction
 * of this engine begun on the item meanwhile, answers that, and the earlier try may land after
 * the answer, as after any 500.
 *
 * @param <A> the write's answer, as computed by the try that may have landed
 */
final class UnknownOutcomes<A> {
  /** How many tries of one write may end unknown before it answers the fault. */
  static final int TRIES = 3;

  // Empty until a try ends unknown: every write makes an instance, almost none adds to it
  private List<Try<A>> tries = List.of();
  private CommitOutcomeUnknownException last;

  /**
   * Records a try whose commit ended unknown: it expected the item at {@code expected}, put it
   * ({@code deletes} false, with the version {@code e} carries) or deleted it, and would have
   * answered {@code answer}.
   */
  void add(CommitOutcomeUnknownException e, long expected, boolean deletes, A answer) {
    if (tries.isEmpty()) {
      tries = new ArrayList<>(UnknownOutcomes.TRIES);
    }
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

  // ---- commits of several items (TransactWriteItems) ----------------------------------------

  /** A commit whose outcome the storage could not tell, and the version its puts got if it was. */
  record UnknownCommit(Commit commit, long version) {
    UnknownCommit(Commit commit, CommitOutcomeUnknownException e) {
      this(commit, e.version());
    }
  }

  /** What became of an {@link UnknownCommit}, as far as its keys tell now. */
  enum Outcome {
    /** It was applied. */
    LANDED,
    /** It has not been applied: a commit expecting what it expected fences it off. */
    NOT_LANDED,
    /** Its keys cannot tell: another commit wrote them since. */
    UNKNOWN
  }

  /**
   * What became of {@code unknown}, from its keys' versions now: the rules above for one item,
   * over all the keys it wrote. A storage applies a commit wholly or not at all, so one put key
   * holding its version shows it landed; one written key still holding the version it expected
   * shows it has not (applying it would have changed that key, and versions never come back).
   */
  static Outcome outcome(Storage storage, UnknownCommit unknown) {
    Commit commit = unknown.commit();
    Map<ItemId, Long> expected = new HashMap<>();
    for (Commit.Expectation e : commit.expectations()) {
      expected.put(new ItemId(e.space(), e.key()), e.version());
    }
    boolean deletedAll = true;
    for (Commit.Write w : commit.writes()) {
      Optional<StoredRecord> now = storage.get(w.space(), w.key());
      long version = now.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT);
      if (!w.isDelete() && version == unknown.version()) {
        return Outcome.LANDED;
      }
      Long before = expected.get(new ItemId(w.space(), w.key()));
      if (before != null && version == before
          && !(w.isDelete() && before == Commit.Expectation.ABSENT)) {
        return Outcome.NOT_LANDED;
      }
      deletedAll &= w.isDelete() && now.isEmpty();
    }
    // Deletes alone leave no version: their keys being absent counts as landed (see above)
    return deletedAll && !commit.writes().isEmpty() ? Outcome.LANDED : Outcome.UNKNOWN;
  }

  /**
   * Whether one of {@code unknown} landed; throws the fault when one of them may have landed
   * and cannot be told, since running the request again could apply it twice.
   */
  static boolean anyLanded(
      Storage storage, List<UnknownCommit> unknown, CommitOutcomeUnknownException fault) {
    boolean untold = false;
    for (UnknownCommit u : unknown) {
      switch (outcome(storage, u)) {
        case LANDED -> {
          return true;
        }
        case UNKNOWN -> untold = true;
        case NOT_LANDED -> {}
      }
    }
    if (untold) {
      throw fault;
    }
    return false;
  }
}
