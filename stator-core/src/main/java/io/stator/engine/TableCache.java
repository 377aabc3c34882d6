package io.stator.engine;

import io.stator.schema.Catalog;
import io.stator.schema.TableDefinition;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The table definitions item operations use, kept in memory so that a PutItem or Query does not
 * read and decode its table's catalog record on every request.
 *
 * <p>The catalog in the storage stays the truth: the cache starts empty, loads a definition the
 * first time a table is used, and forgets it whenever this engine changes that table (create,
 * update, delete). Absent tables are not cached, so a mistyped name costs a catalog read but
 * cannot fill the memory.
 *
 * <p>Why no stale definition can stay: a load runs inside {@link
 * ConcurrentHashMap#computeIfAbsent}, which holds the key's lock from the catalog read until the
 * value is stored, and a change calls {@link #invalidate} (which takes the same lock) after its
 * catalog commit. So a load that read the old record before the commit is removed by the
 * invalidation, and a load that starts after the invalidation reads the new record. A write that
 * already holds the old definition may still finish against it, exactly as if it had been served
 * just before the change; DeleteTable drops the table's space, so such a write cannot resurrect
 * items into a later table of the same name (which has its own space).
 *
 * <p>Another engine on the same storage (another server of a shared store) changes the catalog
 * without invalidating this cache. Every write expects its table's catalog version, so a write
 * computed against a copy that another engine made stale conflicts on the catalog record, and the
 * conflict invalidates the copy ({@code Tables.conflicted}): the next attempt reads the
 * definition from the storage. Likewise a storage failure that turns out to be a table deleted
 * under the request ({@code Tables.failure}). A read (GetItem, Query) checks no version: until a
 * write or a failure of its table, it may still be served by the old definition.
 */
final class TableCache {
  private final Catalog catalog;
  private final ConcurrentHashMap<String, Catalog.Entry> tables = new ConcurrentHashMap<>();

  TableCache(Catalog catalog) {
    this.catalog = catalog;
  }

  Optional<TableDefinition> get(String tableName) {
    return entry(tableName).map(Catalog.Entry::table);
  }

  /**
   * The definition with its catalog record version: writes expect that version in their commit,
   * so one computed against a definition that changed meanwhile retries (see io.stator.index).
   */
  Optional<Catalog.Entry> entry(String tableName) {
    Catalog.Entry entry = tables.get(tableName);
    if (entry == null) {
      entry = tables.computeIfAbsent(tableName, name -> catalog.get(name).orElse(null));
    }
    return Optional.ofNullable(entry);
  }

  /** Forgets a table; call after every catalog change to it (also after a failed one). */
  void invalidate(String tableName) {
    tables.remove(tableName);
  }
}
