package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.stator.storage.StorageException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * (docs/performance.md, "Twelfth round"), while a drop held every other call of the store.
 * Creating a batch of families at once ({@link #BATCH}, or a quarter of the pool's families when
 * that is more) pays for that file once, and so does dropping all the families that are waiting.
 * The next batch is made behind when half of one is left.
 *
 * <p>A family of the pool is named {@code pool:N}; which space it holds is a record of the
 * metadata family ({@code family:SPACE} = its name), written before any commit can reach the
 * space, so that a commit found in the write-ahead log after a crash always finds its space's
 * record before it. On opening, a family of the pool that no record names is empty (made ahead
 * and never used) and ready again, or holds a dropped space not yet dropped, and is dropped.
 * Spaces made before the pool keep their families, named after them.
 *
 * <p>Dropping runs on a thread of its own: the family is out of the store's spaces at once, its
 * drop follows with the others waiting, after the write-ahead log is written to its file (so a
 * drop is never on disk before the commit that removed the space's table). Handles are freed
 * only under the store's exclusive lock, so no read in progress uses a freed one.
 */
final class ColumnFamilyPool {
  static final String PREFIX = "pool:";
  /** The fewest families one creation makes. */
  static final int BATCH = 16;
  private static final byte[] RECORD_PREFIX = "family:".getBytes(UTF_8);

  /** What the pool needs of its store: its locks and its write-ahead log. */
  interface Store {
    /** Runs {@code action} under the store's shared lock; false when the store is closed. */
    boolean whileOpen(RocksAction action) throws RocksDBException;

    /** Runs {@code action} under the store's exclusive lock, unless it is closed. */
    void exclusively(Runnable action);

    /** Writes the write-ahead log's buffer to its file. */
    void flushWal() throws RocksDBException;
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
  private final List<ColumnFamilyHandle> failed = new ArrayList<>();
  private final Map<ColumnFamilyHandle, String> names = new HashMap<>();
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
   * Sorts the families of an opened store named {@code pool:N}: those a record names go into
   * {@code spaces}, under their space; the others are made ready if empty, else dropped. Records
   * that name no family (its drop was on disk, the record's removal not) are removed.
   */
  synchronized void open(Map<String, ColumnFamilyHandle> families,
      Map<String, ColumnFamilyHandle> spaces) throws RocksDBException {
    Map<String, ColumnFamilyHandle> unclaimed = new HashMap<>(families);
    families.forEach((name, handle) -> {
      names.put(handle, name);
      next = Math.max(next, Long.parseLong(name.substring(PREFIX.length())) + 1);
    });
    try (RocksIterator it = db.newIterator(meta); WriteBatch stale = new WriteBatch()) {
      for (it.seek(RECORD_PREFIX); it.isValid() && startsWith(it.key(), RECORD_PREFIX);
          it.next()) {
        String space = new String(it.key(), RECORD_PREFIX.length,
            it.key().length - RECORD_PREFIX.length, UTF_8);
        ColumnFamilyHandle handle = unclaimed.remove(new String(it.value(), UTF_8));
        if (handle == null) {
          stale.delete(meta, it.key());
        } else {
          spaces.put(space, handle);
        }
      }
      if (stale.count() > 0) {
        db.write(writeOptions, stale);
      }
    }
    for (ColumnFamilyHandle handle : unclaimed.values()) {
      if (isEmpty(handle)) {
        ready.add(handle);
      } else {
        toDrop.add(handle);
      }
    }
    if (!toDrop.isEmpty()) {
      scheduleDrop();
    }
  }

  /**
   * A family for {@code space}, recorded as its own: a ready one; when none is, one of the batch
   * being made (behind, or here when none is). The next batch starts behind when few are left.
   */
  ColumnFamilyHandle take(String space) throws RocksDBException {
    while (true) {
      synchronized (this) {
        if (!ready.isEmpty()) {
          ColumnFamilyHandle handle = ready.peek();
          db.put(meta, writeOptions, record(space), names.get(handle).getBytes(UTF_8));
          ready.poll();
          if (ready.size() < batchSize() / 2 && !making && !refillQueued) {
            refillQueued = true;
            submit(this::refill);
          }
          return handle;
        }
        if (making) {
          awaitBatch();
          continue;
        }
        making = true;
      }
      makeBatch();
    }
  }

  /**
   * Removes {@code space}'s record and drops its family behind (a family named after its space,
   * from before the pool, too). The caller has made sure that no commit writes to it any more.
   */
  synchronized void drop(String space, ColumnFamilyHandle handle) throws RocksDBException {
    if (names.containsKey(handle)) {
      db.delete(meta, writeOptions, record(space));
    }
    toDrop.add(handle);
    scheduleDrop();
  }

  /** Ready families, for tests. */
  synchronized int readyCount() {
    return ready.size();
  }

  /** Stops the thread; call under the store's exclusive lock, before closing the handles. */
  void close() {
    worker.shutdown();
    synchronized (this) {
      ready.forEach(ColumnFamilyHandle::close);
      ready.clear();
      // Left to the next opening, which finds them without a record and drops them.
      toDrop.forEach(ColumnFamilyHandle::close);
      toDrop.clear();
      failed.forEach(ColumnFamilyHandle::close);
      failed.clear();
    }
  }

  /** Waits for the drops and creations started behind, for tests. */
  void awaitIdle() throws InterruptedException {
    while (true) {
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
   * Makes a batch of families and adds them to the ready ones; the caller has set {@code
   * making}, which this clears. RocksDB's call runs outside the monitor: takes find the families
   * that are ready meanwhile, and only a take that finds none waits for the batch.
   */
  private void makeBatch() throws RocksDBException {
    try {
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      List<String> made = new ArrayList<>();
      synchronized (this) {
        for (int i = batchSize(); i > 0; i--) {
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

  private void refill() {
    synchronized (this) {
      refillQueued = false;
      if (making || ready.size() >= batchSize() / 2) {
        return;
      }
      making = true;
    }
    boolean ran = false;
    try {
      ran = store.whileOpen(this::makeBatch);
    } catch (RocksDBException | StorageException e) {
      // The next take that finds none ready makes them itself.
      ran = true; // makeBatch cleared making
    } finally {
      if (!ran) {
        synchronized (this) {
          making = false;
          notifyAll();
        }
      }
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
      synchronized (this) {
        if (toDrop.isEmpty()) {
          dropping = false;
          return;
        }
        batch = new ArrayList<>(toDrop);
        toDrop.clear();
      }
      try {
        boolean open = store.whileOpen(() -> {
          store.flushWal(); // the commits that removed these spaces go first
          db.dropColumnFamilies(batch);
        });
        if (!open) {
          return; // a closed store's handles are gone with it; the next opening drops the rest
        }
        store.exclusively(() -> {
          synchronized (this) {
            batch.forEach(names::remove);
          }
          batch.forEach(ColumnFamilyHandle::close);
        });
      } catch (RocksDBException | StorageException e) {
        // Not dropped: no record names them, so the next opening does. Closed with the store.
        synchronized (this) {
          failed.addAll(batch);
        }
      }
    }
  }

  private void submit(Runnable task) {
    try {
      worker.execute(task);
    } catch (RejectedExecutionException e) {
      // closing: the next opening finds what is left
    }
  }

  private boolean isEmpty(ColumnFamilyHandle handle) {
    try (RocksIterator it = db.newIterator(handle)) {
      it.seekToFirst();
      return !it.isValid();
    }
  }

  private static byte[] record(String space) {
    byte[] name = space.getBytes(UTF_8);
    byte[] key = Arrays.copyOf(RECORD_PREFIX, RECORD_PREFIX.length + name.length);
    System.arraycopy(name, 0, key, RECORD_PREFIX.length, name.length);
    return key;
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }
}
