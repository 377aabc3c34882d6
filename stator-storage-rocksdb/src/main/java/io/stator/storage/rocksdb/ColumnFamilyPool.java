package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.stator.storage.StorageException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The column families of new spaces, made ahead in batches, and those of dropped spaces, dropped
 * behind in batches.
 *
 * <p>Why: RocksDB rewrites its OPTIONS file, the options of every column family, and reads it
 * back to verify it at each creation or drop of a column family, whatever their number. With one
 * column family per table that made CreateTable and DeleteTable cost in proportion to the tables
 * already there: 11 and 9 ms with none, 37 and 36 ms with 50, 202 and 195 ms with 200
 * (docs/performance.md, "Table lifecycle"), while a drop held every other call of the store.
 * Creating a batch of families at once ({@link #BATCH}, or a quarter of the pool's families when
 * that is more) pays for that file once, and so does dropping all the families that are waiting.
 * The next batch is made behind when half of one is left.
 *
 * <p>A family of the pool is named {@code pool:N}; which space it holds is a record of the
 * metadata family ({@code family:SPACE} = its name), written before any commit can reach the
 * space, so that a commit found in the write-ahead log after a crash always finds its space's
 * record before it. On opening, a family of the pool that no record names is empty (made ahead
 * and never used) and ready again, or holds a dropped space not yet dropped, and is dropped.
 * Spaces made before the pool keep their families, named after them ({@code space:NAME}); when
 * such a space is dropped, a record {@code dropped:FAMILY} marks its family until the drop is
 * done, so that an opening before then drops it instead of finding the space again.
 *
 * <p>Dropping runs on a thread of its own: the family is out of the store's spaces at once, its
 * drop follows with the others waiting, after the write-ahead log is written to its file and
 * synced (so a drop is never on disk before the commit that removed the space's table, or the
 * removal of its record). Handles are freed, and the store's record cache forgets them, only
 * under the store's exclusive lock, so no read in progress uses a freed one. A batch is claimed
 * only by a thread that holds the store's shared lock, so a take that waits for it never waits
 * for a close.
 */
final class ColumnFamilyPool {
  static final String PREFIX = "pool:";
  /** The fewest families one creation makes. */
  static final int BATCH = 16;
  private static final byte[] RECORD_PREFIX = "family:".getBytes(UTF_8);
  /** A family named after its space, from before the pool, whose space was dropped. */
  private static final byte[] DROPPED_PREFIX = "dropped:".getBytes(UTF_8);

  /** What the pool needs of its store: its locks, its write-ahead log and its record cache. */
  interface Store {
    /** Runs {@code action} under the store's shared lock; false when the store is closed. */
    boolean whileOpen(RocksAction action) throws RocksDBException;

    /** Runs {@code action} under the store's exclusive lock, unless it is closed. */
    void exclusively(Runnable action);

    /** Writes the write-ahead log's buffer to its file, and syncs the file. */
    void syncWal() throws RocksDBException;

    /** Forgets what the store keeps of a dropped family; no read or commit runs meanwhile. */
    void forget(ColumnFamilyHandle family);
  }

  /** A RocksDB call. */
  interface RocksAction {
    void run() throws RocksDBException;
  }

  private final RocksDB db;
  private final ColumnFamilyHandle meta;
  private final ColumnFamilyOptions options;
  private final WriteOptions writeOptions;
  private final Store store;
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "stator-column-families");
            t.setDaemon(true);
            return t;
          });

  // Guarded by this.
  private final Deque<ColumnFamilyHandle> ready = new ArrayDeque<>();
  private final List<ColumnFamilyHandle> toDrop = new ArrayList<>();
  /** The families being dropped behind, until their handles are freed. */
  private final List<ColumnFamilyHandle> inFlight = new ArrayList<>();
  private final List<ColumnFamilyHandle> failed = new ArrayList<>();
  /**
   * The name of every family of the pool, and of every family from before it. By identity: a
   * handle's equals and hashCode ask RocksDB, and crash on a closed handle.
   */
  private final Map<ColumnFamilyHandle, String> names = new IdentityHashMap<>();
  private long next;
  /** A batch is being made (by a take or behind); one at a time. */
  private boolean making;
  private boolean refillQueued;
  private boolean dropping;

  ColumnFamilyPool(
      RocksDB db, ColumnFamilyHandle meta, ColumnFamilyOptions options,
      WriteOptions writeOptions, Store store) {
    this.db = db;
    this.meta = meta;
    this.options = options;
    this.writeOptions = writeOptions;
    this.store = store;
  }

  /**
   * Sorts the families of an opened store into {@code spaces}, under their space, and the pool's.
   * {@code pooled} are the families named {@code pool:N}: those a record names hold its space;
   * the others are made ready if empty, else dropped. Records that name no family are removed.
   * {@code legacy} are the families from before the pool, by space: each holds its space, unless
   * its space was dropped (marked so), and then it is dropped.
   */
  synchronized void open(
      Map<String, ColumnFamilyHandle> pooled, Map<String, ColumnFamilyHandle> legacy,
      Map<String, ColumnFamilyHandle> spaces) throws RocksDBException {
    Map<String, ColumnFamilyHandle> unclaimed = new HashMap<>(pooled);
    pooled.forEach((name, handle) -> {
      names.put(handle, name);
      next = Math.max(next, Long.parseLong(name.substring(PREFIX.length())) + 1);
    });
    Set<String> legacyNames = new HashSet<>();
    try (RocksIterator it = db.newIterator(meta);
        WriteBatch stale = new WriteBatch();
        WriteOptions sync = new WriteOptions().setSync(true)) {
      for (Map.Entry<String, ColumnFamilyHandle> e : legacy.entrySet()) {
        String name = RocksDbStorage.legacyFamily(e.getKey());
        names.put(e.getValue(), name);
        legacyNames.add(name);
        if (db.get(meta, key(DROPPED_PREFIX, name)) != null) {
          toDrop.add(e.getValue());
        } else {
          spaces.put(e.getKey(), e.getValue());
        }
      }
      for (it.seek(DROPPED_PREFIX); it.isValid() && startsWith(it.key(), DROPPED_PREFIX);
          it.next()) {
        if (!legacyNames.contains(suffix(it.key(), DROPPED_PREFIX))) {
          stale.delete(meta, it.key()); // dropped, but the marker's removal was lost
        }
      }
      for (it.seek(RECORD_PREFIX); it.isValid() && startsWith(it.key(), RECORD_PREFIX);
          it.next()) {
        ColumnFamilyHandle handle = unclaimed.remove(new String(it.value(), UTF_8));
        if (handle == null) {
          stale.delete(meta, it.key());
        } else {
          spaces.put(suffix(it.key(), RECORD_PREFIX), handle);
        }
      }
      if (stale.count() > 0) {
        db.write(sync, stale);
      }
    }
    for (ColumnFamilyHandle handle : unclaimed.values()) {
      if (RocksDbStorage.hasAnyKey(db, handle)) {
        toDrop.add(handle);
      } else {
        ready.add(handle);
      }
    }
    if (!toDrop.isEmpty()) {
      scheduleDrop();
    }
  }

  /**
   * A family for {@code space}, recorded as its own: a ready one; when none is, one of the batch
   * being made behind, or one made here when none is. The next batch starts behind when few are
   * left.
   * Call under the store's shared lock.
   */
  ColumnFamilyHandle take(String space) throws RocksDBException {
    while (true) {
      synchronized (this) {
        if (!ready.isEmpty()) {
          ColumnFamilyHandle handle = ready.peek();
          db.put(meta, writeOptions, key(RECORD_PREFIX, space), names.get(handle).getBytes(UTF_8));
          ready.poll();
          if (ready.size() < batchSize() / 2 && !making && !refillQueued) {
            refillQueued = true;
            submit(this::refill);
          }
          return handle;
        }
        if (making) {
          // Whoever makes it holds the store's shared lock, as this take does: it finishes.
          awaitBatch();
          continue;
        }
        making = true;
      }
      // Only the one asked for: the rest of a batch follows behind (a new store's first space,
      // its catalog, is made 15 ms sooner than with a batch of 16).
      makeBatch(1);
    }
  }

  /**
   * Takes {@code space} out of the records (a family from before the pool is marked dropped) and
   * drops its family behind. The caller has made sure that no commit writes to it any more.
   */
  synchronized void drop(String space, ColumnFamilyHandle handle) throws RocksDBException {
    String name = names.get(handle);
    if (name != null && name.startsWith(PREFIX)) {
      db.delete(meta, writeOptions, key(RECORD_PREFIX, space));
    } else if (name != null) {
      db.put(meta, writeOptions, key(DROPPED_PREFIX, name), new byte[0]);
    }
    toDrop.add(handle);
    scheduleDrop();
  }

  /** Ready families, for tests. */
  synchronized int readyCount() {
    return ready.size();
  }

  /** Stops the thread; call under the store's exclusive lock, before closing the database. */
  void close() {
    worker.shutdown();
    synchronized (this) {
      // Those not dropped yet are left to the next opening, which finds them unrecorded (or
      // marked dropped) and drops them.
      for (Collection<ColumnFamilyHandle> handles : List.of(ready, toDrop, inFlight, failed)) {
        handles.forEach(ColumnFamilyHandle::close);
        handles.clear();
      }
    }
  }

  /** Waits for the drops and creations started behind (or for the close), for tests. */
  void awaitIdle() throws InterruptedException {
    while (!worker.isShutdown()) {
      synchronized (this) {
        if (!making && !refillQueued && !dropping) {
          return;
        }
      }
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  /**
   * How many families one creation makes: {@link #BATCH}, or a quarter of the pool's families
   * when that is more, so that the OPTIONS file, which grows with them, is written as seldom per
   * family at any number. Call under this.
   */
  private int batchSize() {
    return Math.max(BATCH, names.size() / 4);
  }

  /**
   * Makes {@code count} families and adds them to the ready ones; the caller has set {@code
   * making}, which this clears. RocksDB's call runs outside the monitor: takes find the families
   * that are ready meanwhile, and only a take that finds none waits for the batch.
   */
  private void makeBatch(int count) throws RocksDBException {
    try {
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      List<String> made = new ArrayList<>();
      synchronized (this) {
        for (int i = count; i > 0; i--) {
          String name = PREFIX + next++;
          made.add(name);
          descriptors.add(new ColumnFamilyDescriptor(name.getBytes(UTF_8), options));
        }
      }
      List<ColumnFamilyHandle> handles = db.createColumnFamilies(descriptors);
      synchronized (this) {
        for (int i = 0; i < handles.size(); i++) {
          names.put(handles.get(i), made.get(i));
          ready.add(handles.get(i));
        }
      }
    } finally {
      synchronized (this) {
        making = false;
        notifyAll();
      }
    }
  }

  // Call under this.
  private void awaitBatch() {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for a column family");
    }
  }

  /**
   * Makes the next batch behind, unless one is being made or enough are ready. Takes the store's
   * shared lock before it claims the making, so that a take waiting for this batch never waits
   * for a close waiting for that take.
   */
  private void refill() {
    synchronized (this) {
      refillQueued = false;
    }
    try {
      store.whileOpen(() -> {
        synchronized (this) {
          if (making || ready.size() >= batchSize() / 2) {
            return;
          }
          making = true;
        }
        makeBatch(batchSize());
      });
    } catch (RocksDBException | RuntimeException e) {
      // makeBatch cleared making; the next take that finds none ready makes them itself.
    }
  }

  // Call under this.
  private void scheduleDrop() {
    if (!dropping) {
      dropping = true;
      submit(this::dropWaiting);
    }
  }

  /** Drops the families waiting, in one call, until none is left. */
  private void dropWaiting() {
    while (true) {
      List<ColumnFamilyHandle> batch;
      List<String> legacyNames = new ArrayList<>();
      synchronized (this) {
        if (toDrop.isEmpty()) {
          dropping = false;
          return;
        }
        batch = new ArrayList<>(toDrop);
        toDrop.clear();
        inFlight.addAll(batch);
        for (ColumnFamilyHandle h : batch) {
          String name = names.get(h);
          if (name != null && !name.startsWith(PREFIX)) {
            legacyNames.add(name);
          }
        }
      }
      try {
        boolean open = store.whileOpen(() -> {
          // The commits that removed these spaces, and the records' removals, go first: a drop
          // is on disk at once, the log only when written.
          store.syncWal();
          db.dropColumnFamilies(batch);
          for (String name : legacyNames) {
            db.delete(meta, writeOptions, key(DROPPED_PREFIX, name));
          }
        });
        if (!open) {
          return; // closing freed the handles; the next opening drops what is left
        }
        store.exclusively(() -> {
          synchronized (this) {
            batch.forEach(names::remove);
            removeAll(inFlight, batch);
          }
          for (ColumnFamilyHandle h : batch) {
            store.forget(h);
            h.close();
          }
        });
      } catch (RocksDBException | RuntimeException e) {
        // Not dropped: unrecorded or marked dropped, so the next opening drops them.
        synchronized (this) {
          removeAll(inFlight, batch);
          failed.addAll(batch);
        }
      }
    }
  }

  /** Removes {@code handles} from {@code from}, by identity (see {@link #names}). */
  private static void removeAll(List<ColumnFamilyHandle> from, List<ColumnFamilyHandle> handles) {
    from.removeIf(h -> handles.stream().anyMatch(other -> other == h));
  }

  private void submit(Runnable task) {
    try {
      worker.execute(task);
    } catch (RejectedExecutionException e) {
      // closing: the next opening finds what is left
    }
  }

  private static byte[] key(byte[] prefix, String name) {
    byte[] bytes = name.getBytes(UTF_8);
    byte[] key = Arrays.copyOf(prefix, prefix.length + bytes.length);
    System.arraycopy(bytes, 0, key, prefix.length, bytes.length);
    return key;
  }

  private static String suffix(byte[] key, byte[] prefix) {
    return new String(key, prefix.length, key.length - prefix.length, UTF_8);
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }
}
