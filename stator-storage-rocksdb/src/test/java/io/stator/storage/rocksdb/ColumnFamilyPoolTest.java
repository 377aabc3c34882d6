package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

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
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      assertThat(storage.spaces()).isEqualTo(kept);
      for (String space : kept) {
        assertThat(value(storage, space)).isEqualTo("v" + space.substring(1));
      }
      storage.pool().awaitIdle();
    }
    // Every family of the store is a kept space's or a ready one: the dropped ones are gone.
    assertThat(families().stream().filter(f -> f.startsWith(ColumnFamilyPool.PREFIX)).count())
        .isLessThanOrEqualTo(kept.size() + ColumnFamilyPool.BATCH);
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
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("t");
      storage.pool().awaitIdle();
    }
    List<String> before = families();
    for (int round = 0; round < 3; round++) {
      try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
        assertThat(storage.pool().readyCount()).isEqualTo(ColumnFamilyPool.BATCH - 1);
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
    try (RocksDbStorage storage = RocksDbStorage.open(dir)) {
      storage.createSpace("new"); // makes the store: its format marker and version
    }
    RocksDB.loadLibrary();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (RocksDB db = RocksDB.open(dir.toString(), descriptors(), handles)) {
      ColumnFamilyHandle old =
          db.createColumnFamily(new ColumnFamilyDescriptor("space:old".getBytes(UTF_8)));
      byte[] payload = "from before".getBytes(UTF_8);
      db.put(old, CompositeKey.encode(KEY),
          ByteBuffer.allocate(8 + payload.length).putLong(1).put(payload).array());
      old.close();
      handles.forEach(ColumnFamilyHandle::close);
    }
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
