package io.stator.engine;

import io.stator.schema.Catalog;
import io.stator.schema.TableDefinition;
import java.time.Clock;
import java.time.Duration;
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
 * computed against a copy that another engine made stale conflicts on the catalog record's fence
 * (see {@code Catalog}), and the conflict invalidates the copy ({@code Tables.conflicted}): the
 * next attempt reads the definition from the storage. Likewise a storage failure that turns out
 * to be a table deleted under the request ({@code Tables.failure}). A read (GetItem, Query,
 * Scan) checks no version, so a copy is trusted for {@link #FRESH_FOR} only: the first use after
 * that reads the catalog again. A read on this engine after another engine's DeleteTable is therefore
 * ResourceNotFoundException at most that long after the delete; until then it reads the dropped
 * space, which is empty (a table made again under the name has a space of its own, so none of
 * its items and none of the old ones show through the old copy). DynamoDB too deletes a table
 * asynchronously, answering reads of a DELETING table for a while.
 *
 * <p>Why a bound rather than a catalog check in every read: the check would be a second storage
 * read per GetItem (on Cassandra, a second Accord transaction), where the bound costs one catalog
 * read per table per second per engine, whatever the request rate.
 */
final class TableCache {
  /** How long a loaded definition serves reads before the catalog is read again. */
  static final Duration FRESH_FOR = Duration.ofSeconds(1);

  /** A definition and when it was loaded, in the clock's epoch milliseconds. */
  private record Loaded(Catalog.Entry entry, long at) {}

  private final Catalog catalog;
  private final Clock clock;
  private final ConcurrentHashMap<String, Loaded> tables = new ConcurrentHashMap<>();

  TableCache(Catalog catalog, Clock clock) {
    this.catalog = catalog;
    this.clock = clock;
  }

  Optional<TableDefinition> get(String tableName) {
    return entry(tableName).map(Catalog.Entry::table);
  }

  /**
   * The definition with its catalog record version: writes expect that version in their commit,
   * so one computed against a definition that changed meanwhile retries (see io.stator.index).
   */
  Optional<Catalog.Entry> entry(String tableName) {
    Loaded loaded = tables.get(tableName);
    if (loaded == null || stale(loaded)) {
      // compute holds the key's lock: one reload however many requests find the copy stale.
      loaded = tables.compute(tableName, (name, old) ->
          old != null && !stale(old) ? old : load(name));
    }
    return Optional.ofNullable(loaded).map(Loaded::entry);
  }

  private Loaded load(String tableName) {
    long at = clock.millis();
    return catalog.get(tableName).map(e -> new Loaded(e, at)).orElse(null);
  }

  private boolean stale(Loaded loaded) {
    // abs: a clock set back (a test's, or the system's) must not keep a copy for ever. In
    // milliseconds, as every request asks: no Instant or Duration made per request.
    return Math.abs(clock.millis() - loaded.at()) >= FRESH_FOR.toMillis();
  }

  /** Forgets a table; call after every catalog change to it (also after a failed one). */
  void invalidate(String tableName) {
    tables.remove(tableName);
  }
}
