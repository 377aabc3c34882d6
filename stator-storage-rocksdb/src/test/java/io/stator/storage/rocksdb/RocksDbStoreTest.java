package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/** What is specific to the RocksDB store: its format marker, its directory lock, closing. */
class RocksDbStoreTest {
  @TempDir Path dir;

  @Test
  void refusesAStoreOfAnUnknownFormat() throws Exception {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("t");
    }
    RocksDB.loadLibrary();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (Options options = new Options()) {
      for (byte[] name : RocksDB.listColumnFamilies(options, dir.toString())) {
        descriptors.add(new ColumnFamilyDescriptor(name));
      }
    }
    try (RocksDB db = RocksDB.open(dir.toString(), descriptors, handles)) {
      db.put("format".getBytes(UTF_8), ByteBuffer.allocate(4).putInt(2).array());
      handles.forEach(ColumnFamilyHandle::close);
    }
    assertThatThrownBy(() -> RocksDbStorage.open(dir))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("format 2")
        .hasMessageContaining("only format 1");
  }

  @Test
  void refusesARocksDbDatabaseThatIsNotAStatorStore() throws Exception {
    RocksDB.loadLibrary();
    try (Options options = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(options, dir.toString())) {
      db.put("someone".getBytes(UTF_8), "else's data".getBytes(UTF_8));
    }
    assertThatThrownBy(() -> RocksDbStorage.open(dir))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("not a Stator store");
  }

  /**
   * Commits share one batch and one pair of buffers: a commit larger than the batch keeps, or a
   * value larger than the buffer, and a commit that failed half way through filling it, leave
   * nothing in the next commit; everything reads back after a reopen.
   */
  @Test
  void commitsOfEverySizeFollowEachOtherThroughTheSharedBatch() {
    StorageKey small = StorageKey.of(new byte[] {'s'});
    byte[][] large = new byte[5][];
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("t");
      Commit big = new Commit();
      for (int i = 0; i < large.length; i++) {
        large[i] = new byte[400 * 1024];
        Arrays.fill(large[i], (byte) i);
        big.put("t", StorageKey.of(new byte[] {'l', (byte) i}), large[i]);
      }
      storage.commit(big);
      assertThatThrownBy(
              () ->
                  storage.commit(
                      new Commit()
                          .put("t", StorageKey.of(new byte[] {'x'}), new byte[] {1})
                          .put("missing", small, new byte[] {2})))
          .isInstanceOf(StorageException.class);
      storage.commit(new Commit().put("t", small, new byte[] {7}));
    }
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.get("t", small).orElseThrow().value()).containsExactly(7);
      assertThat(storage.get("t", StorageKey.of(new byte[] {'x'}))).isEmpty();
      for (int i = 0; i < large.length; i++) {
        assertThat(storage.get("t", StorageKey.of(new byte[] {'l', (byte) i})).orElseThrow().value())
            .isEqualTo(large[i]);
      }
      assertThat(storage.stats("t").records()).isEqualTo(large.length + 1L);
    }
  }

  /** Other local users cannot read the store: RocksDB's files are 0644, its directory 0700. */
  @Test
  void aNewStoresDirectoryIsItsOwnersOnly() throws Exception {
    Path store = dir.resolve("parent").resolve("store");
    try (RocksDbStorage storage = RocksDbStorage.open(store)) {
      storage.createSpace("t");
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store)))
        .isEqualTo("rwx------");
  }

  @Test
  void aSecondOpenOfTheSameDirectoryFails() {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThatThrownBy(() -> RocksDbStorage.open(dir)).isInstanceOf(StorageException.class);
      storage.createSpace("still-usable");
      assertThat(storage.spaces()).containsExactly("still-usable");
    }
  }

  @Test
  void callsAfterCloseFailCleanly() {
    RocksDbStorage storage = RocksDbStorage.open(dir);
    storage.createSpace("t");
    storage.close();
    storage.close(); // idempotent
    StorageKey key = StorageKey.of(new byte[] {1});
    assertThatThrownBy(() -> storage.get("t", key)).isInstanceOf(StorageException.class);
    assertThatThrownBy(() -> storage.commit(new Commit().put("t", key, new byte[0])))
        .isInstanceOf(StorageException.class);
    assertThatThrownBy(() -> storage.scan("t", null, null, null, 1))
        .isInstanceOf(StorageException.class);
  }

  @Test
  void spaceNamesDoNotCollideWithRocksDbsOwnColumnFamily() {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("default");
      storage.commit(new Commit().put("default", StorageKey.of(new byte[] {1}), new byte[] {2}));
      storage.dropSpace("default");
      // The store's own metadata lives in RocksDB's default family and survived the drop.
      storage.createSpace("t");
      storage.commit(new Commit().put("t", StorageKey.of(new byte[] {1}), new byte[] {2}));
    }
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).containsExactly("t");
    }
  }

  /**
   * The record cache must answer expectations as a point read would: after the key is written
   * again, after it is deleted, and after its space is dropped and created anew.
   */
  @Test
  void expectationsSeeTheCurrentVersionThroughTheRecordCache() {
    StorageKey key = StorageKey.of("k".getBytes(UTF_8));
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("t");
      long first =
          storage.commit(
              new Commit().expect("t", key, Commit.Expectation.ABSENT).put("t", key, v(1)));
      long second = storage.commit(new Commit().expect("t", key, first).put("t", key, v(2)));
      assertThat(storage.get("t", key).orElseThrow().version()).isEqualTo(second);
      assertThat(second).isGreaterThan(first);
      assertThatThrownBy(() -> storage.commit(new Commit().expect("t", key, first)))
          .isInstanceOf(CommitConflictException.class);
      storage.commit(new Commit().expect("t", key, second).delete("t", key));
      assertThatThrownBy(() -> storage.commit(new Commit().expect("t", key, second)))
          .isInstanceOf(CommitConflictException.class);
      long third =
          storage.commit(
              new Commit().expect("t", key, Commit.Expectation.ABSENT).put("t", key, v(3)));

      storage.dropSpace("t");
      storage.createSpace("t");
      assertThatThrownBy(() -> storage.commit(new Commit().expect("t", key, third)))
          .isInstanceOf(CommitConflictException.class);
      storage.commit(new Commit().expect("t", key, Commit.Expectation.ABSENT).put("t", key, v(4)));
      assertThat(storage.get("t", key).orElseThrow().value()).isEqualTo(v(4));
    }
  }

  /**
   * Query ranges may skip files through the prefix filters. Partitions that share their first
   * bytes, that are shorter than the prefix or that hold zero bytes must still read exactly what
   * a model of the store holds, forward and backward, with and without bounds, from records spread
   * over several files (each reopen flushes the memtables) and the memtables.
   */
  @Test
  void rangesOverFilesReadExactlyTheirRecords() throws Exception {
    Random random = new Random(7);
    List<byte[]> partitions = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      byte[] p = new byte[1 + random.nextInt(12)];
      random.nextBytes(p);
      if (i % 3 == 0) {
        p[random.nextInt(p.length)] = 0;
      }
      partitions.add(p);
      if (p.length > 2) {
        partitions.add(Arrays.copyOf(p, p.length - 1)); // a partition that is its prefix
      }
    }
    TreeMap<StorageKey, byte[]> model = new TreeMap<>();
    for (int opening = 0; opening < 3; opening++) {
      try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
        if (opening == 0) {
          storage.createSpace("t");
        }
        for (int i = 0; i < 400; i++) {
          byte[] partition = partitions.get(random.nextInt(partitions.size()));
          StorageKey key = new StorageKey(partition, new byte[] {(byte) random.nextInt(8)});
          Commit commit = new Commit();
          if (random.nextInt(5) == 0) {
            commit.delete("t", key);
            model.remove(key);
          } else {
            commit.put("t", key, v(i));
            model.put(key, v(i));
          }
          storage.commit(commit);
        }
        for (byte[] partition : partitions) {
          for (int lower = -1; lower < 8; lower += 3) {
            for (int upper = lower + 1; upper <= 9; upper += 3) {
              Bound from = lower < 0 ? null : Bound.inclusive(new byte[] {(byte) lower});
              Bound to = upper >= 8 ? null : Bound.exclusive(new byte[] {(byte) upper});
              List<StorageKey> expected = new ArrayList<>();
              for (StorageKey key : model.keySet()) {
                int sort = key.sort()[0];
                if (Arrays.equals(key.partition(), partition)
                    && (from == null || sort >= lower)
                    && (to == null || sort < upper)) {
                  expected.add(key);
                }
              }
              assertThat(keys(storage.query("t", partition, from, to, true, 100)))
                  .isEqualTo(expected);
              Collections.reverse(expected);
              assertThat(keys(storage.query("t", partition, from, to, false, 100)))
                  .isEqualTo(expected);
            }
          }
        }
        assertThat(keys(storage.scan("t", null, null, null, 10_000)))
            .isEqualTo(new ArrayList<>(model.keySet()));
      }
    }
  }

  private static List<StorageKey> keys(List<StoredRecord> records) {
    return records.stream().map(StoredRecord::key).toList();
  }

  private static byte[] v(int n) {
    return new byte[] {(byte) n};
  }

  /**
   * The stored ceiling is raised once per block of versions, not per commit; a reopened store must
   * still issue versions above every version it stored, also after more than a block of commits.
   */
  @Test
  void versionsAfterAReopenExceedEveryStoredVersion() {
    StorageKey key = StorageKey.of("k".getBytes(UTF_8));
    long last = 0;
    for (int opening = 0; opening < 3; opening++) {
      try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
        if (opening == 0) {
          storage.createSpace("t");
        }
        int commits = opening == 1 ? (int) RocksDbStorage.VERSION_BLOCK + 10 : 5;
        for (int i = 0; i < commits; i++) {
          long written = storage.commit(new Commit().expect("t", key, last).put("t", key, v(i)));
          assertThat(storage.get("t", key).orElseThrow().version()).isEqualTo(written);
          assertThat(written).isGreaterThan(last);
          last = written;
        }
      }
    }
  }

  @Test
  void statsOfASmallSpaceCountItsRecordsExactlyThroughOverwritesAndDeletes() {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("t");
      for (String sort : List.of("a", "b", "c")) {
        storage.commit(new Commit().put("t", new StorageKey(bytes("p"), bytes(sort)), bytes("v")));
      }
      for (int i = 1; i <= 5; i++) { // overwrites, still in the memtable
        byte[] value = bytes("x".repeat(20 * i));
        storage.commit(new Commit().put("t", new StorageKey(bytes("p"), bytes("b")), value));
      }
      storage.commit(new Commit().delete("t", new StorageKey(bytes("p"), bytes("c"))));

      // "pa" + "v" and "pb" + 100 x's, as MemoryStorage counts them
      assertThat(storage.stats("t").records()).isEqualTo(2);
      assertThat(storage.stats("t").bytes()).isEqualTo(3 + 102);
    }
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) { // the same after a reopen
      assertThat(storage.stats("t").records()).isEqualTo(2);
      assertThat(storage.stats("t").bytes()).isEqualTo(3 + 102);
    }
  }

  /**
   * Many small tables must not make every write flush. The memtables of all column families share
   * one write-buffer budget, charged by the memory each memtable has taken; a memtable that took
   * much memory even while empty (a memtable Bloom filter did: a 1 MB arena block at once) would
   * keep the budget spent with ~60 tables, so that each commit flushed a memtable to a file.
   */
  @Test
  void manySmallTablesLeaveTheMemtablesTheirRoom() throws Exception {
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      for (int t = 0; t < 150; t++) {
        storage.createSpace("t" + t);
        StorageKey key = new StorageKey(bytes("p"), bytes("a"));
        storage.commit(new Commit().put("t" + t, key, bytes("v")));
      }
      byte[] value = new byte[1024];
      for (int i = 0; i < 2_000; i++) { // 2 MB, an eighth of one memtable
        storage.commit(new Commit().put("t0", new StorageKey(bytes("p" + i), bytes("a")), value));
      }
      try (var files = Files.list(dir)) {
        assertThat(files.filter(f -> f.toString().endsWith(".sst"))).isEmpty();
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }
}
