package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.api.Get;
import io.stator.api.ItemResponse;
import io.stator.api.ThrottledException;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactGetItemsResponse;
import io.stator.api.TransactionCanceledException;
import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.CapacityModel;
import io.stator.capacity.Consumption;
import io.stator.capacity.ReadConsistency;
import io.stator.engine.OngoingTransactions.ItemId;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Path;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * TransactGetItems: every item read, then an empty {@link Commit} that only expects the versions
 * read, so the answer is the items as they all were at the commit's instant (see {@link
 * Transactions} for why that holds); on a change the reads run again, a few times, and then the
 * transaction is cancelled with {@code TransactionConflict}, as DynamoDB does.
 */
final class TransactGets {
  /** How often a TransactGetItems re-reads when items change under it before it gives up. */
  private static final int SNAPSHOT_ATTEMPTS = 8;

  private final Storage storage;
  private final Tables tables;
  private final CapacityModel capacity;

  TransactGets(Storage storage, Tables tables, CapacityModel capacity) {
    this.storage = storage;
    this.tables = tables;
    this.capacity = capacity;
  }

  /** One validated Get. */
  private record Read(TableDefinition table, StorageKey key, List<Path> projection) {}

  TransactGetItemsResponse get(TransactGetItemsRequest r) {
    List<Read> reads = validate(r);
    try {
      return snapshot(reads, r.returnConsumedCapacity());
    } catch (StorageException e) {
      throw tables.failure(reads.stream().map(Read::table).toList(), e);
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
        throw Cancellations.throttled(reads.size(), i, read.table(), e);
      }
      consumed.computeIfAbsent(read.table().name(), Consumption::transactional).tableRead(units);
    }
    return new ArrayList<>(consumed.values());
  }

  /** A TransactGetItems that kept meeting changes: TransactionConflict on the changed item. */
  private static TransactionCanceledException readConflict(
      List<Read> reads, Commit.Expectation failed) {
    return Cancellations.conflictOn(reads, Read::table, Read::key, failed);
  }

  private List<Read> validate(TransactGetItemsRequest r) {
    List<TransactGetItem> items = r.transactItems();
    Constraints c = new Constraints();
    c.notNull("transactItems", items);
    if (items != null) {
      String shown = Cancellations.shown(items, "TransactGetItem");
      c.lengthAtLeast("transactItems", shown, items.size(), 1);
      c.lengthAtMost("transactItems", shown, items.size(), Transactions.MAX_ACTIONS);
    }
    c.oneOf("returnConsumedCapacity", r.returnConsumedCapacity(),
        Transactions.RETURN_CONSUMED_CAPACITY);
    if (items != null && items.size() <= Transactions.MAX_ACTIONS) {
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
    Cancellations.Mismatches mismatches = new Cancellations.Mismatches();
    for (int i = 0; i < items.size(); i++) {
      Get get = items.get(i).get();
      RequestConstraints.expressionParameters(
          RequestConstraints.params("ProjectionExpression", get.projectionExpression()),
          Map.of(),
          get.expressionAttributeNames(),
          null);
      ExpressionContext context = new ExpressionContext(get.expressionAttributeNames(), null);
      List<Path> projection =
          RequestConstraints.projection(get.projectionExpression(), null, context);
      context.checkAllUsed();
      TableDefinition table = tables.forItems(get.tableName());
      try {
        Cancellations.checkKey(table, get.key());
      } catch (Cancellations.KeyMismatch e) {
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
}
