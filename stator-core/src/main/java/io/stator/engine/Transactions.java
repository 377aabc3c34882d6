package io.stator.engine;

import io.stator.api.CancellationReason;
import io.stator.api.ConditionCheck;
import io.stator.api.Delete;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.Get;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.ItemResponse;
import io.stator.api.Put;
import io.stator.api.ThrottledException;
import io.stator.api.ThrottlingException;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactGetItemsResponse;
import io.stator.api.TransactWriteItem;
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
import io.stator.expression.ConditionExpression;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Path;
import io.stator.expression.UpdateExpression;
import io.stator.index.IndexChanges;
import io.stator.index.IndexKeys;
import io.stator.index.IndexWrite;
import io.stator.index.Indexes;
import io.stator.item.ItemCodec;
import io.stator.item.ItemNesting;
import io.stator.item.ItemSize;
import io.stator.schema.Catalog;
import io.stator.schema.Constraints;
import io.stator.schema.KeyAttribute;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Consistency;
import io.stator.storage.KeyRead;
import io.stator.storage.OnConflict;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * TransactWriteItems and TransactGetItems.
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
  /** DynamoDB's limits: 100 actions per transaction, 4 MB of data. */
  static final int MAX_ACTIONS = 100;

  static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024;

  /** How often a TransactGetItems re-reads when items change under it before it gives up. */
  static final int SNAPSHOT_ATTEMPTS = 8;

  private static final String CONFLICT_MESSAGE = "Transaction is ongoing for the item";

  private static final String[] RETURN_CONSUMED_CAPACITY = {"INDEXES", "TOTAL", "NONE"};

  /** The cancellation messages of a throttled action, as the API reference words them. */
  private static final String PROVISIONED_MESSAGE =
      "The level of configured provisioned throughput for the table was exceeded. Consider"
          + " increasing your provisioning level with the UpdateTable API.";

  private static final String ON_DEMAND_MESSAGE =
      "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically"
          + " scaling your table or index so please try again shortly. If exceptions persist,"
          + " check if you have a hot key:"
          + " https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
          + "bp-partition-key-design.html.";

  private final Storage storage;
  private final Tables tables;
  private final Indexes indexes;
  private final ClientRequestTokens tokens;
  private final StoredRequestTokens storedTokens;
  private final CapacityModel capacity;
  private final OngoingTransactions ongoing;
  private final ReadModifyWrite pipeline;

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
  }

  // ---- TransactWriteItems -------------------------------------------------------------------

  private enum Kind {
    CONDITION_CHECK,
    PUT,
    DELETE,
    UPDATE
  }

  /** One validated action, ready to meet the current item. */
  private record Action(
      Kind kind,
      TableDefinition table,
      StorageKey key,
      Map<String, AttributeValue> keyAttributes,
      ConditionExpression condition,
      UpdateExpression update,
      Map<String, AttributeValue> item,
      boolean returnOldOnFailure) {}

  TransactWriteItemsResponse write(TransactWriteItemsRequest r) {
    List<Action> actions = validate(r);
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
        throw failure(actions.stream().map(Action::table).toList(), e);
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
            ? failure(actions.stream().map(Action::table).toList(), se) : e;
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
        throw failure(actions.stream().map(Action::table).toList(), e);
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
      throw failure(actions.stream().map(Action::table).toList(), e);
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
  private Committed commit(List<Action> actions, List<UnknownCommit> unknown, String token,
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
      List<Action> actions, List<IndexWrite> indexWrites, Map<String, Consumption> consumed) {
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
    for (Action a : actions) {
      if (a.kind() != Kind.CONDITION_CHECK) {
        entries.computeIfAbsent(a.table().name(), tables::entryForItems);
      }
    }
    for (int i = 0; i < actions.size(); i++) {
      globalWrites.add(List.of());
      Action a = actions.get(i);
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
          if (a.kind() != Kind.CONDITION_CHECK) {
            Catalog.Entry entry = entries.get(a.table().name());
            if (!entry.table().tableId().equals(a.table().tableId())) {
              throw DynamoDbException.resourceNotFound("Requested resource not found");
            }
            if (a.kind() == Kind.UPDATE && updated != null) {
              refused = IndexKeys.emptyKey(entry.table(), updated, true);
            }
            if (refused == null) {
              IndexChanges changes = IndexChanges.of(entry.table(), old, updated);
              indexWrites.add(indexes.stage(entry, changes,
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
      List<Action> actions, long[] oldSizes, long[] newSizes,
      List<List<GlobalIndexWrite>> globalWrites, Map<String, Consumption> consumed) {
    boolean cancelled = globalWrites == null;
    for (int i = 0; i < actions.size(); i++) {
      Action a = actions.get(i);
      double units = CapacityCalculator.write(oldSizes[i], newSizes[i], true);
      long sizeDelta = cancelled ? 0 : newSizes[i] - oldSizes[i];
      try {
        capacity.write(a.table(), a.key().partition(), units, sizeDelta,
            cancelled ? List.of() : globalWrites.get(i));
      } catch (ThrottledException e) {
        throw throttled(actions.size(), i, a.table(), e);
      }
      consumed.computeIfAbsent(a.table().name(), Consumption::transactional).tableWrite(units);
    }
  }

  /** What a repeated request reports: strongly consistent reads of its items, per table. */
  private List<Consumption> replayReads(List<Action> actions) {
    Map<String, Consumption> consumed = new LinkedHashMap<>();
    for (Action a : actions) {
      long size = storage.get(a.table().space(), a.key())
          .map(rec -> ItemSize.of(ItemCodec.decode(rec.value()))).orElse(0L);
      consumed.computeIfAbsent(a.table().name(), Consumption::transactional)
          .tableRead(CapacityCalculator.getItem(size, ReadConsistency.STRONG));
    }
    return new ArrayList<>(consumed.values());
  }

  /**
   * The cancellation of a transaction whose action {@code index} was throttled, with the code
   * and message the API reference gives for a provisioned or an on-demand table.
   */
  private static TransactionCanceledException throttled(
      int actions, int index, TableDefinition table, ThrottledException e) {
    boolean onDemand = TableDefinition.PAY_PER_REQUEST.equals(table.billingMode());
    CancellationReason reason = onDemand
        // above a configured maximum the reason carries its own words, else the scaling ones
        ? new CancellationReason(null, "ThrottlingError",
            e instanceof ThrottlingException ? e.getMessage() : ON_DEMAND_MESSAGE)
        : new CancellationReason(null, "ProvisionedThroughputExceeded", PROVISIONED_MESSAGE);
    return cancelledAt(actions, index, reason);
  }

  /** A cancellation for one action's reason, every other action's reason None. */
  private static TransactionCanceledException cancelledAt(
      int actions, int index, CancellationReason reason) {
    List<CancellationReason> reasons = new ArrayList<>(actions);
    for (int i = 0; i < actions; i++) {
      reasons.add(i == index ? reason : CancellationReason.NONE);
    }
    return new TransactionCanceledException(reasons);
  }

  /**
   * Checks an action's key map. An empty or oversized key value fails the whole request, as
   * DynamoDB checks values before it opens the transaction; a key that does not match the
   * table's schema (an attribute missing, extra or of another type) is found once the action
   * meets its table, so DynamoDB cancels the transaction with a ValidationError reason for that
   * action instead.
   */
  private static void checkKey(TableDefinition table, Map<String, AttributeValue> key) {
    ItemKeys.checkValues(table, key);
    if (!ItemKeys.matchesSchema(table, key)) {
      throw new KeyMismatch(ItemKeys.SCHEMA_MISMATCH);
    }
  }

  /** An action whose key does not match its table's schema: its cancellation reason. */
  private static final class KeyMismatch extends RuntimeException {
    KeyMismatch(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The first action whose key did not match its table. Every action is checked first, so a
   * request error in a later action (an empty key value, an unknown table) still wins over the
   * cancellation; then the first mismatch gets its ValidationError and the others None.
   */
  private static final class Mismatches {
    private int index = -1;
    private String message;

    void note(int action, KeyMismatch e) {
      if (index < 0) {
        index = action;
        message = e.getMessage();
      }
    }

    void check(int actions) {
      if (index >= 0) {
        throw cancelledAt(actions, index, new CancellationReason(null, "ValidationError", message));
      }
    }
  }

  /**
   * Adds the action's write, computed from the current item, to the commit; returns what it
   * wrote.
   */
  private static Written write(Commit commit, Action a, Map<String, AttributeValue> old) {
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
      List<Action> actions, Commit.Expectation failed) {
    return conflictOn(actions, Action::table, Action::key, failed);
  }

  /**
   * TransactionConflict on the entry whose item changed under the transaction, None on the
   * others; shared by TransactWriteItems and TransactGetItems, which DynamoDB cancels alike.
   */
  private static <T> TransactionCanceledException conflictOn(
      List<T> entries,
      Function<T, TableDefinition> table,
      Function<T, StorageKey> key,
      Commit.Expectation failed) {
    List<CancellationReason> reasons = new ArrayList<>(entries.size());
    for (T entry : entries) {
      boolean conflicting =
          table.apply(entry).space().equals(failed.space())
              && key.apply(entry).equals(failed.key());
      reasons.add(
          conflicting
              ? new CancellationReason(null, "TransactionConflict", CONFLICT_MESSAGE)
              : CancellationReason.NONE);
    }
    return new TransactionCanceledException(reasons);
  }

  /**
   * Everything DynamoDB checks before it touches an item, in its order: the parameter
   * constraints of the whole request, then each action's shape, expressions, table and key.
   * Any problem here is a ValidationException (or ResourceNotFoundException) for the whole
   * request, not a cancellation reason.
   */
  /**
   * A storage failure while a transaction runs: ResourceNotFoundException when DeleteTable
   * dropped one of its tables under it (see {@link Tables#failure}), else the failure.
   */
  private RuntimeException failure(List<TableDefinition> touched, StorageException e) {
    for (TableDefinition table : touched) {
      RuntimeException mapped = tables.failure(table, e);
      if (mapped != e) {
        return mapped;
      }
    }
    return e;
  }

  private List<Action> validate(TransactWriteItemsRequest r) {
    List<TransactWriteItem> items = r.transactItems();
    Constraints c = new Constraints();
    c.notNull("transactItems", items);
    if (items != null) {
      c.lengthAtLeast("transactItems", shown(items, "TransactWriteItem"), items.size(), 1);
      c.lengthAtMost(
          "transactItems", shown(items, "TransactWriteItem"), items.size(), MAX_ACTIONS);
    }
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(), RETURN_CONSUMED_CAPACITY);
    c.oneOf("returnItemCollectionMetrics", r.returnItemCollectionMetrics(), "SIZE", "NONE");
    if (r.clientRequestToken() != null) {
      int length = r.clientRequestToken().length();
      c.lengthAtLeast("clientRequestToken", r.clientRequestToken(), length, 1);
      c.lengthAtMost("clientRequestToken", r.clientRequestToken(), length, 36);
    }
    if (items != null && items.size() <= MAX_ACTIONS) {
      for (int i = 0; i < items.size(); i++) {
        memberConstraints(c, "transactItems." + (i + 1) + ".member", items.get(i));
      }
    }
    c.check();

    for (TransactWriteItem item : items) {
      int set = (item.conditionCheck() == null ? 0 : 1) + (item.put() == null ? 0 : 1)
          + (item.delete() == null ? 0 : 1) + (item.update() == null ? 0 : 1);
      if (set != 1) {
        throw DynamoDbException.validation(
            "TransactItems can only contain one of Check, Put, Update or Delete");
      }
    }

    List<Action> actions = new ArrayList<>(items.size());
    Mismatches mismatches = new Mismatches();
    for (int i = 0; i < items.size(); i++) {
      try {
        actions.add(action(items.get(i)));
      } catch (KeyMismatch e) {
        mismatches.note(i, e);
        actions.add(null);
      }
    }
    mismatches.check(items.size());
    Set<ItemId> seen = new HashSet<>();
    long bytes = 0;
    for (int i = 0; i < items.size(); i++) {
      TransactWriteItem item = items.get(i);
      Action action = actions.get(i);
      if (!seen.add(new ItemId(action.table().space(), action.key()))) {
        throw DynamoDbException.validation(
            "Transaction request cannot include multiple operations on one item");
      }
      bytes += size(item, action);
      if (bytes > MAX_TRANSACTION_BYTES) {
        // Wording not confirmed against DynamoDB; the limit is its documented 4 MB.
        throw DynamoDbException.validation(
            "Transaction request size has exceeded the maximum allowed size of 4 MB");
      }
    }
    return actions;
  }

  /**
   * What an action adds to the 4 MB aggregate ("the aggregate size of the items in the
   * transaction cannot exceed 4 MB"): a Put its item; an Update its key and the values it
   * brings (its ExpressionAttributeValues), which is what it can add to the item; a Delete or a
   * ConditionCheck its key. Counted from the request, before anything is read, so an oversized
   * transaction is refused without touching an item.
   */
  private static long size(TransactWriteItem item, Action action) {
    if (action.item() != null) {
      return ItemSize.of(action.item());
    }
    long size = ItemSize.of(action.keyAttributes());
    if (item.update() != null && item.update().expressionAttributeValues() != null) {
      for (AttributeValue value : item.update().expressionAttributeValues().values()) {
        size += ItemSize.of(value);
      }
    }
    return size;
  }

  private static void memberConstraints(Constraints c, String path, TransactWriteItem item) {
    String[] rvoccf = {"ALL_OLD", "NONE"};
    if (item.conditionCheck() != null) {
      ConditionCheck a = item.conditionCheck();
      String p = path + ".conditionCheck";
      c.notNull(p + ".key", a.key());
      c.notNull(p + ".tableName", a.tableName()).name(p + ".tableName", a.tableName());
      c.notNull(p + ".conditionExpression", a.conditionExpression());
      c.oneOf(p + ".returnValuesOnConditionCheckFailure",
          a.returnValuesOnConditionCheckFailure(), rvoccf);
    }
    if (item.put() != null) {
      Put a = item.put();
      String p = path + ".put";
      c.notNull(p + ".item", a.item());
      c.notNull(p + ".tableName", a.tableName()).name(p + ".tableName", a.tableName());
      c.oneOf(p + ".returnValuesOnConditionCheckFailure",
          a.returnValuesOnConditionCheckFailure(), rvoccf);
    }
    if (item.delete() != null) {
      Delete a = item.delete();
      String p = path + ".delete";
      c.notNull(p + ".key", a.key());
      c.notNull(p + ".tableName", a.tableName()).name(p + ".tableName", a.tableName());
      c.oneOf(p + ".returnValuesOnConditionCheckFailure",
          a.returnValuesOnConditionCheckFailure(), rvoccf);
    }
    if (item.update() != null) {
      io.stator.api.Update a = item.update();
      String p = path + ".update";
      c.notNull(p + ".key", a.key());
      c.notNull(p + ".updateExpression", a.updateExpression());
      c.notNull(p + ".tableName", a.tableName()).name(p + ".tableName", a.tableName());
      c.oneOf(p + ".returnValuesOnConditionCheckFailure",
          a.returnValuesOnConditionCheckFailure(), rvoccf);
    }
  }

  private Action action(TransactWriteItem item) {
    if (item.conditionCheck() != null) {
      ConditionCheck a = item.conditionCheck();
      ExpressionContext context = context(
          a.conditionExpression(), null, a.expressionAttributeNames(),
          a.expressionAttributeValues());
      ConditionExpression condition = condition(a.conditionExpression(), context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(a.tableName());
      checkKey(table, a.key());
      return new Action(Kind.CONDITION_CHECK, table, table.storageKey(a.key()),
          a.key(), condition, null, null, allOld(a.returnValuesOnConditionCheckFailure()));
    }
    if (item.put() != null) {
      Put a = item.put();
      ExpressionContext context = context(
          a.conditionExpression(), null, a.expressionAttributeNames(),
          a.expressionAttributeValues());
      ConditionExpression condition = condition(a.conditionExpression(), context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(a.tableName());
      ItemKeys.checkValues(table, a.item());
      String mismatch = ItemKeys.itemMismatch(table, a.item());
      if (mismatch != null) {
        throw new KeyMismatch(mismatch);
      }
      // An empty index key fails the request; one of the wrong type cancels this Put when it is
      // staged, with a ValidationError reason, as DynamoDB answers each.
      DynamoDbException emptyIndexKey = IndexKeys.emptyKey(table, a.item(), false);
      if (emptyIndexKey != null) {
        throw emptyIndexKey;
      }
      if (ItemSize.of(a.item()) > ItemSize.MAX_ITEM_SIZE) {
        throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
      }
      return new Action(Kind.PUT, table, table.storageKey(a.item()),
          ItemKeys.project(table, a.item()), condition, null, a.item(),
          allOld(a.returnValuesOnConditionCheckFailure()));
    }
    if (item.delete() != null) {
      Delete a = item.delete();
      ExpressionContext context = context(
          a.conditionExpression(), null, a.expressionAttributeNames(),
          a.expressionAttributeValues());
      ConditionExpression condition = condition(a.conditionExpression(), context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(a.tableName());
      checkKey(table, a.key());
      return new Action(Kind.DELETE, table, table.storageKey(a.key()), a.key(),
          condition, null, null, allOld(a.returnValuesOnConditionCheckFailure()));
    }
    io.stator.api.Update a = item.update();
    ExpressionContext context = context(
        a.conditionExpression(), a.updateExpression(), a.expressionAttributeNames(),
        a.expressionAttributeValues());
    UpdateExpression update = Expressions.parseUpdate(a.updateExpression(), context);
    ConditionExpression condition = condition(a.conditionExpression(), context);
    context.checkAllUsed();
    TableDefinition table = tables.forItems(a.tableName());
    checkKey(table, a.key());
    for (Path path : update.paths()) {
      for (KeyAttribute key : table.keyAttributes()) {
        if (key.name().equals(path.attribute())) {
          throw DynamoDbException.validation(
              "One or more parameter values were invalid: Cannot update attribute "
                  + key.name() + ". This attribute is part of the key");
        }
      }
    }
    return new Action(Kind.UPDATE, table, table.storageKey(a.key()), a.key(),
        condition, update, null, allOld(a.returnValuesOnConditionCheckFailure()));
  }

  private static ExpressionContext context(
      String conditionExpression,
      String updateExpression,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    Map<String, Object> expressions =
        updateExpression == null
            ? RequestConstraints.params("ConditionExpression", conditionExpression)
            : RequestConstraints.params(
                "UpdateExpression", updateExpression, "ConditionExpression", conditionExpression);
    RequestConstraints.expressionParameters(expressions, Map.of(), names, values);
    return new ExpressionContext(names, values);
  }

  private static ConditionExpression condition(String expression, ExpressionContext context) {
    return expression == null
        ? null
        : Expressions.parseCondition(expression, context, "ConditionExpression");
  }

  private static boolean allOld(String returnValuesOnConditionCheckFailure) {
    return "ALL_OLD".equals(returnValuesOnConditionCheckFailure);
  }

  // ---- TransactGetItems ---------------------------------------------------------------------

  /** One validated Get. */
  private record Read(TableDefinition table, StorageKey key, List<Path> projection) {}

  TransactGetItemsResponse get(TransactGetItemsRequest r) {
    List<Read> reads = validate(r);
    try {
      return snapshot(reads, r.returnConsumedCapacity());
    } catch (StorageException e) {
      throw failure(reads.stream().map(Read::table).toList(), e);
    }
  }

  private TransactGetItemsResponse snapshot(List<Read> reads, String returnConsumedCapacity) {
    return OnConflict.rerun(
        SNAPSHOT_ATTEMPTS,
        () -> snapshotOnce(reads, returnConsumedCapacity),
        conflict -> readConflict(reads, conflict.failed()));
  }

  private TransactGetItemsResponse snapshotOnce(List<Read> reads, String returnConsumedCapacity) {
    List<ItemResponse> responses = new ArrayList<>(reads.size());
    long[] sizes = new long[reads.size()];
    Commit check = new Commit();
    // All keys in one call; the reads need not be one snapshot, the check below proves it.
    List<Optional<StoredRecord>> records = storage.getAll(
        reads.stream().map(read -> new KeyRead(read.table().space(), read.key())).toList(),
        Consistency.STRONG);
    for (int i = 0; i < reads.size(); i++) {
      Read read = reads.get(i);
      Optional<StoredRecord> record = records.get(i);
      check.expect(read.table().space(), read.key(),
          record.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT));
      Map<String, AttributeValue> item =
          record.map(rec -> ItemCodec.decode(rec.value())).orElse(null);
      sizes[i] = item == null ? 0 : ItemSize.of(item);
      Map<String, AttributeValue> shown =
          item == null ? null : RequestConstraints.project(item, read.projection());
      // A projection that matches nothing of the item answers no Item, as GetItem does.
      responses.add(new ItemResponse(shown == null || shown.isEmpty() ? null : shown));
    }
    storage.commit(check); // writes nothing: only proves all versions held at one instant
    return new TransactGetItemsResponse(
        Consumption.list(charge(reads, sizes), returnConsumedCapacity),
        Collections.unmodifiableList(responses));
  }

  /**
   * Charges each Get to its partition: two RCU per 4 KB of its whole item (the projection does
   * not reduce it), rounded per item; a throttle cancels the read transaction.
   */
  private List<Consumption> charge(List<Read> reads, long[] sizes) {
    Map<String, Consumption> consumed = new LinkedHashMap<>();
    for (int i = 0; i < reads.size(); i++) {
      Read read = reads.get(i);
      double units = CapacityCalculator.getItem(sizes[i], ReadConsistency.TRANSACTIONAL);
      try {
        capacity.read(read.table(), read.key().partition(), units);
      } catch (ThrottledException e) {
        throw throttled(reads.size(), i, read.table(), e);
      }
      consumed.computeIfAbsent(read.table().name(), Consumption::transactional).tableRead(units);
    }
    return new ArrayList<>(consumed.values());
  }

  /** A TransactGetItems that kept meeting changes: TransactionConflict on the changed item. */
  private static TransactionCanceledException readConflict(
      List<Read> reads, Commit.Expectation failed) {
    return conflictOn(reads, Read::table, Read::key, failed);
  }

  private List<Read> validate(TransactGetItemsRequest r) {
    List<TransactGetItem> items = r.transactItems();
    Constraints c = new Constraints();
    c.notNull("transactItems", items);
    if (items != null) {
      c.lengthAtLeast("transactItems", shown(items, "TransactGetItem"), items.size(), 1);
      c.lengthAtMost("transactItems", shown(items, "TransactGetItem"), items.size(), MAX_ACTIONS);
    }
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(), RETURN_CONSUMED_CAPACITY);
    if (items != null && items.size() <= MAX_ACTIONS) {
      for (int i = 0; i < items.size(); i++) {
        String path = "transactItems." + (i + 1) + ".member.get";
        Get get = items.get(i).get();
        c.notNull(path, get);
        if (get != null) {
          c.notNull(path + ".key", get.key());
          c.notNull(path + ".tableName", get.tableName()).name(path + ".tableName",
              get.tableName());
        }
      }
    }
    c.check();

    List<Read> reads = new ArrayList<>(items.size());
    Mismatches mismatches = new Mismatches();
    for (int i = 0; i < items.size(); i++) {
      Get get = items.get(i).get();
      RequestConstraints.expressionParameters(
          RequestConstraints.params("ProjectionExpression", get.projectionExpression()),
          Map.of(),
          get.expressionAttributeNames(),
          null);
      ExpressionContext context = new ExpressionContext(get.expressionAttributeNames(), null);
      List<Path> projection = RequestConstraints.projection(get.projectionExpression(), null, context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(get.tableName());
      try {
        checkKey(table, get.key());
      } catch (KeyMismatch e) {
        mismatches.note(i, e);
        reads.add(null);
        continue;
      }
      reads.add(new Read(table, table.storageKey(get.key()), projection));
    }
    mismatches.check(items.size());
    Set<ItemId> seen = new HashSet<>();
    for (Read read : reads) {
      if (!seen.add(new ItemId(read.table().space(), read.key()))) {
        throw DynamoDbException.validation(
            "Transaction request cannot include multiple operations on one item");
      }
    }
    return reads;
  }

  /**
   * How DynamoDB shows a list of structures in a constraint message: Java's default {@code
   * toString} of each element, e.g. {@code [com.amazonaws.dynamodb.v20120810.TransactGetItem@1f]}.
   */
  private static String shown(List<?> items, String shape) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append("com.amazonaws.dynamodb.v20120810.").append(shape).append('@')
          .append(Integer.toHexString(System.identityHashCode(items.get(i))));
    }
    return sb.append(']').toString();
  }
}
