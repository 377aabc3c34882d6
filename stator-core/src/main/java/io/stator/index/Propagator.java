package io.stator.index;

import io.stator.item.ItemCodec;
import io.stator.schema.Catalog;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.OnConflict;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps global secondary indexes up to date: at once, in the write's own commit, when it may;
 * otherwise eventually, through the table's change log, as DynamoDB's are.
 *
 * <h2>What it guarantees</h2>
 *
 * Every committed write of an item reaches every GSI of its table, either in its own commit or
 * shortly after it (milliseconds, or the configured lag). A GSI entry always shows a state the
 * item really had, and once writes stop and this thread has drained, each GSI equals the
 * projection of the table exactly. An item is never in an index twice, except after the rare
 * race described under "Synchronous writes", until this thread applies the record involved.
 * Across different items there is no order, as in DynamoDB: a reader may see one item's newer
 * state and another's older one.
 *
 * <h2>Synchronous writes</h2>
 *
 * With the GSI lag zero (the default), a write maintains the GSI entries in its own commit, as
 * it does LSI entries: it deletes the entry of the item it read and puts the new one, and its
 * expectation on the item's version orders it with every other write of the item. It does so
 * only while no GSI of the table is CREATING (a backfill needs the change log, see {@link
 * Backfill}) and while the table has no change record that may still wait here (a backlog this
 * thread keeps per table: set by every asynchronous write when it stages, cleared only when a
 * scan of the log, made after every asynchronous write of the table had finished, found it
 * empty). A write that could be synchronous but finds a backlog waits a little (50 ms at most)
 * for it to drain rather than add to it: under a steady stream of writes it would otherwise
 * never empty. The commit carries an expectation on the table's catalog record, so a write
 * prepared against a definition that has since changed fails and is prepared again. A backlog
 * seen when there is none only makes a write asynchronous; one missed (a write decided
 * "synchronous" an instant before a write with a stale definition made the table asynchronous)
 * can leave an older entry next to the synchronous write's until read-repair, below, removes it.
 *
 * <h2>The change log</h2>
 *
 * Otherwise (lag above zero, a GSI CREATING, a backlog), a write appends a {@link ChangeRecord}
 * (old item, new item) to the table's change log, in the same commit as the item: the record
 * exists if and only if the write happened. Its key is a sequence number the engine takes after
 * reading the item for that attempt ({@link Sequencer}); per item, sequence order is commit
 * order. Across items it is not, and a number is taken before its commit: record 9 may become
 * visible after record 10. This thread only reads the log below the sequencer's watermark, the
 * smallest number still in flight (read before the log is scanned): below it the log is final,
 * so each scan may start after the last record applied, and a record is never skipped.
 *
 * <p>A record is applied by <em>read-repair</em>: this thread reads the item's current state
 * from the table, deletes the entries at the keys the record's old and new images had that
 * differ from the current state's, and puts the current state's projected entry (none if the
 * item is gone or not in the index), in every GSI of the table's current definition; then the
 * record is deleted. All of that is one commit, expecting the version it read of every item and
 * the table's catalog record: if an item changed meanwhile, or an index was added or removed,
 * the batch is recomputed (smaller, so that a hot item cannot starve it), and no entry is ever
 * written into a dropped index.
 *
 * <p>Why that converges whatever the interleaving: an entry of an item at a key other than its
 * current state's is always one of the image keys of a record still in the log (a synchronous
 * write deletes the entry of the state it replaces; an asynchronous one leaves it, but its
 * record names it), and the entry at the current state's key is right unless a record is still
 * in the log. Every step keeps both, and applying a record makes the item's entries exact. So
 * neither the order in which records are applied nor synchronous writes between them matter,
 * every entry written is a state the item had, and applying a record twice (after a crash
 * between commits) is harmless. One refinement keeps an item from showing twice meanwhile: when
 * the read finds a state newer than the batch's last record of the item (a later write's record
 * is still to come), the entry put for it is remembered, and the item's next repair deletes it
 * too; any entry of the item at a key other than the current state's is stale, so deleting it is
 * always safe.
 *
 * <h2>Why not the obvious alternatives</h2>
 *
 * Applying records in order without reading the item (as this thread once did) is correct only
 * when every write goes through the log: a synchronous write between a record and its
 * application would be undone by the record's new image. A per-item lock would serialise
 * writers; the version expectation already does. Maintaining GSIs synchronously costs this
 * single-node engine only a few more keys in a commit it makes anyway, and saves the change
 * record (both images), its later delete and this thread's work. A distributed storage, where
 * each GSI entry may live on another node and a write would touch up to 20 more partitions in one
 * transaction, would choose the other way with {@link io.stator.engine.EngineOptions}'s {@code
 * synchronousGlobalIndexes} off: every write then goes through the log, as DynamoDB's GSIs do.
 * Applications must cope with GSI lag anyway; {@code --gsi-lag} lets them test that, and makes
 * every write asynchronous.
 *
 * <h2>Backfill</h2>
 *
 * See {@link Backfill}: when UpdateTable adds a GSI, writes become asynchronous and this thread
 * applies them to the new index at once (it is in the definition, CREATING) while the backfill
 * copies the items that existed before.
 *
 * <h2>Threads</h2>
 *
 * One thread per engine. Asynchronous writers mark their table pending and wake it; it drains
 * pending tables in batches, and retries a table later when its oldest record is held back by the
 * watermark or by the lag.
 */
final class Propagator {
  private static final int BATCH = 256;
  /**
   * After a round that applied changes, how long the thread lets changes gather before the next
   * round. Under a stream of writes each round then applies many records in one commit instead
   * of one commit (and one wake-up, one catalog read, one log scan) per write; a write after a
   * quiet spell is still applied at once. Two milliseconds is far below the lag DynamoDB's own
   * GSIs show.
   */
  private static final long LINGER_NANOS = 2_000_000;
  /**
   * How long a write that could be synchronous waits for its table's backlog to drain (see
   * {@link #synchronous}); it happens once after a backfill or a restart, not per write.
   */
  private static final long BACKLOG_WAIT_NANOS = 50_000_000;
  /**
   * How old a change record must be for a sweep ({@link #sweep}) to apply it whichever engine
   * numbered it: long past the moment the engine that wrote it applies it, unless that engine
   * stopped first.
   */
  static final long LEFTOVER_MILLIS = 60_000;
  /**
   * Asynchronous writes this thread has staged and not yet resolved: a transaction whose first
   * item went through the log must not wait for a backlog its own write keeps alive.
   */
  private static final ThreadLocal<int[]> ASYNC_ON_THIS_THREAD =
      ThreadLocal.withInitial(() -> new int[1]);

  private final Storage storage;
  private final Catalog catalog;
  private final Sequencer sequencer;
  private final Clock clock;
  private final long lagMillis;
  private final Thread thread;

  private final Object lock = new Object();
  private final Set<String> pending = new LinkedHashSet<>();
  /**
   * Per table, the change log and the key of the last record this thread applied and deleted.
   * Only this thread touches it. The next scan starts after that key: below it the log is final
   * (every applied number was under the watermark, and a number taken later is above it), and
   * what lies there are the tombstones of applied records. On RocksDB a scan from the start of a
   * queue-like space steps over every tombstone not yet compacted away, which made each drain,
   * and so each PutItem on a table with GSIs, cost more the longer the server ran.
   */
  private final Map<String, Cursor> cursors = new HashMap<>();
  /**
   * Per change log, the entries this thread put for an item's state newer than the last record
   * it applied for the item (the read found a later write, whose record comes later): the next
   * repair of the item deletes them along with the images' keys. Without it, a repair that
   * finds a still newer state would leave that entry next to the new one (the item twice in
   * the index) until the later record is applied. Only this thread touches it; lost on a
   * restart, which only lets such an entry wait for its own record.
   */
  private final Map<String, Map<StorageKey, List<Target>>> ahead = new HashMap<>();
  /**
   * The tables whose change log may hold records not yet applied (see "Synchronous writes"). A
   * write reads it without a lock; changes happen under the map's monitor.
   */
  private final Map<String, Backlog> backlogs = new ConcurrentHashMap<>();
  /** Tables whose whole change log this thread sweeps for leftovers ({@link #sweep}). */
  private final Set<String> sweeps = ConcurrentHashMap.newKeySet();
  private boolean signalled;
  private boolean busy;
  private boolean closed;
  private int backfills;

  Propagator(Storage storage, Catalog catalog, Sequencer sequencer, Clock clock, Duration lag) {
    this.storage = storage;
    this.catalog = catalog;
    this.sequencer = sequencer;
    this.clock = clock;
    this.lagMillis = lag == null ? 0 : lag.toMillis();
    this.thread = new Thread(this::run, "stator-gsi-propagator");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /**
   * A write to {@code tableName} finished (committed or not). Wakes the thread only when the
   * table was not already pending: while it lingers, writes to the same table just join the
   * next round.
   */
  void changed(String tableName) {
    synchronized (lock) {
      if (pending.add(tableName) || !signalled) {
        signalled = true;
        lock.notifyAll();
      }
    }
  }

  /**
   * Decides one write of the table: true when it maintains the GSIs in its own commit, false
   * when it goes through the change log (then {@link #asyncResolved} must follow its commit
   * attempt). {@code eligible}: the lag is zero and no GSI of the table is CREATING. Deciding
   * and registering an asynchronous write happen under one lock, so a write that saw a backlog
   * an instant before this thread cleared it does not bring it back (it is synchronous then).
   */
  boolean synchronous(String tableName, boolean eligible) {
    if (eligible && !backlogs.containsKey(tableName)) {
      return true;
    }
    synchronized (backlogs) {
      Backlog b = backlogs.get(tableName);
      if (eligible && b != null && ASYNC_ON_THIS_THREAD.get()[0] <= 0) {
        b = awaitBacklogCleared(tableName);
      }
      if (b == null) {
        if (eligible) {
          return true;
        }
        b = new Backlog();
        backlogs.put(tableName, b);
      }
      b.inFlight++;
      b.started++;
      ASYNC_ON_THIS_THREAD.get()[0]++;
      return false;
    }
  }

  /**
   * A write that could be synchronous found a backlog (after a backfill, or at start): rather
   * than add to it, which under a steady stream of writes would keep it from ever emptying, it
   * waits a little for this thread to apply it. Writes that must be asynchronous (lag, a
   * CREATING index) do not wait, and after the wait a write goes through the log after all.
   * Returns the backlog left, or null. Call holding the map's monitor.
   */
  private Backlog awaitBacklogCleared(String tableName) {
    long deadline = System.nanoTime() + BACKLOG_WAIT_NANOS;
    Backlog b = backlogs.get(tableName);
    while (b != null) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return b;
      }
      try {
        backlogs.wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return b;
      }
      b = backlogs.get(tableName);
    }
    return null;
  }

  /** The asynchronous write's commit attempt ended; the record, if committed, waits here. */
  void asyncResolved(String tableName) {
    ASYNC_ON_THIS_THREAD.get()[0]--;
    synchronized (backlogs) {
      Backlog b = backlogs.get(tableName);
      if (b != null) {
        b.inFlight--;
      }
    }
    changed(tableName);
  }

  /**
   * Has this thread apply, at its next round, every record of the table's change log older than
   * the lag and {@link #LEFTOVER_MILLIS}, from the log's first record on, whichever engine
   * numbered it. An engine applies the records it numbered, and the others' only below its own
   * watermark and after the last record it applied; a record whose engine committed it and
   * stopped (killed) before applying it lies, for every other engine, behind a watermark or a
   * place in the log that no scan of theirs comes back to. The holder of the housekeeping's
   * lease has its propagator sweep every table's log each minute ({@link
   * Indexes#sweepChangeLogs}), so such a record reaches the GSIs within a minute or two. Applying
   * a record twice (its engine was only slow) is harmless: a repair writes the item's current
   * state.
   */
  void sweep(String tableName) {
    sweeps.add(tableName);
    changed(tableName);
  }

  /** At start: the table's log may hold records of a previous run. */
  void recovering(String tableName) {
    synchronized (backlogs) {
      backlogs.computeIfAbsent(tableName, t -> new Backlog());
    }
  }

  /**
   * Read before the watermark and the scan: the number of asynchronous writes the table has
   * started, or -1 while one is in flight (its record might then commit after the scan).
   */
  private long backlogMark(String tableName) {
    synchronized (backlogs) {
      Backlog b = backlogs.get(tableName);
      return b == null || b.inFlight > 0 ? -1 : b.started;
    }
  }

  /**
   * A scan after {@code mark} found the log empty: unless an asynchronous write started since,
   * every record is applied and the table's writes may be synchronous again.
   */
  private void clearBacklog(String tableName, long mark) {
    if (mark < 0) {
      return;
    }
    synchronized (backlogs) {
      Backlog b = backlogs.get(tableName);
      if (b != null && b.inFlight == 0 && b.started == mark) {
        backlogs.remove(tableName);
        backlogs.notifyAll(); // writers waiting to be synchronous
      }
    }
  }

  void backfillStarted() {
    synchronized (lock) {
      backfills++;
    }
  }

  void backfillFinished() {
    synchronized (lock) {
      backfills--;
      lock.notifyAll();
    }
  }

  boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (!pending.isEmpty() || busy || backfills > 0 || !sequencer.idle()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        lock.wait(Math.max(1, left / 1_000_000));
      }
      return true;
    }
  }

  void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    long delay = 0;
    long lingerUntil = System.nanoTime();
    while (true) {
      List<String> work;
      synchronized (lock) {
        try {
          if (!closed && !signalled) {
            if (pending.isEmpty()) {
              lock.wait();
            } else if (delay > 0) {
              lock.wait(delay);
            }
          }
          while (!closed && !pending.isEmpty()) {
            long left = lingerUntil - System.nanoTime();
            if (left <= 0) {
              break;
            }
            lock.wait(left / 1_000_000, (int) (left % 1_000_000));
          }
        } catch (InterruptedException e) {
          return;
        }
        if (closed) {
          return;
        }
        signalled = false;
        work = new ArrayList<>(pending);
        pending.clear();
        busy = !work.isEmpty();
      }
      List<String> again = new ArrayList<>();
      long next = Long.MAX_VALUE;
      for (String table : work) {
        long wait;
        try {
          if (sweeps.remove(table)) {
            sweepLeftovers(table);
          }
          wait = drain(table);
        } catch (RuntimeException e) {
          if (isClosed()) {
            return;
          }
          System.getLogger(Propagator.class.getName())
              .log(System.Logger.Level.ERROR, "propagation to the GSIs of " + table + " failed", e);
          wait = 100;
        }
        if (wait >= 0) {
          again.add(table);
          next = Math.min(next, wait);
        }
      }
      synchronized (lock) {
        pending.addAll(again);
        busy = false;
        lock.notifyAll();
      }
      delay = again.isEmpty() ? 0 : Math.max(1, next);
      if (!work.isEmpty()) {
        lingerUntil = System.nanoTime() + LINGER_NANOS;
      }
    }
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  /**
   * Applies the final part of a table's change log; returns -1 when the log is empty, else the
   * milliseconds after which to try again.
   */
  private long drain(String tableName) {
    while (true) {
      Batch batch = new Batch();
      // A conflict: an item or the definition changed since the read; read again, fewer records.
      long wait = OnConflict.rerun(() -> drainOnce(tableName, batch), conflict -> batch.shrink());
      if (wait != MORE) {
        return wait;
      }
    }
  }

  /** {@link #drainOnce}'s answer when it applied a batch and the log may have more. */
  private static final long MORE = -2;

  /** How many records of the log a try reads, and how many the last one applied. */
  private static final class Batch {
    int limit = BATCH;
    int applied;

    /** After a conflict: half of what the try applied, as fewer items are likelier to hold. */
    void shrink() {
      limit = Math.max(1, applied / 2);
    }
  }

  /**
   * Applies one batch of the log: -1 when the log is empty, {@link #MORE} when a batch was
   * applied and more may follow, else the milliseconds after which to try again.
   */
  private long drainOnce(String tableName, Batch batch) {
    long mark = backlogMark(tableName); // before the watermark and the scan
    Optional<Catalog.Entry> entry = catalog.get(tableName);
    if (entry.isEmpty()) {
      Cursor gone = cursors.remove(tableName);
      if (gone != null) {
        ahead.remove(gone.changeLog());
      }
      clearBacklog(tableName, mark);
      return -1; // deleted: its log went with it
    }
    TableDefinition table = entry.get().table();
    Cursor cursor = cursors.get(tableName);
    StorageKey after =
        cursor != null && cursor.changeLog().equals(table.changeLog()) ? cursor.last() : null;
    long watermark = sequencer.watermark(); // before the scan: see the essay
    long horizon = clock.millis() - lagMillis;
    Commit commit = entry.get().expectUnchanged(new Commit());
    long wait = -1;
    batch.applied = 0;
    StorageKey last = null;
    try {
      List<StoredRecord> records =
          storage.scan(table.changeLog(), null, null, after, batch.limit);
      if (records.isEmpty()) {
        clearBacklog(tableName, mark);
        ahead.remove(table.changeLog()); // every record applied: nothing is ahead any more
        return -1;
      }
      Map<StorageKey, List<ChangeRecord>> byItem = new LinkedHashMap<>();
      for (StoredRecord r : records) {
        if (ChangeRecord.sequence(r.key()) >= watermark) {
          wait = 1;
          break;
        }
        ChangeRecord change = ChangeRecord.decode(r.key(), r.value());
        if (change.timestamp() > horizon) {
          wait = change.timestamp() - horizon;
          break;
        }
        addToBatch(table, r, change, byItem, commit);
        last = r.key();
        batch.applied++;
      }
      if (batch.applied == 0) {
        return wait;
      }
      apply(table, byItem, commit);
    } catch (StorageException e) {
      return 1; // a space dropped under us; the catalog will say why on the next try
    }
    cursors.put(tableName, new Cursor(table.changeLog(), last));
    return wait >= 0 ? wait : MORE;
  }

  /** Adds one record of the log to a batch: its change to its item's, its deletion to commit. */
  private static void addToBatch(TableDefinition table, StoredRecord r, ChangeRecord change,
      Map<StorageKey, List<ChangeRecord>> byItem, Commit commit) {
    if (change.image() != null) { // else a delete of no item: nothing to repair
      byItem.computeIfAbsent(table.storageKey(change.image()), k -> new ArrayList<>())
          .add(change);
    }
    commit.delete(table.changeLog(), r.key());
  }

  /** Repairs each item of a batch ({@link #repair}) in {@code commit}, and commits it. */
  private void apply(
      TableDefinition table, Map<StorageKey, List<ChangeRecord>> byItem, Commit commit) {
    Map<StorageKey, List<Target>> tableAhead =
        ahead.computeIfAbsent(table.changeLog(), l -> new HashMap<>());
    Map<StorageKey, List<Target>> nowAhead = new HashMap<>();
    byItem.forEach((itemKey, changes) -> nowAhead.put(
        itemKey, repair(table, itemKey, changes, tableAhead.get(itemKey), commit)));
    storage.commit(commit);
    nowAhead.forEach((itemKey, targets) -> {
      if (targets.isEmpty()) {
        tableAhead.remove(itemKey);
      } else {
        tableAhead.put(itemKey, targets);
      }
    });
  }

  /**
   * A sweep of the table's whole log ({@link #sweep}), batch by batch; it moves no cursor, so
   * the records it leaves (younger) are this engine's drains' as before.
   */
  private void sweepLeftovers(String tableName) {
    StorageKey after = null;
    do {
      Batch batch = new Batch();
      StorageKey from = after;
      after = OnConflict.rerun(() -> sweepOnce(tableName, from, batch), c -> batch.shrink());
    } while (after != null);
  }

  /** One batch of a sweep, after {@code after}: the key to go on after, or null at the end. */
  private StorageKey sweepOnce(String tableName, StorageKey after, Batch batch) {
    Optional<Catalog.Entry> entry = catalog.get(tableName);
    if (entry.isEmpty()) {
      return null;
    }
    TableDefinition table = entry.get().table();
    long horizon = clock.millis() - lagMillis - LEFTOVER_MILLIS;
    Commit commit = entry.get().expectUnchanged(new Commit());
    Map<StorageKey, List<ChangeRecord>> byItem = new LinkedHashMap<>();
    batch.applied = 0;
    List<StoredRecord> records;
    try {
      records = storage.scan(table.changeLog(), null, null, after, batch.limit);
      for (StoredRecord r : records) {
        ChangeRecord change = ChangeRecord.decode(r.key(), r.value());
        if (change.timestamp() <= horizon) {
          addToBatch(table, r, change, byItem, commit);
          batch.applied++;
        }
      }
      if (batch.applied > 0) {
        apply(table, byItem, commit);
      }
    } catch (StorageException e) {
      return null; // a space dropped under us: the next sweep finds out why
    }
    return records.size() < batch.limit ? null : records.get(records.size() - 1).key();
  }

  /**
   * Read-repair of one item's entries after {@code changes} (see the essay): expects the item's
   * current version, deletes every entry the changes' images had at a key other than the
   * current state's, and those of {@code previouslyAhead}, and puts the current state's entry.
   * Returns the entries put for a state newer than the changes' last (a later write's record is
   * still to come), else none.
   */
  private List<Target> repair(
      TableDefinition table, StorageKey itemKey, List<ChangeRecord> changes,
      List<Target> previouslyAhead, Commit commit) {
    Optional<StoredRecord> stored = storage.get(table.space(), itemKey);
    commit.expect(table.space(), itemKey,
        stored.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT));
    Map<String, AttributeValue> current =
        stored.map(r -> ItemCodec.decode(r.value())).orElse(null);
    boolean isAhead = !Objects.equals(current, changes.get(changes.size() - 1).newImage());
    List<Target> nowAhead = new ArrayList<>();
    for (IndexDefinition index : table.indexes()) {
      if (!index.global()) {
        continue;
      }
      StorageKey currentKey = IndexKeys.entryKey(table, index, current);
      Set<StorageKey> stale = new HashSet<>();
      for (ChangeRecord change : changes) {
        stale.add(IndexKeys.entryKey(table, index, change.oldImage()));
        stale.add(IndexKeys.entryKey(table, index, change.newImage()));
      }
      if (previouslyAhead != null) {
        for (Target t : previouslyAhead) {
          if (t.space().equals(index.space())) {
            stale.add(t.key());
          }
        }
      }
      stale.remove(null);
      stale.remove(currentKey);
      for (StorageKey key : stale) {
        commit.delete(index.space(), key);
      }
      if (currentKey != null) {
        commit.put(index.space(), currentKey,
            IndexDefinition.ALL.equals(index.projectionType())
                ? stored.get().value()
                : ItemCodec.encode(IndexKeys.project(table, index, current)));
        if (isAhead) {
          nowAhead.add(new Target(index.space(), currentKey));
        }
      }
    }
    return nowAhead;
  }

  /** An entry: a key in an index's space. */
  private record Target(String space, StorageKey key) {}

  /** Asynchronous writes of one table: in flight, and started in all (guarded by the map). */
  private static final class Backlog {
    int inFlight;
    long started;
  }

  /** Where the next scan of a table's change log starts: after {@code last}. */
  private record Cursor(String changeLog, StorageKey last) {}
}
