package io.stator.index;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ItemCollectionMetrics;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.key.KeyCodec;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Item collections of tables with local secondary indexes: the items that share one partition
 * key value, with their LSI entries. DynamoDB limits each to 10 GB (a write that would grow one
 * beyond fails with ItemCollectionSizeLimitExceededException) and reports its size to writes that
 * ask with {@code ReturnItemCollectionMetrics=SIZE}. Neither applies to tables without an LSI.
 *
 * <p>The size of a collection is kept, not computed: one counter record per partition key value
 * in the table's {@link TableDefinition#itemCollections} space, updated in the same commit as the
 * item and guarded by the version read, so it is exact however writes interleave (two writes to
 * one collection serialize on the counter, as they would on an LSI partition). Summing the
 * collection on every write would cost a read of up to 10 GB; an estimate from storage statistics
 * could not enforce the limit. Several writes to one collection in one commit (a transaction)
 * add up: the second finds the first's counter in the commit and replaces it.
 *
 * <p>An item counts its size ({@link ItemSize}) plus 100 bytes, and each of its LSI entries the
 * size of the projected item plus 100 bytes: DynamoDB documents 100 bytes of overhead per item
 * and per index entry in its storage accounting.
 */
final class ItemCollections {
  /** DynamoDB's limit on one item collection: 10 GB. */
  static final long DEFAULT_LIMIT = 10L * 1024 * 1024 * 1024;

  /** The storage overhead DynamoDB counts per item and per index entry. */
  static final long OVERHEAD = 100;

  private static final long GB = 1024L * 1024 * 1024;
  private static final String BYTES = "bytes";

  private ItemCollections() {}

  /**
   * Adds the collection counter of the written item to {@code commit} and returns the
   * collection's metrics after the write; refuses a write that grows the collection past {@code
   * limit}.
   */
  static ItemCollectionMetrics stage(
      Storage storage, TableDefinition table, Map<String, AttributeValue> oldItem,
      Map<String, AttributeValue> newItem, Commit commit, long limit) {
    Map<String, AttributeValue> any = newItem != null ? newItem : oldItem;
    AttributeValue partition = any.get(table.hashKey().name());
    String space = table.itemCollections();
    StorageKey key = StorageKey.of(KeyCodec.partition(partition));
    long before = pending(commit, space, key).orElseGet(() -> stored(storage, commit, space, key));
    long delta = size(table, newItem) - size(table, oldItem);
    long after = before + delta;
    if (delta > 0 && after > limit) {
      throw new DynamoDbException(
          ErrorType.ItemCollectionSizeLimitExceededException,
          "Item collection size limit exceeded. The total size of an item collection has"
              + " exceeded the maximum limit of "
              + (limit == DEFAULT_LIMIT ? "10 gigabytes" : limit + " bytes"));
    }
    commit.writes().removeIf(w -> w.space().equals(space) && w.key().equals(key));
    if (after <= 0) {
      commit.delete(space, key);
    } else {
      commit.put(space, key, ItemCodec.encode(Map.of(BYTES, AttributeValue.n(Long.toString(after)))));
    }
    double lower = Math.floor((double) Math.max(after, 0) / GB);
    return new ItemCollectionMetrics(
        Map.of(table.hashKey().name(), partition), List.of(lower, lower + 1));
  }

  /** The size an item and its LSI entries add to its collection (0 for no item). */
  static long size(TableDefinition table, Map<String, AttributeValue> item) {
    if (item == null) {
      return 0;
    }
    long size = ItemSize.of(item) + OVERHEAD;
    for (IndexDefinition index : table.indexes()) {
      if (!index.global() && IndexKeys.entryKey(table, index, item) != null) {
        size += ItemSize.of(IndexKeys.project(table, index, item)) + OVERHEAD;
      }
    }
    return size;
  }

  /** The counter an earlier write of the same commit left, if any. */
  private static Optional<Long> pending(Commit commit, String space, StorageKey key) {
    List<Commit.Write> writes = commit.writes();
    for (int i = writes.size() - 1; i >= 0; i--) {
      Commit.Write w = writes.get(i);
      if (w.space().equals(space) && w.key().equals(key)) {
        return Optional.of(w.isDelete() ? 0L : decode(w.value()));
      }
    }
    return Optional.empty();
  }

  /** The stored counter, with an expectation on its version added to {@code commit}. */
  private static long stored(Storage storage, Commit commit, String space, StorageKey key) {
    Optional<StoredRecord> record = storage.get(space, key);
    commit.expect(space, key, record.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT));
    return record.map(r -> decode(r.value())).orElse(0L);
  }

  private static long decode(byte[] value) {
    return ((AttributeValue.N) ItemCodec.decode(value).get(BYTES)).decimal().longValueExact();
  }
}
