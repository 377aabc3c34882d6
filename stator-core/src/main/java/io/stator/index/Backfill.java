package io.stator.index;

import io.stator.item.ItemCodec;
import io.stator.schema.Catalog;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.OnConflict;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Fills a GSI that UpdateTable added to a table with items, without blocking writes.
 *
 * <h2>The race, and why this order wins it</h2>
 *
 * UpdateTable first commits the new definition with the index CREATING. From that commit on, every
 * write of the table has the index in its definition (writes expect the catalog record's version,
 * see {@link Indexes#stage}), and none is synchronous while an index is CREATING: it logs its
 * change and the {@link Propagator} applies it to the new index like to any other GSI. What
 * remains is the items whose last write committed before: this backfill scans the table in key
 * order, in chunks, and puts their entries.
 *
 * <p>The danger is a chunk read before a write and committed after it: the item's old state
 * would overwrite (or sit next to) the entry the propagator put for the new state. So each chunk
 * commit expects the version of every item it read: if any item changed since the read, the
 * commit fails and the chunk is read again. A chunk that commits therefore wrote exactly the items'
 * states at its commit, and any later change of them is in the log with that state as its old
 * image, so the propagator later deletes the entry the backfill wrote and puts the new one. An
 * entry the propagator wrote before the chunk committed is for the same (current) state, and the
 * chunk's put is identical. With the propagator's read-repair this holds in any order: whichever
 * of the chunk and a record's repair commits last wrote the item's state at its commit, and the
 * repair deletes the keys its record's images name. Once the index is ACTIVE and the log has
 * drained, writes become synchronous again and each deletes the entry of the state it read,
 * which is the one the backfill or the propagator left. No snapshot is needed, and writers never
 * wait for the backfill; only the backfill retries a chunk under heavy write traffic on it.
 *
 * <p>When the scan reaches the end, the index becomes ACTIVE (Backfilling false). If the index is
 * deleted meanwhile (or the table), the backfill stops: each chunk commit also expects the
 * catalog record, so nothing is written to a dropped index.
 */
final class Backfill {
  private static final int CHUNK = 128;

  private final Storage storage;
  private final Catalog catalog;
  private final String tableName;
  private final String indexName;
  private final String indexSpace;

  Backfill(
      Storage storage, Catalog catalog, String tableName, String indexName, String indexSpace) {
    this.storage = storage;
    this.catalog = catalog;
    this.tableName = tableName;
    this.indexName = indexName;
    this.indexSpace = indexSpace;
  }

  void run() {
    StorageKey after = null;
    while (!Thread.currentThread().isInterrupted()) {
      StorageKey from = after;
      // A conflict: an item (or the definition) changed since the read; the chunk is read again.
      List<StoredRecord> chunk = OnConflict.rerun(() -> fill(from));
      if (chunk == null) {
        return;
      }
      if (chunk.size() < CHUNK) {
        break;
      }
      after = chunk.get(chunk.size() - 1).key();
    }
    activate();
  }

  /**
   * Reads the chunk after {@code after} and commits its entries, expecting the version of every
   * item read and of the definition; returns the chunk, or null when the index is no longer
   * being created (or the backfill was stopped).
   */
  private List<StoredRecord> fill(StorageKey after) {
    Optional<Catalog.Entry> entry = current();
    if (entry.isEmpty() || Thread.currentThread().isInterrupted()) {
      return null;
    }
    TableDefinition table = entry.get().table();
    IndexDefinition index = table.index(indexName);
    List<StoredRecord> chunk = storage.scan(table.space(), null, null, after, CHUNK);
    Commit commit = entry.get().expectUnchanged(new Commit());
    for (StoredRecord r : chunk) {
      commit.expect(table.space(), r.key(), r.version());
      var item = ItemCodec.decode(r.value());
      StorageKey key = IndexKeys.entryKey(table, index, item);
      if (key != null) {
        commit.put(index.space(), key, ItemCodec.encode(IndexKeys.project(table, index, item)));
      }
    }
    storage.commit(commit);
    return chunk;
  }

  /** The table's entry while it still has this incarnation of the index CREATING. */
  private Optional<Catalog.Entry> current() {
    Optional<Catalog.Entry> entry = catalog.get(tableName);
    if (entry.isEmpty()) {
      return entry;
    }
    IndexDefinition index = entry.get().table().index(indexName);
    if (index == null || !index.space().equals(indexSpace) || index.isActive()) {
      return Optional.empty();
    }
    return entry;
  }

  private void activate() {
    // A conflict: another change of the table; ours is applied to it.
    OnConflict.rerun(() -> {
      Optional<Catalog.Entry> entry = current();
      if (entry.isEmpty() || Thread.currentThread().isInterrupted()) {
        return null;
      }
      TableDefinition table = entry.get().table();
      List<IndexDefinition> indexes = new ArrayList<>(table.indexes());
      IndexDefinition index = table.index(indexName);
      indexes.set(indexes.indexOf(index), index.withStatus(IndexDefinition.ACTIVE));
      catalog.replace(table.withIndexes(indexes, table.attributeDefinitions()),
          entry.get().version());
      return null;
    });
  }
}
