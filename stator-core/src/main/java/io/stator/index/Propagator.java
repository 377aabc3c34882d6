package io.stator.index;

import io.stator.item.ItemCodec;
import io.stator.schema.Catalog;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps global secondary indexes up to date, eventually, as DynamoDB's are.
 *
 * <h2>What it guarantees</h2>
 *
 * Every committed write of an item reaches every GSI of its table, in the order the writes of
 * that item committed, shortly after the commit (milliseconds, or the configured lag). A GSI
 * entry therefore always shows a state the item really had, an item is never in an index twice,
 * and once writes stop and the propagator has drained, each GSI equals the projection of the
 * table exactly. Across different items there is no order, as in DynamoDB: a reader may see one
 * item's newer state and another's older one.
 *
 * <h2>How</h2>
 *
 * A write to a table with GSIs appends a {@link ChangeRecord} (old item, new item) to the table's
 * change log, in the same commit as the item: the record exists if and only if the write
 * happened. Its key is a sequence number the engine takes after reading the item for that
 * attempt ({@link Sequencer}). If two commits A then B change one item, B read the item after A
 * committed (otherwise B's version expectation would have failed), so B took its number after A
 * did: per item, sequence order is commit order.
 *
 * <p>Sequence order is not commit order across items, and a number is taken before its commit:
 * record 9 may become visible after record 10. Applying 10 and later 9 would be harmless for two
 * different items (their entries are disjoint: an entry's key contains the table key), but if a
 * scan of the log missed 9 and a later change of the same item were applied first, the index
 * would go back in time. So this thread only applies records below the sequencer's watermark,
 * the smallest number still in flight: below it, every number is committed or abandoned, the log
 * is final, and applying it in sequence order applies each item's changes in commit order. The
 * watermark is read before the log is scanned.
 *
 * <p>Applying a record deletes the item's old entry (if the index key changed or the item left
 * the index) and puts the new projected entry, in every GSI of the table's current definition;
 * then the record is deleted. All of that is one commit, with an expectation on the table's
 * catalog record: if an index was added or removed meanwhile, the batch is recomputed against the
 * new definition, so no entry is ever written into a dropped index. A crash between commits
 * leaves records in the log; the next start applies them (applying a record twice is harmless:
 * it deletes and puts the same keys).
 *
 * <h2>Why not the obvious alternatives</h2>
 *
 * Writing GSI entries in the item's commit (like LSIs) would make every write touch up to 20 more
 * partitions in one transaction, which a distributed storage makes expensive, and would not be
 * DynamoDB's behaviour: applications must cope with GSI lag, and {@code --gsi-lag} lets them test
 * that. A per-item lock would serialise writers across the network; the sequence number needs no
 * lock held across a storage call.
 *
 * <h2>Backfill</h2>
 *
 * See {@link Backfill}: when UpdateTable adds a GSI, the propagator applies changes to it at once
 * (it is in the definition, CREATING) while the backfill copies the items that existed before.
 *
 * <h2>Threads</h2>
 *
 * One thread per engine. Writers mark their table pending and wake it; it drains pending tables
 * in batches, and retries a table later when its oldest record is held back by the watermark or
 * by the lag.
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
      Optional<Catalog.Entry> entry = catalog.get(tableName);
      if (entry.isEmpty()) {
        cursors.remove(tableName);
        return -1; // deleted: its log went with it
      }
      TableDefinition table = entry.get().table();
      Cursor cursor = cursors.get(tableName);
      StorageKey after =
          cursor != null && cursor.changeLog().equals(table.changeLog()) ? cursor.last() : null;
      long watermark = sequencer.watermark(); // before the scan: see the essay
      long horizon = clock.millis() - lagMillis;
      List<StoredRecord> records;
      try {
        records = storage.scan(table.changeLog(), null, null, after, BATCH);
      } catch (StorageException e) {
        return -1;
      }
      if (records.isEmpty()) {
        return -1;
      }
      Map<Target, byte[]> writes = new LinkedHashMap<>();
      long wait = -1;
      int applied = 0;
      StorageKey last = null;
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
        apply(table, change, writes);
        writes.put(new Target(table.changeLog(), r.key()), null);
        last = r.key();
        applied++;
      }
      if (applied == 0) {
        return wait;
      }
      Commit commit =
          new Commit().expect(Catalog.SPACE, Catalog.key(tableName), entry.get().version());
      writes.forEach(
          (target, value) -> {
            if (value == null) {
              commit.delete(target.space(), target.key());
            } else {
              commit.put(target.space(), target.key(), value);
            }
          });
      try {
        storage.commit(commit);
      } catch (CommitConflictException e) {
        continue; // the definition changed: recompute against the new one
      } catch (StorageException e) {
        return 1; // a space dropped under us; the catalog will say why on the next try
      }
      cursors.put(tableName, new Cursor(table.changeLog(), last));
      if (wait >= 0) {
        return wait;
      }
    }
  }

  /** Folds one change into the pending writes (a later change of the same entry wins). */
  private static void apply(TableDefinition table, ChangeRecord change, Map<Target, byte[]> out) {
    for (IndexDefinition index : table.indexes()) {
      if (!index.global()) {
        continue;
      }
      StorageKey oldKey = IndexKeys.entryKey(table, index, change.oldImage());
      StorageKey newKey = IndexKeys.entryKey(table, index, change.newImage());
      if (oldKey != null && !oldKey.equals(newKey)) {
        out.put(new Target(index.space(), oldKey), null);
      }
      if (newKey != null) {
        out.put(
            new Target(index.space(), newKey),
            ItemCodec.encode(IndexKeys.project(table, index, change.newImage())));
      }
    }
  }

  /** Where the next scan of a table's change log starts: after {@code last}. */
  private record Cursor(String changeLog, StorageKey last) {}

  /** A key in a space. */
  private record Target(String space, StorageKey key) {}
}
