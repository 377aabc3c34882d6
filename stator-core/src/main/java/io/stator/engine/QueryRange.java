package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.index.IndexKeys;
import io.stator.key.KeyCodec;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Bound;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The part of one partition a Query reads, of the table or of an index: the partition, the sort
 * bounds its key condition sets, then narrowed past an ExclusiveStartKey in the direction read
 * (which DynamoDB checks against the condition first).
 */
final class QueryRange {
  private final TableDefinition table;
  private final IndexDefinition index;
  private final KeyRange tableRange;
  private final IndexKeyRange indexRange;
  private final byte[] partition;
  private Bound lower;
  private Bound upper;
  /** A simple-key partition holds one item: nothing follows a start key in it. */
  private boolean exhausted;

  /** The range a key condition's terms select, checked against the key schema. */
  QueryRange(TableDefinition table, IndexDefinition index, Map<String, KeyRange.Term> terms) {
    this.table = table;
    this.index = index;
    if (index == null) {
      tableRange = KeyRange.fromTerms(terms, table.hashKey(), table.rangeKey());
      indexRange = null;
      partition = KeyCodec.partition(tableRange.partition());
      lower = tableRange.lower();
      upper = tableRange.upper();
    } else {
      tableRange = null;
      indexRange = IndexKeyRange.of(terms, index);
      partition = indexRange.partitionBytes();
      lower = indexRange.lower();
      upper = indexRange.upper();
    }
  }

  byte[] partition() {
    return partition;
  }

  /** Narrows the range to what follows {@code startKey} in the direction read. */
  void startAfter(Map<String, AttributeValue> startKey, boolean forward) {
    if (startKey == null) {
      return;
    }
    Bound after;
    if (index != null) {
      StorageKey start = IndexKeys.startKey(table, index, startKey);
      boolean samePartition = Arrays.equals(start.partition(), partition);
      if (indexRange.hasSortCondition()) {
        if (!indexRange.containsSort(start.sort())) {
          throw DynamoDbException.validation(
              "The provided starting key does not match the range key predicate");
        }
        if (!samePartition) {
          throw DynamoDbException.validation(
              "The query can return at most one row and cannot be restarted");
        }
      } else if (!samePartition) {
        throw outsideBoundaries();
      }
      after = Bound.exclusive(start.sort());
    } else {
      Map<String, AttributeValue> start = Reads.startKey(table, startKey);
      AttributeValue startHash = start.get(table.hashKey().name());
      if (table.hasRangeKey() && tableRange.sortOperator() != null) {
        if (!tableRange.matchesSort(start.get(table.rangeKey().name()))) {
          throw DynamoDbException.validation(
              "The provided starting key does not match the range key predicate");
        }
        if (!startHash.equals(tableRange.partition())) {
          throw DynamoDbException.validation(
              "The query can return at most one row and cannot be restarted");
        }
      } else if (!startHash.equals(tableRange.partition())) {
        throw outsideBoundaries();
      }
      if (!table.hasRangeKey()) {
        exhausted = true;
        return;
      }
      after = Bound.exclusive(KeyCodec.sort(start.get(table.rangeKey().name())));
    }
    if (forward) {
      lower = after;
    } else {
      upper = after;
    }
  }

  private static DynamoDbException outsideBoundaries() {
    return DynamoDbException.validation(
        "The provided starting key is outside query boundaries based on provided conditions");
  }

  /** The range's records in batches, in the direction read, each batch after the last. */
  Reads.Batches batches(Storage storage, String space, boolean forward) {
    if (exhausted) {
      return Reads.Batches.NONE;
    }
    return new Reads.Batches() {
      private boolean more = true;

      @Override
      public List<StoredRecord> next(int want) {
        List<StoredRecord> batch = storage.query(space, partition, lower, upper, forward, want);
        more = batch.size() >= want;
        if (more) {
          Bound after = Bound.exclusive(batch.get(batch.size() - 1).key().sort());
          if (forward) {
            lower = after;
          } else {
            upper = after;
          }
        }
        return batch;
      }

      @Override
      public boolean more() {
        return more;
      }
    };
  }
}
