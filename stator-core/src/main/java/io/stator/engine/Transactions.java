package io.stator.engine;

import io.stator.api.CancellationReason;
import io.stator.api.ConditionCheck;
import io.stator.api.Delete;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.Get;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.Put;
import io.stator.api.ThrottledException;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactWriteItemsResponse;
import io.stator.api.TransactionCanceledException;
import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.CapacityModel;
import io.stator.capacity.Consumption;
import io.stator.capacity.GlobalIndexWrite;
import io.stator.capacity.ReadConsistency;
import io.stator.engine.OngoingTransactions.ItemId;
import io.stator.engine.UnknownOutcomes.UnknownCommit;
import io.stator.expression.Expressions;
import io.stator.index.IndexChanges;
import io.stator.index.IndexKeys;
import io.stator.index.IndexWrite;
import io.stator.index.Indexes;
import io.stator.item.ItemCodec;
import io.stator.item.ItemNesting;
import io.stator.item.ItemSize;
import io.stator.schema.Catalog;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TransactWriteItems: the write protocol below, after {@link TransactWriteValidation}; its
 * cancellations are {@link Cancellations}'. TransactGetItems ({@link TransactGets}) shares the
 * design.
 *
 * <h2>What a transaction guarantees</h2>
 *
 * A TransactWriteItems applies all of its actions or none of them, and it is serializable with
 * every other write: there is one instant at which all of its conditions held for the items as
 * they were, and at that same instant all of its writes took effect. No reader, single-item
 * write or other transaction can observe a state in which some of its writes are applied and
 * others are not, and that holds across a crash of the process. A TransactGetItems returns the
 * items as they all were at one instant. These are DynamoDB's guarantees (serializable
 * isolation between transactions and single-item operations).
 *
 * <h2>How: versions and one atomic commit</h2>
 *
 * Every stored item carries a version that the storage makes new on every write of that key (one
 * the key never had, also across a delete and re-create), and the storage offers exactly one write
 * primitive: {@link Storage#commit}, a set of puts and deletes applied atomically if and only if
 * a set of version expectations holds. A TransactWriteItems is therefore:
 *
 * <ol>
 *   <li>validate the whole request (nothing read yet);
 *   <li>read every item the actions name, with its version (absent reads as version 0);
 *   <li>evaluate every condition and compute every new item (Put's item, Update's result) from
 *       what was read; any failure cancels with a reason per action;
 *   <li>commit ONE {@link Commit} holding all writes plus an expectation for every item read,
 *       including the items of ConditionChecks that write nothing.
 * </ol>
 *
 * The commit is the linearization point. If it succeeds, every item still had the version that
 * the conditions were evaluated against, so the conditions held at that instant, and the writes
 * appear at that instant. If any item changed in between, the storage refuses the whole commit
 * and nothing is written; the transaction is then cancelled with {@code TransactionConflict} on
 * that item, as DynamoDB cancels a transaction that meets a concurrent one instead of waiting.
 * Single-item writes follow the same protocol with one expectation (see {@link Items}), so they
 * serialize with transactions through the same storage commit: a PutItem that lands between a
 * transaction's read and its commit makes the transaction fail its expectation, and a PutItem
 * that reads an item just before a transaction commits fails its own expectation, reads again
 * and re-evaluates its condition against the transaction's result. Neither can see the other
 * half-done because there is no "half-done" state in storage.
 *
 * <p>TransactGetItems reads all items, then commits an empty {@link Commit} that only expects
 * the versions it read. That commit succeeds only if, at its instant, every item was exactly as
 * read, so the answer is the state at that instant. Unlike "read twice and compare", this is
 * immune to an item that was deleted and re-created, or created and deleted, between the two
 * reads (an absent item has no version to compare). On a change it reads again, a few times,
 * and then cancels with {@code TransactionConflict}, as DynamoDB does.
 *
 * <h2>Crash atomicity</h2>
 *
 * The storage applies a commit as one unit: RocksDB writes it as one {@code WriteBatch} through
 * the write-ahead log, which recovery replays completely or not at all, so after a kill -9 a
 * transaction is either entirely present or entirely absent. No intermediate state (locks,
 * transaction records, prepared items) is ever persisted, so there is nothing to recover or roll
 * back. A distributed storage gives the same guarantee with one Accord transaction per commit.
 *
 * <h2>Why not locks or a transaction log</h2>
 *
 * DynamoDB marks items with an ongoing transaction and rejects other writers with
 * TransactionConflictException. Stator needs no persisted state for that: the optimistic commit
 * already serializes everything, holds nothing across calls (so it runs unchanged on a storage
 * where a commit is a network round trip), and needs no recovery protocol. To show DynamoDB's
 * behaviour, the engine keeps the items of its running transactions in memory ({@link
 * OngoingTransactions}) from before their reads until after their commit or cancellation, and a
 * PutItem, UpdateItem or DeleteItem on one of them fails with TransactionConflictException,
 * writing nothing. That check is not what makes the history serializable (a write that passes
 * it just before a transaction begins still meets it in the storage commit, and one of the two
 * retries or is cancelled); it only reports the conflict as DynamoDB does.
 *
 * <h2>Differences from DynamoDB</h2>
 *
 * <ul>
 *   <li>Only transactions of this engine make single-item writes fail with
 *       TransactionConflictException; a write through another engine on the same storage (or
 *       a BatchWriteItem, whose API does not list that error) goes before or after the
 *       transaction instead, a serializable history DynamoDB could also produce.
 *   <li>A ClientRequestToken is stored in its transaction's commit ({@link
 *       StoredRequestTokens}), so another engine on the same storage, or a restart, knows it;
 *       only this engine knows a request with it is still running or ended unknown ({@link
 *       ClientRequestTokens}).
 * </ul>
 *
 * <h2>Unknown outcomes</h2>
 *
 * <p>A commit that ends with an unknown outcome (a storage timeout) is never run again blindly:
 * the transaction reads the keys it wrote and finds out ({@link UnknownOutcomes#outcome}). Landed,
 * it answers success; not landed, it runs again, and the new commit, expecting what the first
 * expected, fences it off; a conflict after that first asks whether the first landed meanwhile.
 * Where its keys cannot tell (another client wrote them since) the transaction answers the
 * unknown outcome as a 500, and its ClientRequestToken keeps the commits in question, so that
 * the SDK's retry with the token finds out about them before it runs, and never applies the
 * transaction a second time.
 *
 * <h2>Capacity</h2>
 *
 * DynamoDB performs two underlying operations per item (prepare and commit), so a transaction
 * costs twice the plain operation: a Put, Update or Delete two WCU per KB of the larger of the
 * old and new item, at least 2; a ConditionCheck, which belongs to the write transaction and
 * consumes write capacity like the others, two WCU per KB of the checked item, at least 2; a
 * TransactGetItems Get two RCU per 4 KB of its item, each rounded on its own (2 for a missing
 * item). ConsumedCapacity is one entry per table, in the order the tables first appear in
 * TransactItems. Every item is charged to its partition in the {@link CapacityModel} before the
 * commit, after the items are read (their sizes set the price); if one is throttled (enforce
 * mode) the whole transaction is cancelled, with reason {@code ProvisionedThroughputExceeded}
 * (provisioned table) or {@code ThrottlingError} (on-demand) on that action and {@code None} on
 * the others, and nothing is written. The units already charged for the actions before it stay
 * consumed, as a cancelled transaction's prepare phase consumes on DynamoDB; a transaction
 * cancelled by a condition is charged too, without changing any size. A transaction that starts
 * over because a table's definition changed under it (its index writes were computed for the
 * old one), or because another write grew one of its item collections meanwhile, is charged
 * once, by its first attempt. The index writes of the attempt that committed are reported too
 * (per index with INDEXES), doubled like the table's. A repeated request with an already used
 * ClientRequestToken writes nothing and, as documented, reports the read units of reading the
 * items (strongly consistent), which are not charged to the partition model.
 */
final class Transactions {
  /** DynamoDB's limit of 100 actions per transaction, of reads or of writes. */
  static final int MAX_ACTIONS = 100;

  static final String[] RETURN_CONSUMED_CAPACITY = {"INDEXES", "TOTAL", "NONE"};

  private final Storage storage;
  private final Tables tables;
  private final Indexes indexes;
  private final ClientRequestTokens tokens;
  private final StoredRequestTokens storedTokens;
  private final CapacityModel capacity;
  private final OngoingTransactions ongoing;
  private final ReadModifyWrite pipeline;
  private final TransactWriteValidation validation;

  Transactions(
      Storage storage, Tables tables, Indexes indexes, ClientRequestTokens tokens,
      StoredRequestTokens storedTokens,
      CapacityModel capacity, OngoingTransactions ongoing, ReadModifyWrite pipeline) {
    this.storage = storage;
    this.tables = tables;
    this.indexes = indexes;
    this.tokens = tokens;
    this.storedTokens = storedTokens;
    this.capacity = capacity;
    this.ongoing = ongoing;
    this.pipeline = pipeline;
    this.validation = new TransactWriteValidation(tables);
  }

  TransactWriteItemsResponse write(TransactWriteItemsRequest r) {
    List<TransactAction> actions = validation.validate(r);
    String token = r.clientRequestToken();
    byte[] fingerprint = token == null ? null : ClientRequestTokens.fingerprint(r);
    ClientRequestTokens.Begun begun = token == null
        ? ClientRequestTokens.Begun.FRESH
        : tokens.begin(token, fingerprint);
    // Commits of this request (of an earlier try with its token, or of this one) whose outcome
    // is unknown; while one of them may have landed, the token is not forgotten.
    List<UnknownCommit> unknown = new ArrayList<>(begun.unknown());
    boolean applied = begun.applied();
    if (!applied && !unknown.isEmpty()) {
      try {
        applied = pipeline.landed(unknown, null);
      } catch (StorageException e) {
        tokens.unknown(token, unknown);
        throw tables.failure(actions.stream().map(TransactAction::table).toList(), e);
      }
    }
    // Applied through another engine on the storage, or before a restart: the stored token
    // says so; else the commit writes it, expecting what was read.
    StoredRequestTokens.Found found = null;
    if (token != null && !applied) {
      try {
        found = storedTokens.find(token, fingerprint);
        applied = found.applied();
      } catch (RuntimeException e) {
        if (unknown.isEmpty()) {
          tokens.abandon(token);
        } else {
          tokens.unknown(token, unknown);
        }
        throw e instanceof StorageException se
            ? tables.failure(actions.stream().map(TransactAction::table).toList(), se) : e;
      }
    }
    if (applied) {
      // Applied before: do not apply again; report the reads of the items, as DynamoDB does.
      if (!begun.applied()) {
        tokens.complete(token);
      }
      try {
        return new TransactWriteItemsResponse(
            Consumption.list(replayReads(actions), r.returnConsumedCapacity()), null);
      } catch (StorageException e) {
        throw tables.failure(actions.stream().map(TransactAction::table).toList(), e);
      }
    }
    boolean committed = false;
    Committed done;
    // Marked from before the reads until after the commit or cancellation: a single-item write
    // on one of these items meanwhile fails with TransactionConflictException, as on DynamoDB.
    List<ItemId> marked =
        actions.stream().map(a -> new ItemId(a.table().space(), a.key())).toList();
    ongoing.begin(marked);
    try {
      done = commit(actions, unknown, token, fingerprint, found);
      committed = true;
    } catch (StorageException e) {
      throw tables.failure(actions.stream().map(TransactAction::table).toList(), e);
    } finally {
      ongoing.end(marked);
      if (token != null) {
        if (committed) {
          tokens.complete(token);
        } else if (!unknown.isEmpty()) {
          tokens.unknown(token, unknown);
        } else {
          tokens.abandon(token);
        }
      }
    }
    return new TransactWriteItemsResponse(
        Consumption.list(done.consumed().values(), r.returnConsumedCapacity()),
        itemCollectionMetrics(done.indexWrites(), r.returnItemCollectionMetrics()));
  }

  /** ItemCollectionMetrics per table, for ReturnItemCollectionMetrics SIZE (else null). */
  private static Map<String, List<ItemCollectionMetrics>> itemCollectionMetrics(
      List<IndexWrite> written, String mode) {
    Map<String, List<ItemCollectionMetrics>> out = new LinkedHashMap<>();
    for (IndexWrite w : written) {
      ItemCollectionMetrics m = w.itemCollectionMetrics(mode);
      if (m != null) {
        out.computeIfAbsent(w.tableName(), k -> new ArrayList<>()).add(m);
      }
    }
    return out.isEmpty() ? null : out;
  }

  /**
   * A committed transaction: what it consumed, per table in the order of first appearance, and
   * the index side of the attempt that committed.
   */
  private record Committed(Map<String, Consumption> consumed, List<IndexWrite> indexWrites) {}

  /**
   * Read, evaluate, charge and commit once; cancels with reasons on any failure. Only a change
   * of a table's definition in between (an index added or removed) makes it start over, since
   * the index writes were computed for the old one; the capacity charged by the first attempt
   * stands and is not charged again (a retry is our cost, not the client's). So does a counter
   * of an item collection that another write grew meanwhile. Returns the write units consumed,
   * per table in the order of first appearance: the table writes charged by the first attempt
   * and the index writes of the attempt that committed (doubled, as every transactional write
   * is), with that attempt's index side.
   */
  private Committed commit(List<TransactAction> actions, List<UnknownCommit> unknown, String token,
      byte[] fingerprint, StoredRequestTokens.Found found) {
    Map<String, Consumption> consumed = new LinkedHashMap<>();
    return pipeline.writeAll(new ReadModifyWrite.Attempt<>() {
      @Override
      public Commit prepare(List<IndexWrite> indexWrites, boolean charge) {
        Commit commit = attempt(actions, indexWrites, charge ? consumed : null);
        if (token != null) {
          storedTokens.stage(commit, token, fingerprint, found);
        }
        return commit;
      }

      @Override
      public Committed committed(List<IndexWrite> indexWrites) {
        return Transactions.committed(consumed, indexWrites);
      }

      @Override
      public RuntimeException conflicted(CommitConflictException e) {
        if (StoredRequestTokens.isToken(e.failed())) {
          // Another engine committed a request with this token first.
          return ClientRequestTokens.inProgressError();
        }
        return conflict(actions, e.failed());
      }
    }, unknown);
  }

  /**
   * The transaction committed: what it consumed, with the index writes of {@code indexWrites}
   * (of the attempt that committed; of the last attempt when an earlier one whose outcome was
   * unknown turned out to have landed, which wrote the same indexes unless the items changed in
   * between).
   */
  private static Committed committed(
      Map<String, Consumption> consumed, List<IndexWrite> indexWrites) {
    for (IndexWrite w : indexWrites) {
      w.addTo(consumed.get(w.tableName()), true);
    }
    return new Committed(consumed, indexWrites);
  }

  /**
   * One attempt: reads and checks every action and returns the commit to make; charges into
   * {@code consumed} when given (the first attempt: ReadModifyWrite charges once).
   */
  private Commit attempt(
      List<TransactAction> actions, List<IndexWrite> indexWrites,
      Map<String, Consumption> consumed) {
    List<CancellationReason> reasons = new ArrayList<>(actions.size());
    boolean cancelled = false;
    Commit commit = new Commit();
    long[] oldSizes = new long[actions.size()];
    long[] newSizes = new long[actions.size()];
    List<List<GlobalIndexWrite>> globalWrites = new ArrayList<>(actions.size());
    // Every table's definition before the first read: taking one may record a stream's new
    // layout in the catalog, which an action already staged against the old one would conflict
    // with.
    Map<String, Catalog.Entry> entries = new HashMap<>();
    for (TransactAction a : actions) {
      if (a.kind() != TransactAction.Kind.CONDITION_CHECK) {
        entries.computeIfAbsent(a.table().name(), tables::entryForItems);
      }
    }
    for (int i = 0; i < actions.size(); i++) {
      globalWrites.add(List.of());
      TransactAction a = actions.get(i);
      String space = a.table().space();
      Optional<StoredRecord> current = storage.get(space, a.key());
      Map<String, AttributeValue> old =
          current.map(rec -> ItemCodec.decode(rec.value())).orElse(null);
      oldSizes[i] = old == null ? 0 : ItemSize.of(old);
      newSizes[i] = oldSizes[i];
      CancellationReason reason = CancellationReason.NONE;
      DynamoDbException refused = null;
      if (a.condition() != null
          && !Expressions.evaluate(a.condition(), old == null ? Map.of() : old)) {
        reason =
            new CancellationReason(
                a.returnOldOnFailure() ? old : null,
                "ConditionalCheckFailed",
                "The conditional request failed");
      } else {
        try {
          Written written = write(commit, a, old);
          Map<String, AttributeValue> updated = written.item();
          newSizes[i] = updated == null ? 0 : ItemSize.of(updated);
          if (a.kind() != TransactAction.Kind.CONDITION_CHECK) {
            Catalog.Entry entry = entries.get(a.table().name());
            if (!entry.table().tableId().equals(a.table().tableId())) {
              throw DynamoDbException.resourceNotFound("Requested resource not found");
            }
            if (a.kind() == TransactAction.Kind.UPDATE && updated != null) {
              refused = IndexKeys.emptyKey(entry.table(), updated, true);
            }
            if (refused == null) {
              IndexChanges changes = IndexChanges.of(entry.table(), old, updated);
              indexWrites.add(indexes.stage(entry, a.key(), changes,
                  current.map(StoredRecord::value).orElse(null), written.encoded(), commit,
                  null));
              globalWrites.set(i, changes.globalWrites(true));
            }
          }
        } catch (DynamoDbException e) {
          if (e.type() == ErrorType.ResourceNotFoundException) {
            throw e;
          }
          if (e.type() == ErrorType.ItemCollectionSizeLimitExceededException) {
            reason = new CancellationReason(null, "ItemCollectionSizeLimitExceeded",
                e.getMessage());
          } else {
            // The item made the action invalid (e.g. an update of a string with "+"): DynamoDB
            // reports it as this action's ValidationError, not as a failed request.
            reason = new CancellationReason(null, "ValidationError", e.getMessage());
          }
        }
      }
      if (refused != null) {
        // DynamoDB refuses an Update that leaves a secondary index key empty for the whole
        // request, in an update's words, rather than cancelling the action.
        throw refused;
      }
      cancelled |= !reason.isNone();
      reasons.add(reason);
      commit.expect(space, a.key(), current.map(StoredRecord::version)
          .orElse(Commit.Expectation.ABSENT));
    }
    if (consumed != null) {
      charge(actions, oldSizes, newSizes, cancelled ? null : globalWrites, consumed);
    }
    if (cancelled) {
      throw new TransactionCanceledException(reasons);
    }
    return commit;
  }

  /**
   * Charges every action to its partition: twice the write units of the larger of the old and
   * new item (a ConditionCheck's new item is the old one), and its writes in the table's global
   * secondary indexes to theirs ({@code globalWrites}, per action; null when the transaction is
   * cancelled and writes no index). A throttle, of a table or of an index, cancels the
   * transaction.
   */
  private void charge(
      List<TransactAction> actions, long[] oldSizes, long[] newSizes,
      List<List<GlobalIndexWrite>> globalWrites, Map<String, Consumption> consumed) {
    boolean cancelled = globalWrites == null;
    for (int i = 0; i < actions.size(); i++) {
      TransactAction a = actions.get(i);
      double units = CapacityCalculator.write(oldSizes[i], newSizes[i], true);
      long sizeDelta = cancelled ? 0 : newSizes[i] - oldSizes[i];
      try {
        capacity.write(a.table(), a.key().partition(), units, sizeDelta,
            cancelled ? List.of() : globalWrites.get(i));
      } catch (ThrottledException e) {
        throw Cancellations.throttled(actions.size(), i, a.table(), e);
      }
      consumed.computeIfAbsent(a.table().name(), Consumption::transactional).tableWrite(units);
    }
  }

  /** What a repeated request reports: strongly consistent reads of its items, per table. */
  private List<Consumption> replayReads(List<TransactAction> actions) {
    Map<String, Consumption> consumed = new LinkedHashMap<>();
    for (TransactAction a : actions) {
      long size = storage.get(a.table().space(), a.key())
          .map(rec -> ItemSize.of(ItemCodec.decode(rec.value()))).orElse(0L);
      consumed.computeIfAbsent(a.table().name(), Consumption::transactional)
          .tableRead(CapacityCalculator.getItem(size, ReadConsistency.STRONG));
    }
    return new ArrayList<>(consumed.values());
  }

  /**
   * Adds the action's write, computed from the current item, to the commit; returns what it
   * wrote.
   */
  private static Written write(Commit commit, TransactAction a, Map<String, AttributeValue> old) {
    String space = a.table().space();
    switch (a.kind()) {
      case CONDITION_CHECK -> {
        return new Written(old, null);
      }
      case PUT -> {
        byte[] encoded = ItemCodec.encode(a.item());
        commit.put(space, a.key(), encoded);
        return new Written(a.item(), encoded);
      }
      case DELETE -> {
        if (old != null) {
          commit.delete(space, a.key());
        }
        return new Written(null, null);
      }
      case UPDATE -> {
        if (old == null && !ItemUpdates.createsItem(a.update())) {
          return new Written(null, null); // nothing to remove from no item, as UpdateItem
        }
        // From the key when the item is missing, as UpdateItem: the expression may read it.
        Map<String, AttributeValue> updated =
            new LinkedHashMap<>(
                Expressions.applyUpdate(a.update(), old == null ? a.keyAttributes() : old));
        updated.putAll(a.keyAttributes());
        if (ItemSize.of(updated) > ItemSize.MAX_ITEM_SIZE) {
          throw DynamoDbException.validation(
              "Item size to update has exceeded the maximum allowed size");
        }
        ItemNesting.check(updated);
        byte[] encoded = ItemCodec.encode(updated);
        commit.put(space, a.key(), encoded);
        return new Written(updated, encoded);
      }
      default -> throw new IllegalStateException(a.kind().toString());
    }
  }

  /**
   * The item as an action leaves it (null when deleted; the current item for a ConditionCheck),
   * and its encoding when the action wrote it, which an index projecting ALL keeps as it is.
   */
  private record Written(Map<String, AttributeValue> item, byte[] encoded) {}

  private static TransactionCanceledException conflict(
      List<TransactAction> actions, Commit.Expectation failed) {
    return Cancellations.conflictOn(actions, TransactAction::table, TransactAction::key, failed);
  }
}
