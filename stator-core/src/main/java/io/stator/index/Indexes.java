package io.stator.index;

import io.stator.api.ItemCollectionMetrics;
import io.stator.backup.ChangeHistory;
import io.stator.item.ItemCodec;
import io.stator.lease.Leases;
import io.stator.schema.Catalog;
import io.stator.schema.IndexDefinition;
import io.stator.schema.SpaceNames;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.stream.StagedRecord;
import io.stator.stream.StreamWrites;
import io.stator.stream.UserIdentity;
import io.stator.value.AttributeValue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The secondary indexes of one engine: the hook every write path calls ({@link #stage}), the GSI
 * {@link Propagator}, and the backfill of GSIs added by UpdateTable.
 *
 * <p>Every write of an item, whatever the operation (PutItem, DeleteItem, UpdateItem, a batch or a
 * transaction), reads the item, computes the new one, and then calls {@link #stage} with both
 * before committing. Stage adds to the same commit:
 *
 * <ul>
 *   <li>an expectation on the table's catalog record (on its fence for the item's partition, see
 *       {@link Catalog}), so a write computed against a definition that has since changed (an
 *       index added or removed, the table deleted) cannot commit; the writer retries with the new
 *       definition. This is what lets a backfill know that every write committed after its index
 *       appeared in the catalog is in the change log;
 *   <li>the LSI entries to delete and put (LSIs are strongly consistent: same commit);
 *   <li>for a table with an LSI, the new size of the item's collection ({@link
 *       ItemCollections}), which refuses a write past the collection size limit;
 *   <li>when the table has a GSI: its entry writes, like an LSI's, when the write may be
 *       synchronous (GSI lag zero, every GSI of the table ACTIVE, no change of the table still
 *       waiting in the propagator; see {@link Propagator}, "Synchronous writes"); otherwise one
 *       change-log record with the old and new item, under a sequence number taken just before
 *       the commit;
 *   <li>when the table has an enabled stream and the write changes the item, its stream record
 *       (see {@link Streams});
 *   <li>when the table has point-in-time recovery enabled and the write changes the item, its
 *       change history record (see {@link ChangeHistory}).
 * </ul>
 *
 * <p>The returned {@link IndexWrite} also carries what the write costs in each index, by
 * DynamoDB's rules, for ReturnConsumedCapacity.
 */
public final class Indexes implements AutoCloseable {
  private final Storage storage;
  private final Catalog catalog;
  private final Clock clock;
  private final Sequencer sequencer;
  private final Propagator propagator;
  private final ExecutorService backfills;

  /**
   * @param gsiLag how long the propagator waits before applying a change (zero: at once)
   * @param synchronousGlobalIndexes whether writes, when {@code gsiLag} is zero, maintain GSI
   *     entries in their own commit when they may (see {@link Propagator})
   * @param onCatalogChange told the table name whenever a backfill changes a table's definition
   *     (so caches of definitions forget it)
   * @param streams records each write's stream record in the write's commit
   * @param itemCollectionSizeLimit the most bytes one item collection of a table with an LSI may
   *     hold (0: DynamoDB's 10 GB; tests pass less to reach it with little data)
   * @param leases where the lease of backfills is held ({@link #BACKFILL_LEASE})
   */
  public Indexes(
      Storage storage, Catalog catalog, Duration gsiLag, boolean synchronousGlobalIndexes,
      Clock clock, Consumer<String> onCatalogChange, StreamWrites streams,
      long itemCollectionSizeLimit, Leases leases) {
    this.synchronous = synchronousGlobalIndexes && (gsiLag == null || gsiLag.isZero());
    this.itemCollectionSizeLimit =
        itemCollectionSizeLimit > 0 ? itemCollectionSizeLimit : ItemCollections.DEFAULT_LIMIT;
    this.storage = storage;
    this.streams = streams;
    this.catalog = catalog;
    this.clock = clock;
    this.sequencer =
        new Sequencer(lastSequence() + 1, streams.writer());
    this.propagator = new Propagator(storage, catalog, sequencer, clock, gsiLag);
    this.backfills =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "stator-gsi-backfill");
              t.setDaemon(true);
              return t;
            });
    this.onCatalogChange = onCatalogChange;
    this.leases = leases;
    propagator.start();
    // Recovery: logs left by a previous run are applied, interrupted backfills start over
    // (below, on the engine that holds their lease).
    for (Catalog.Entry e : catalog.all()) {
      if (e.table().hasLocalIndexes()) {
        storage.createSpace(e.table().itemCollections()); // tables from before item collections
      }
      if (e.table().hasGlobalIndexes()) {
        propagator.recovering(e.table().name()); // its log may hold records: asynchronous
        propagator.changed(e.table().name());
      }
    }
    resumeBackfills();
    long nanos = BACKFILL_CHECK.toNanos();
    backfillWatch.scheduleWithFixedDelay(
        this::resumeBackfillsQuietly, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * The lease of backfills ({@link Leases}): of several engines on one storage, the holder runs
   * every backfill, so each is run once, and another engine takes them over (starting each over,
   * which is safe: see {@link Backfill}) once a holder that stopped has let the lease expire.
   */
  public static final String BACKFILL_LEASE = "gsi-backfill";
  /** How long the backfill lease lasts unless renewed; the holder renews it every check. */
  static final Duration BACKFILL_LEASE_TERM = Duration.ofSeconds(10);
  /** How often each engine looks for CREATING indexes to backfill, renewing the lease if held. */
  static final Duration BACKFILL_CHECK = Duration.ofSeconds(2);
  /**
   * How often the holder reads the whole catalog for CREATING indexes when not told of one
   * ({@link Leases#want}): on Cassandra that read is a scan of the catalog's 256 buckets, which
   * every 2 s was most of what an idle server cost its nodes.
   */
  static final long BACKFILL_SCAN_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Leases leases;
  /**
   * The version of the backfill lease's "wanted" record at this engine's last scan of the
   * catalog, and when that scan began; a scan is due when the version moved, a minute passed,
   * this engine (re)took the lease, or a backfill of its ended ({@code scanDue}).
   */
  private long scannedWanted = -1;
  private long scannedAt;
  private volatile boolean scanDue = true;
  /** The spaces of the indexes this engine is backfilling now. */
  private final Set<String> backfilling = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService backfillWatch =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stator-gsi-backfill-lease");
        t.setDaemon(true);
        return t;
      });

  /**
   * If this engine holds the backfill lease (taking or renewing it), starts the backfill of every
   * CREATING GSI it is not backfilling yet: those of a stopped holder, and those added by
   * UpdateTable on an engine that did not hold the lease. Returns whether it holds the lease.
   */
  public boolean resumeBackfills() {
    return resumeBackfills(false);
  }

  /**
   * As {@link #resumeBackfills()}; the holder reads the catalog only when told there is a new
   * CREATING index ({@link #backfill} on another engine), once a minute, after taking the lease,
   * after one of its backfills ended, or when {@code always}.
   */
  public synchronized boolean resumeBackfills(boolean always) {
    if (!leases.hold(BACKFILL_LEASE, BACKFILL_LEASE_TERM)) {
      scanDue = true; // when this engine takes the lease, it looks at once
      return false;
    }
    long wanted = leases.wanted(BACKFILL_LEASE);
    long now = System.nanoTime();
    if (!always && !scanDue && wanted == scannedWanted
        && now - scannedAt < BACKFILL_SCAN_NANOS) {
      return true;
    }
    scanDue = false;
    scannedWanted = wanted;
    scannedAt = now;
    for (Catalog.Entry e : catalog.all()) {
      for (IndexDefinition i : e.table().indexes()) {
        if (i.global() && !i.isActive()) {
          startBackfill(e.table().name(), i);
        }
      }
    }
    return true;
  }

  private void resumeBackfillsQuietly() {
    try {
      resumeBackfills();
    } catch (RuntimeException e) {
      if (!backfills.isShutdown()) {
        System.getLogger(Indexes.class.getName())
            .log(System.Logger.Level.WARNING, "looking for backfills failed; retried", e);
      }
    }
  }

  private final Consumer<String> onCatalogChange;
  private final StreamWrites streams;
  private final long itemCollectionSizeLimit;
  /** GSI lag zero and synchronous GSIs allowed: writes may maintain GSIs in their commit. */
  private final boolean synchronous;

  /**
   * Adds the index side of one write attempt to {@code commit}: call after reading the old item
   * and computing the new one (null for a delete) and their {@code changes}; call the result's
   * {@link IndexWrite#number} just before committing, and close it after the commit attempt.
   * With the items' encodings when the caller has them ({@code oldEncoded}: the stored value it
   * read; {@code newEncoded}: what it commits), so the change-log record need not encode them
   * again (null for either means "encode it here"), and for a write the service makes itself
   * ({@code identity}, e.g. a Time to Live deletion), which its stream record names; null for a
   * client's write.
   *
   * @param table the definition the write was computed against, with its catalog version
   * @param item the item's key in the table's space
   */
  public IndexWrite stage(
      Catalog.Entry table, StorageKey item, IndexChanges changes, byte[] oldEncoded,
      byte[] newEncoded, Commit commit, UserIdentity identity) {
    TableDefinition t = table.table();
    Map<String, AttributeValue> oldItem = changes.oldItem();
    Map<String, AttributeValue> newItem = changes.newItem();
    if (newItem != null) {
      IndexKeys.checkItem(t, newItem);
    }
    if (changes.table() != t) {
      changes = IndexChanges.of(t, oldItem, newItem); // computed against another definition
    }
    table.expectUnchanged(commit, item);
    List<IndexWrite.IndexUnits> units = new ArrayList<>();
    for (IndexChanges.Entry change : changes.entries()) {
      IndexDefinition index = change.index();
      if (!index.global()) {
        change.stage(commit, null);
      }
      double u = change.units();
      if (u > 0) {
        units.add(new IndexWrite.IndexUnits(index.name(), index.global(), u));
      }
    }
    ItemCollectionMetrics metrics =
        t.hasLocalIndexes() && (oldItem != null || newItem != null)
            ? ItemCollections.stage(storage, t, oldItem, newItem, commit, itemCollectionSizeLimit)
            : null;
    // The stream record, if the table has a stream: in this same commit (see Streams).
    StagedRecord streamRecord =
        streams.stage(t, oldItem, newItem, oldEncoded, newEncoded, identity);
    // The change's point-in-time recovery record, if the table keeps a history: same commit.
    ChangeHistory.stage(t, oldItem, newItem, clock, streams.writer(), commit);
    if (!t.hasGlobalIndexes()) {
      return new IndexWrite(this, t.name(), null, null, streamRecord, units, metrics);
    }
    if (propagator.synchronous(t.name(), synchronous && globalIndexesActive(t))) {
      for (IndexChanges.Entry change : changes.entries()) {
        if (change.index().global()) {
          change.stage(commit, newEncoded);
        }
      }
      return new IndexWrite(this, t.name(), null, null, streamRecord, units, metrics);
    }
    byte[] oldBytes =
        oldItem == null ? null : oldEncoded != null ? oldEncoded : ItemCodec.encode(oldItem);
    byte[] newBytes =
        newItem == null ? null : newEncoded != null ? newEncoded : ItemCodec.encode(newItem);
    // Asynchronous: the record is numbered just before the commit (IndexWrite.number), and
    // IndexWrite.close resolves the number and the propagator's count.
    byte[] change = ChangeRecord.encode(clock.millis(), oldBytes, newBytes);
    return new IndexWrite(this, t.name(), t.changeLog(), change, streamRecord, units, metrics);
  }

  /** False while a GSI of the table is CREATING: its backfill needs the change log. */
  private static boolean globalIndexesActive(TableDefinition table) {
    for (IndexDefinition index : table.indexes()) {
      if (index.global() && !index.isActive()) {
        return false;
      }
    }
    return true;
  }

  /** Adds a change-log record to {@code commit} under a new sequence number. */
  long numberChange(String changeLog, byte[] change, Commit commit) {
    long sequence = sequencer.take();
    commit.put(changeLog, ChangeRecord.key(sequence), change);
    return sequence;
  }

  long numberStreamRecord(StagedRecord record, Commit commit) {
    return streams.number(record, commit);
  }

  void resolved(String tableName, long sequence) {
    if (sequence >= 0) {
      sequencer.resolve(sequence);
    }
    propagator.asyncResolved(tableName);
  }

  void streamResolved(long streamSequence) {
    streams.resolve(streamSequence);
  }

  /**
   * Starts filling a GSI that UpdateTable added (status CREATING) from the table's items, if this
   * engine holds the backfill lease; otherwise the holder finds the index at its next check.
   */
  public void backfill(String tableName, IndexDefinition index) {
    boolean held;
    try {
      held = leases.hold(BACKFILL_LEASE, BACKFILL_LEASE_TERM);
    } catch (RuntimeException e) {
      return; // UpdateTable has committed: the holder's scan within a minute starts it
    }
    if (held) {
      startBackfill(tableName, index);
    } else {
      try {
        leases.want(BACKFILL_LEASE); // the holder looks at its next check, not within a minute
      } catch (RuntimeException e) {
        // the holder's scan each minute finds the index
      }
    }
  }

  private void startBackfill(String tableName, IndexDefinition index) {
    if (!backfilling.add(index.space())) {
      return; // already running here
    }
    propagator.backfillStarted();
    try {
      backfills.execute(
          () -> {
            try {
              new Backfill(storage, catalog, tableName, index.name(), index.space()).run();
              onCatalogChange.accept(tableName);
            } catch (RuntimeException e) {
              if (!backfills.isShutdown()) {
                System.getLogger(Indexes.class.getName())
                    .log(System.Logger.Level.ERROR, "backfill of " + index.name() + " failed", e);
              }
            } finally {
              backfilling.remove(index.space());
              propagator.backfillFinished();
              scanDue = true; // failed or cut short, it starts again at the next check
            }
          });
    } catch (RejectedExecutionException e) {
      backfilling.remove(index.space()); // closing
      propagator.backfillFinished();
    }
  }

  /** The number of entries and their bytes in an index (0 if its space is gone). */
  public SpaceStats stats(IndexDefinition index) {
    try {
      return storage.stats(index.space());
    } catch (StorageException e) {
      return new SpaceStats(0, 0);
    }
  }

  /**
   * Has the propagator apply what engines that stopped left in the tables' change logs, whoever
   * numbered it ({@link Propagator#sweep}): a chore of the housekeeping's lease holder.
   */
  public void sweepChangeLogs() {
    for (Catalog.Entry e : catalog.all()) {
      if (e.table().hasGlobalIndexes()) {
        propagator.sweep(e.table().name());
      }
    }
  }

  /**
   * Waits until every GSI has caught up with every committed write and every backfill has
   * finished (for tests, and for tools that need a quiet point); false on timeout.
   */
  public boolean awaitIndexes(Duration timeout) throws InterruptedException {
    return propagator.awaitIdle(timeout);
  }

  @Override
  public void close() {
    backfillWatch.shutdownNow();
    backfills.shutdownNow();
    propagator.close();
    try {
      backfills.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      leases.release(BACKFILL_LEASE); // another engine takes the backfills at its next check
    } catch (RuntimeException e) {
      // the storage is failing: the lease expires at the end of its term instead
    }
  }

  /**
   * The records waiting in the table's change log (applied records are deleted), counted up to
   * {@link IndexPropagation#COUNTED_UP_TO}; zero for a table that never had one.
   */
  public long backlog(TableDefinition table) {
    String space = table.changeLog();
    if (!storage.spaces().contains(space)) {
      return 0;
    }
    long count = 0;
    StorageKey after = null;
    while (count < IndexPropagation.COUNTED_UP_TO) {
      var batch = storage.scan(space, null, null, after, 1024);
      count += batch.size();
      if (batch.size() < 1024) {
        break;
      }
      after = batch.get(batch.size() - 1).key();
    }
    return Math.min(count, IndexPropagation.COUNTED_UP_TO);
  }

  /** The largest sequence number in any change log (records are deleted once applied). */
  private long lastSequence() {
    long last = 0;
    for (String space : storage.spaces()) {
      if (!SpaceNames.isChangeLog(space)) {
        continue;
      }
      StorageKey after = null;
      while (true) {
        var batch = storage.scan(space, null, null, after, 1024);
        for (StoredRecord r : batch) {
          last = Math.max(last, ChangeRecord.sequence(r.key()));
        }
        if (batch.size() < 1024) {
          break;
        }
        after = batch.get(batch.size() - 1).key();
      }
    }
    return last;
  }
}
