package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.capacity.CapacityModel;
import io.stator.index.IndexChanges;
import io.stator.index.IndexWrite;
import io.stator.index.Indexes;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.schema.Catalog;
import io.stator.schema.SpaceNames;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.stream.StreamWrites;
import io.stator.stream.UserIdentity;
import io.stator.engine.UnknownOutcomes.UnknownCommit;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one way items are written (PutItem, DeleteItem, UpdateItem, each write of a
 * BatchWriteItem, the Time to Live sweeper's deletes, and, several items in one commit,
 * TransactWriteItems: {@link #writeAll}): read the item, compute what the write makes of it,
 * charge the capacity once, commit expecting the version read, and on a conflict start over from
 * the read.
 *
 * <h2>What an attempt may do</h2>
 *
 * The computation ({@link Modification}) is a function of the table's definition and the item
 * read, and changes nothing: it decides the new item (or a delete, or nothing to write), the
 * refusal of a failed condition, and the units to charge. So an attempt that meets a conflict is
 * thrown away whole and computed again from a new read. What does happen outside the storage
 * happens here, once per write, in this order: the capacity model is charged on the first attempt
 * only (a retry is our cost, not the client's, and the answer reports what was charged), the
 * index side is staged ({@link Indexes#stage}), whose sequence numbers are taken just before the
 * commit ({@link IndexWrite#number}) and resolved after it, whatever its outcome.
 *
 * <h2>What a commit expects</h2>
 *
 * The item's version as read (or its absence), and through the index side the version of the
 * table's catalog record the attempt was computed against. A conflict on the catalog record
 * means the definition changed (an index added, another engine's change): the cached copy is
 * forgotten ({@link Tables#conflicted}) so the next attempt reads the new one. The table must
 * still be the incarnation the request was validated against; one deleted and re-created meanwhile
 * is ResourceNotFoundException.
 *
 * <h2>A commit whose outcome is unknown</h2>
 *
 * It is not rerun blindly: the next read asks {@link UnknownOutcomes} whether an earlier try
 * landed (then its answer is this write's), and a new commit expecting the same version fences
 * the earlier one off.
 *
 * <h2>Transactions in the way</h2>
 *
 * A client's write of an item that a running TransactWriteItems is writing is refused with
 * TransactionConflictException, as on DynamoDB: checked before the read and again just before
 * the commit ({@link OngoingTransactions}). Writes made by the service itself (Time to Live) are
 * not refused: their commit orders them with the transaction's.
 */
final class ReadModifyWrite {
  private final Storage storage;
  private final Tables tables;
  private final Indexes indexes;
  private final CapacityModel capacity;
  private final OngoingTransactions ongoing;

  ReadModifyWrite(
      Storage storage, Tables tables, Indexes indexes, CapacityModel capacity,
      OngoingTransactions ongoing) {
    this.storage = storage;
    this.tables = tables;
    this.indexes = indexes;
    this.capacity = capacity;
    this.ongoing = ongoing;
  }

  /** Who writes: what is checked and charged, and what the stream record says. */
  enum Writer {
    /** PutItem, UpdateItem, DeleteItem: charged, refused while a transaction writes the item. */
    CLIENT,
    /** A write of a BatchWriteItem: charged; transactions are not checked for. */
    BATCH,
    /** The service's own (Time to Live): not charged, its stream record names the service. */
    TIME_TO_LIVE,
    /**
     * A restore's put of a backed-up item into the table being restored: not charged, as
     * DynamoDB charges a restore by its size, not by its items' writes.
     */
    RESTORE;

    private boolean charged() {
      return this == CLIENT || this == BATCH;
    }

    private boolean checksTransactions() {
      return this == CLIENT;
    }

    private UserIdentity identity() {
      return this == TIME_TO_LIVE ? UserIdentity.TIME_TO_LIVE : null;
    }
  }

  /**
   * What a write makes of the item it read ({@code old}, null when absent, of {@code oldSize}
   * bytes), on the table's current definition. Must change nothing: it runs again after a
   * conflict. May throw a {@link DynamoDbException} that refuses the write before any charge (an
   * invalid update of the item read).
   */
  @FunctionalInterface
  interface Modification<R> {
    Change<R> apply(TableDefinition table, Map<String, AttributeValue> old, long oldSize);
  }

  /** The write's answer from the units charged and its index side (null if it wrote nothing). */
  @FunctionalInterface
  interface Answer<R> {
    R of(double units, IndexWrite indexWrite);
  }

  /**
   * What a write makes of the item it read.
   *
   * @param commits whether there is anything to commit
   * @param encoded the new item's encoding (null for a delete)
   * @param changes its index changes
   * @param units the write units charged on the first attempt
   * @param sizeDelta how much the table grows by it, for the capacity model
   * @param refusal thrown after the charge (a failed condition), or null
   * @param answer the write's answer
   */
  record Change<R>(
      boolean commits, byte[] encoded, IndexChanges changes,
      double units, long sizeDelta, RuntimeException refusal, Answer<R> answer) {

    /** Refused after the read, charged {@code units} (a failed condition still consumes). */
    static <R> Change<R> refused(double units, RuntimeException refusal) {
      return new Change<>(false, null, null, units, 0, refusal, null);
    }

    /** Nothing to write (a delete of an absent item), charged {@code units}. */
    static <R> Change<R> unchanged(double units, Answer<R> answer) {
      return new Change<>(false, null, null, units, 0, null, answer);
    }

    /** Writes {@code item} ({@code encoded}), or deletes the item read when it is null. */
    static <R> Change<R> write(
        TableDefinition table, Map<String, AttributeValue> old, Map<String, AttributeValue> item,
        byte[] encoded, double units, long sizeDelta, Answer<R> answer) {
      return new Change<>(true, encoded, IndexChanges.of(table, old, item), units,
          sizeDelta, null, answer);
    }
  }

  /**
   * Writes the item under {@code key} of the table the request was validated against, as
   * {@code modification} decides from what it reads; returns its answer.
   */
  <R> R write(
      TableDefinition validatedAgainst, StorageKey key, Writer writer,
      Modification<R> modification) {
    double charged = writer.charged() ? -1 : 0;
    UnknownOutcomes<R> unknown = new UnknownOutcomes<>();
    while (true) {
      Catalog.Entry entry = tables.entryForItems(validatedAgainst.name());
      TableDefinition table = entry.table();
      if (!table.tableId().equals(validatedAgainst.tableId())) {
        // deleted and re-created since the request was validated against it
        throw DynamoDbException.resourceNotFound("Requested resource not found");
      }
      if (writer.checksTransactions()) {
        ongoing.checkNotOngoing(table.space(), key);
      }
      Optional<StoredRecord> current = storage.get(table.space(), key);
      R landed = unknown.landed(current); // before the condition, which it may have changed
      if (landed != null) {
        return landed;
      }
      byte[] oldEncoded = current.isPresent() ? current.get().value() : null;
      Map<String, AttributeValue> old = oldEncoded == null ? null : ItemCodec.decode(oldEncoded);
      Change<R> change = modification.apply(table, old, old == null ? 0 : ItemSize.of(old));
      if (charged < 0) {
        charged = change.units();
        // The writes the item causes in the table's GSIs are charged to the GSIs' partitions
        // with it: a GSI short of write capacity throttles this write.
        capacity.write(table, key.partition(), charged, change.sizeDelta(),
            change.commits() ? change.changes().globalWrites(false) : List.of());
      }
      if (change.refusal() != null) {
        throw change.refusal();
      }
      if (!change.commits()) {
        return change.answer().of(charged, null);
      }
      long version = current.isPresent() ? current.get().version() : Commit.Expectation.ABSENT;
      Commit commit = new Commit().expect(table.space(), key, version);
      if (change.encoded() == null) {
        commit.delete(table.space(), key);
      } else {
        commit.put(table.space(), key, change.encoded());
      }
      try (IndexWrite indexWrite = indexes.stage(
          entry, key, change.changes(), oldEncoded, change.encoded(), commit, writer.identity())) {
        if (writer.checksTransactions()) {
          ongoing.checkNotOngoing(table.space(), key); // one may have begun since the read
        }
        R answer = change.answer().of(charged, indexWrite);
        indexWrite.number(commit);
        try {
          storage.commit(commit);
        } catch (CommitOutcomeUnknownException e) {
          // read again, and find out (UnknownOutcomes)
          unknown.add(e, version, change.encoded() == null, answer);
          continue;
        }
        return answer;
      } catch (CommitConflictException e) {
        // a concurrent write, or a change of the table, got in between: read and compute again
        tables.conflicted(e);
      } catch (StreamWrites.Paused e) {
        // numbered during a pause, maybe below what other servers' stream readers passed: again
      }
    }
  }

  // ---- several items in one commit (TransactWriteItems) -------------------------------------

  /**
   * One attempt of a write of several items in one commit: reads every item, computes, charges
   * when told to (the first attempt), and stages the commit and each item's index side.
   */
  interface Attempt<R> {
    /**
     * Reads and computes; adds the expectations and writes to the returned commit, each item's
     * index side to {@code indexWrites}; charges the capacity model when {@code charge}. Throws
     * what refuses the write (a cancellation).
     */
    Commit prepare(List<IndexWrite> indexWrites, boolean charge);

    /** The answer once committed, with the index sides of the attempt that committed. */
    R committed(List<IndexWrite> indexWrites);

    /** What a conflict on one of the items means: the refusal to throw. */
    RuntimeException conflicted(CommitConflictException e);
  }

  /**
   * Runs {@code attempt} until it commits, as {@link #write} does for one item, but a change of
   * one of the items themselves refuses the write ({@link Attempt#conflicted}) instead of
   * rerunning it: DynamoDB cancels a transaction that another write got in the way of. A change
   * of a definition, or of an item collection's size counter (another item's write, which
   * DynamoDB would not see as a conflict), reruns it. A commit whose outcome is unknown is added
   * to {@code unknown}, which the caller keeps (with its ClientRequestToken) while one may have
   * landed; the next attempt runs only once it is known not to have, and fences it off.
   */
  <R> R writeAll(Attempt<R> attempt, List<UnknownCommit> unknown) {
    boolean charge = true;
    int unknownTries = 0;
    while (true) {
      List<IndexWrite> indexWrites = new ArrayList<>();
      try {
        Commit commit = attempt.prepare(indexWrites, charge);
        charge = false;
        for (IndexWrite w : indexWrites) {
          w.number(commit); // every item checked: only now are sequence numbers taken
        }
        try {
          storage.commit(commit);
        } catch (CommitOutcomeUnknownException e) {
          // Find out (UnknownOutcomes): landed, it is this request's outcome; not landed, the
          // next attempt expects what it expected, which fences it off; else answer the fault.
          UnknownCommit u = new UnknownCommit(commit, e);
          unknown.add(u);
          if (!landed(List.of(u), e)) {
            if (++unknownTries >= UnknownOutcomes.TRIES) {
              throw e;
            }
            continue;
          }
        }
        return attempt.committed(indexWrites);
      } catch (StreamWrites.Paused e) {
        // numbered during a pause, maybe below what other servers' stream readers passed: again
      } catch (CommitConflictException e) {
        // An earlier try whose outcome was unknown may have landed meanwhile: then that is the
        // outcome, and the conflict is with it.
        if (!unknown.isEmpty() && landed(unknown, null)) {
          return attempt.committed(indexWrites);
        }
        String space = e.failed().space();
        if (Catalog.changedTable(e.failed()).isEmpty() && !SpaceNames.isItemCollections(space)) {
          throw attempt.conflicted(e);
        }
        tables.conflicted(e);
      } finally {
        indexWrites.forEach(IndexWrite::close);
      }
    }
  }

  /**
   * Whether one of {@code unknown} landed, as their keys tell now; when one may have landed and
   * its keys cannot tell, throws {@code fault} (or, without one, an unknown outcome of its own),
   * since running the write again could apply it twice.
   */
  boolean landed(List<UnknownCommit> unknown, CommitOutcomeUnknownException fault) {
    return UnknownOutcomes.anyLanded(storage, unknown, fault != null ? fault
        : new CommitOutcomeUnknownException(
            "an earlier try of this transaction may have been applied", unknown.get(0).version(),
            null));
  }
}
