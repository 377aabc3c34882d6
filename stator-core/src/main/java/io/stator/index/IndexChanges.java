package io.stator.index;

import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.GlobalIndexWrite;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How one write attempt moves an item from old to new (either null) in each secondary index of
 * its table: the entry key and projected entry before and after, and the entries' sizes. A write
 * needs them three times (the charges to the GSIs' own partitions, the units reported per index,
 * and the entry deletes and puts of its commit), so they are computed once per attempt, by {@link
 * #of}, and passed to {@link Indexes#stage}.
 */
public final class IndexChanges {
  private final TableDefinition table;
  private final Map<String, AttributeValue> oldItem;
  private final Map<String, AttributeValue> newItem;
  private final List<Entry> entries;

  private IndexChanges(
      TableDefinition table, Map<String, AttributeValue> oldItem,
      Map<String, AttributeValue> newItem, List<Entry> entries) {
    this.table = table;
    this.oldItem = oldItem;
    this.newItem = newItem;
    this.entries = entries;
  }

  /** The changes of moving an item of {@code table} from old to new in its indexes. */
  public static IndexChanges of(
      TableDefinition table, Map<String, AttributeValue> oldItem,
      Map<String, AttributeValue> newItem) {
    List<Entry> entries = new ArrayList<>(table.indexes().size());
    for (IndexDefinition index : table.indexes()) {
      entries.add(Entry.of(table, index, oldItem, newItem));
    }
    return new IndexChanges(table, oldItem, newItem, entries);
  }

  TableDefinition table() {
    return table;
  }

  Map<String, AttributeValue> oldItem() {
    return oldItem;
  }

  Map<String, AttributeValue> newItem() {
    return newItem;
  }

  List<Entry> entries() {
    return entries;
  }

  /**
   * The writes the move causes in the table's global secondary indexes, each under the index key
   * it lands on, for the capacity model to charge to the index's own partitions: a put under the
   * new index key, a delete under the old one, or one write of the larger entry when only its
   * projected attributes change. The units are {@link IndexWrite}'s (doubled in a transaction); an
   * item in neither version costs nothing.
   */
  public List<GlobalIndexWrite> globalWrites(boolean transactional) {
    if (!table.hasGlobalIndexes()) {
      return List.of();
    }
    double factor = transactional ? 2 : 1;
    List<GlobalIndexWrite> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e.index().global()) {
        e.addGlobalWrites(factor, out);
      }
    }
    return out;
  }

  /** One index's part of the move. */
  record Entry(
      IndexDefinition index, StorageKey oldKey, Map<String, AttributeValue> oldEntry,
      long oldSize, StorageKey newKey, Map<String, AttributeValue> newEntry, long newSize) {

    static Entry of(
        TableDefinition table, IndexDefinition index, Map<String, AttributeValue> oldItem,
        Map<String, AttributeValue> newItem) {
      StorageKey oldKey = IndexKeys.entryKey(table, index, oldItem);
      StorageKey newKey = IndexKeys.entryKey(table, index, newItem);
      Map<String, AttributeValue> oldEntry =
          oldKey == null ? null : IndexKeys.project(table, index, oldItem);
      Map<String, AttributeValue> newEntry =
          newKey == null ? null : IndexKeys.project(table, index, newItem);
      return new Entry(
          index, oldKey, oldEntry, oldEntry == null ? 0 : ItemSize.of(oldEntry),
          newKey, newEntry, newEntry == null ? 0 : ItemSize.of(newEntry));
    }

    /** The write units the index is charged (see {@link IndexWrite#units}). */
    double units() {
      return IndexWrite.units(
          oldKey, oldSize, newKey, newSize, oldEntry == null || !oldEntry.equals(newEntry));
    }

    private void addGlobalWrites(double factor, List<GlobalIndexWrite> out) {
      if (oldKey != null && oldKey.equals(newKey)) {
        if (!oldEntry.equals(newEntry)) {
          out.add(new GlobalIndexWrite(index.name(), newKey.partition(),
              factor * CapacityCalculator.write(oldSize, newSize, false), newSize - oldSize));
        }
        return;
      }
      if (oldKey != null) {
        out.add(new GlobalIndexWrite(index.name(), oldKey.partition(),
            factor * CapacityCalculator.write(oldSize, 0, false), -oldSize));
      }
      if (newKey != null) {
        out.add(new GlobalIndexWrite(index.name(), newKey.partition(),
            factor * CapacityCalculator.write(0, newSize, false), newSize));
      }
    }

    /**
     * Adds the entry's delete and put to {@code commit}; {@code newEncoded}, when given, is the
     * new item's encoding, which an index projecting ALL keeps as it is.
     */
    void stage(Commit commit, byte[] newEncoded) {
      if (oldKey != null && !oldKey.equals(newKey)) {
        commit.delete(index.space(), oldKey);
      }
      if (newKey != null) {
        commit.put(index.space(), newKey,
            newEncoded != null && IndexDefinition.ALL.equals(index.projectionType())
                ? newEncoded
                : ItemCodec.encode(newEntry));
      }
    }
  }
}
