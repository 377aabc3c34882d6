package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * Spaces in column families of the pool: made ahead in batches, recorded in the metadata, found
 * again after a reopen, dropped behind; and stores made before the pool, whose families are named
 * after their spaces.
 */
class ColumnFamilyPoolTest {
  private static final StorageKey KEY = StorageKey.of("k".getBytes(UTF_8));

  @TempDir Path dir;

  @Test
  void spacesOfThePoolComeBackAfterAReopenAndDroppedOnesDoNot() throws Exception {
    int made = 2 * ColumnFamilyPool.BATCH + 3; // more than one batch
    Set<String> kept = new TreeSet<>();
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      for (int i = 0; i < made; i++) {
        storage.createSpace("s" + i);
        put(storage, "s" + i, "v" + i);
        kept.add("s" + i);
      }
      for (int i = 0; i < made; i += 3) {
        storage.dropSpace("s" + i);
        kept.remove("s" + i);
      }
      assertThat(storage.spaces()).isEqualTo(kept);
    }
    int ready;
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).isEqualTo(kept);
      for (String space : kept) {
        assertThat(value(storage, space)).isEqualTo("v" + space.substring(1));
      }
      storage.pool().awaitIdle();
      ready = storage.pool().readyCount();
    }
    // Every family of the store is a kept space's or a ready one: the dropped ones are gone.
    assertThat(families().stream().filter(f -> f.startsWith(ColumnFamilyPool.PREFIX)).count())
        .isEqualTo(kept.size() + ready);
  }

  @Test
  void aDroppedSpaceIsGoneAtOnceAndItsNameStartsAgainEmpty() throws Exception {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("t");
      put(storage, "t", "old");
      storage.dropSpace("t");
      assertThat(storage.spaces()).doesNotContain("t");
      storage.createSpace("t"); // before the drop behind has run, or after
      assertThat(storage.get("t", KEY)).isEmpty();
      put(storage, "t", "new");
      storage.pool().awaitIdle();
      assertThat(value(storage, "t")).isEqualTo("new");
    }
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(value(storage, "t")).isEqualTo("new");
    }
  }

  @Test
  void familiesMadeAheadAreUsedAgainAfterAReopenInsteadOfMadeAgain() throws Exception {
    int ready;
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("t");
      storage.pool().awaitIdle();
      ready = storage.pool().readyCount();
    }
    assertThat(ready).isGreaterThanOrEqualTo(ColumnFamilyPool.BATCH / 2);
    List<String> before = families();
    for (int round = 0; round < 3; round++) {
      try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
        assertThat(storage.pool().readyCount()).isEqualTo(ready);
        storage.pool().awaitIdle();
      }
    }
    assertThat(families()).containsExactlyInAnyOrderElementsOf(before);
  }

  /**
   * A family of the pool that holds records but that no record of the metadata names (a dropped
   * space whose drop had not run when the process stopped) is dropped at the next opening.
   */
  @Test
  void aFamilyWithRecordsButNoSpaceIsDroppedOnOpening() throws Exception {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("gone");
      put(storage, "gone", "v");
      storage.createSpace("kept");
      put(storage, "kept", "w");
    }
    String family;
    RocksDB.loadLibrary();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (RocksDB db = RocksDB.open(dir.toString(), descriptors(), handles)) {
      byte[] record = "family:gone".getBytes(UTF_8);
      family = new String(db.get(record), UTF_8);
      db.delete(record);
      handles.forEach(ColumnFamilyHandle::close);
    }
    assertThat(families()).contains(family);
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).containsExactly("kept");
      assertThat(value(storage, "kept")).isEqualTo("w");
      storage.pool().awaitIdle();
    }
    assertThat(families()).doesNotContain(family);
  }

  /**
   * A store made before the pool has a family named after each space ("space:" + name): it opens
   * with them, reads and writes them, and drops them as any other.
   */
  @Test
  void aStoreMadeBeforeThePoolOpensWithItsSpaces() throws Exception {
    makeLegacySpace("old", "from before");
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).contains("old", "new");
      assertThat(value(storage, "old")).isEqualTo("from before");
      put(storage, "old", "changed");
      assertThat(value(storage, "old")).isEqualTo("changed");
    }
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(value(storage, "old")).isEqualTo("changed");
      storage.dropSpace("old");
      storage.pool().awaitIdle();
    }
    assertThat(families()).doesNotContain("space:old");
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).doesNotContain("old");
    }
  }

  /**
   * The drop of a space from before the pool runs behind; a store closed before it runs does not
   * find the space again when it opens, and drops its family then.
   */
  @Test
  void aDroppedSpaceFromBeforeThePoolStaysDroppedWhenTheStoreClosesFirst() throws Exception {
    makeLegacySpace("old", "from before");
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).contains("old");
      storage.dropSpace("old");
    } // most often before the drop behind has run
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).doesNotContain("old");
      storage.createSpace("old");
      assertThat(storage.get("old", KEY)).isEmpty();
      storage.pool().awaitIdle();
    }
    assertThat(families()).doesNotContain("space:old");
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).contains("old");
      assertThat(storage.get("old", KEY)).isEmpty();
    }
  }

  /**
   * A take that finds no family ready waits for the batch being made; whoever makes it holds the
   * store's shared lock. A refill behind that reaches the shared lock only after a close has
   * queued for the exclusive one must not have claimed the making: the take would wait for it,
   * it for the close, and the close for the take.
   */
  @Test
  void aTakeWaitingForABatchNeverWaitsForAClose() throws Exception {
    RocksDB.loadLibrary();
    ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock(); // as the store's
    CountDownLatch refillArrived = new CountDownLatch(1);
    CountDownLatch refillGoesOn = new CountDownLatch(1);
    try (DBOptions dbOptions = new DBOptions().setCreateIfMissing(true);
        ColumnFamilyOptions options = new ColumnFamilyOptions();
        WriteOptions writeOptions = new WriteOptions()) {
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (RocksDB db = RocksDB.open(dbOptions, dir.toString(),
          List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, options)), handles)) {
        ColumnFamilyPool pool = new ColumnFamilyPool(db, handles.get(0), options, writeOptions,
            new ColumnFamilyPool.Store() {
              @Override
              public boolean whileOpen(ColumnFamilyPool.RocksAction action)
                  throws RocksDBException {
                refillArrived.countDown(); // the refill, late for the shared lock
                try {
                  refillGoesOn.await();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
                lifecycle.readLock().lock();
                try {
                  action.run();
                  return true;
                } finally {
                  lifecycle.readLock().unlock();
                }
              }

              @Override
              public void exclusively(Runnable action) {
                lifecycle.writeLock().lock();
                try {
                  action.run();
                } finally {
                  lifecycle.writeLock().unlock();
                }
              }

              @Override
              public void syncWal() {}

              @Override
              public void forget(ColumnFamilyHandle family) {}
            });
        pool.open(new HashMap<>(), new HashMap<>(), new HashMap<>());
        int taken = 0;
        do { // createSpace takes under the shared lock, until a refill is on its way
          lifecycle.readLock().lock();
          try {
            handles.add(pool.take("s" + taken++));
          } finally {
            lifecycle.readLock().unlock();
          }
        } while (pool.readyCount() >= ColumnFamilyPool.BATCH / 2);
        assertThat(refillArrived.await(30, TimeUnit.SECONDS)).isTrue();
        Thread take = new Thread(() -> { // takes the rest, then one more than is ready
          lifecycle.readLock().lock();
          try {
            for (int i = 0; pool.readyCount() > 0; i++) {
              handles.add(pool.take("rest" + i));
            }
            handles.add(pool.take("waiting"));
          } catch (RocksDBException e) {
            throw new IllegalStateException(e);
          } finally {
            lifecycle.readLock().unlock();
          }
        });
        take.start();
        // Staged by what the threads are doing, not by pauses a busy machine could outlast: the
        // take parked (or done), then the close queued for the exclusive lock behind it.
        awaitUntil(() -> take.getState() != Thread.State.NEW
            && take.getState() != Thread.State.RUNNABLE);
        Thread close = new Thread(() -> {
          lifecycle.writeLock().lock();
          lifecycle.writeLock().unlock();
        });
        close.start();
        awaitUntil(() -> lifecycle.hasQueuedThread(close) || close.getState()
            == Thread.State.TERMINATED);
        refillGoesOn.countDown();
        take.join(60_000);
        close.join(60_000);
        assertThat(take.isAlive()).as("the take is stuck").isFalse();
        assertThat(close.isAlive()).as("the close is stuck").isFalse();
        pool.awaitIdle();
        pool.close();
        handles.forEach(ColumnFamilyHandle::close);
      }
    }
  }

  /** Returns once {@code done} holds, or after 30 s (the staging then failed, not the test). */
  private static void awaitUntil(BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!done.getAsBoolean() && System.nanoTime() - deadline < 0) {
      Thread.sleep(5);
    }
  }

  private void makeLegacySpace(String space, String value) throws Exception {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("new"); // makes the store: its format marker and version
    }
    RocksDB.loadLibrary();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (RocksDB db = RocksDB.open(dir.toString(), descriptors(), handles)) {
      ColumnFamilyHandle old =
          db.createColumnFamily(new ColumnFamilyDescriptor(("space:" + space).getBytes(UTF_8)));
      byte[] payload = value.getBytes(UTF_8);
      db.put(old, CompositeKey.encode(KEY),
          ByteBuffer.allocate(8 + payload.length).putLong(1).put(payload).array());
      old.close();
      handles.forEach(ColumnFamilyHandle::close);
    }
  }

  private static void put(RocksDbStorage storage, String space, String value) {
    Optional<StoredRecord> current = storage.get(space, KEY);
    storage.commit(new Commit()
        .expect(space, KEY, current.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT))
        .put(space, KEY, value.getBytes(UTF_8)));
  }

  private static String value(RocksDbStorage storage, String space) {
    return new String(storage.get(space, KEY).orElseThrow().value(), UTF_8);
  }

  private List<String> families() throws Exception {
    RocksDB.loadLibrary();
    List<String> names = new ArrayList<>();
    try (Options options = new Options()) {
      for (byte[] name : RocksDB.listColumnFamilies(options, dir.toString())) {
        names.add(new String(name, UTF_8));
      }
    }
    return names;
  }

  private List<ColumnFamilyDescriptor> descriptors() throws Exception {
    List<ColumnFamilyDescriptor> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String name : families()) {
      if (seen.add(name)) {
        out.add(new ColumnFamilyDescriptor(name.getBytes(UTF_8)));
      }
    }
    return out;
  }
}
