package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.storage.StorageKey;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The items of the TransactWriteItems running in this engine, so that a PutItem, UpdateItem or
 * DeleteItem on one of them fails with TransactionConflictException, as on DynamoDB, instead of
 * landing before or after the transaction.
 *
 * <p>This is a courtesy to match DynamoDB's observable behaviour, not what makes transactions
 * serializable: the version expectations of every commit do that (see {@link Transactions}).
 * A single-item write that checks just before a transaction registers still serializes through
 * the storage commit. The marks live in memory only, so a crash leaves nothing to clean up;
 * another engine on the same storage does not see them and its writes simply retry.
 */
final class OngoingTransactions {
  private static final String MESSAGE = "Transaction is ongoing for the item";

  /** An item by table space and key. */
  record ItemId(String space, StorageKey key) {}

  /** How many running transactions hold each item (two may overlap; one will be cancelled). */
  private final ConcurrentHashMap<ItemId, Integer> items = new ConcurrentHashMap<>();

  /** Marks the items of a transaction that is about to read them. */
  void begin(Collection<ItemId> ids) {
    for (ItemId id : ids) {
      items.merge(id, 1, Integer::sum);
    }
  }

  /** Unmarks them once the transaction has committed or been cancelled. */
  void end(Collection<ItemId> ids) {
    for (ItemId id : ids) {
      items.computeIfPresent(id, (k, n) -> n == 1 ? null : n - 1);
    }
  }

  /** Throws DynamoDB's TransactionConflictException when a transaction holds the item. */
  void checkNotOngoing(String space, StorageKey key) {
    if (!items.isEmpty() && items.containsKey(new ItemId(space, key))) {
      throw new DynamoDbException(ErrorType.TransactionConflictException, MESSAGE);
    }
  }
}
