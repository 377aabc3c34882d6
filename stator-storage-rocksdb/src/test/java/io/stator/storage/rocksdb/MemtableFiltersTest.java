package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which spaces get a Bloom filter on their memtables, and that reads through one stay exact. */
class MemtableFiltersTest {
  @TempDir Path dir;

  @Test
  void aSpaceReadOftenFromRocksDbGetsAFilterAndReadsThroughItExactly() {
    // A record cache of 4 KB: nearly every read goes to RocksDB.
    try (RocksDbStorage storage =
        RocksDbStorage.open(dir, RocksDbStorage.MIN_MEMORY_BYTES, 4096)) {
      storage.createSpace("big");
      storage.createSpace("small");
      storage.commit(new Commit().put("small", key("a"), bytes("v")));
      for (int i = 0; i < MemtableFilters.READS - 1; i++) {
        assertThat(storage.get("big", key("absent" + i))).isEmpty();
      }
      assertThat(storage.memtableFilterRatio("big")).isZero();
      assertThat(storage.get("big", key("absent"))).isEmpty();
      assertThat(storage.memtableFilterRatio("big")).isPositive();
      assertThat(storage.memtableFilterRatio("small")).isZero();

      // 20 MB fill the memtable made before the filter; the next one has it.
      byte[] filler = new byte[4096];
      for (int i = 0; i < 5_000; i++) {
        storage.commit(new Commit().put("big", key("filler" + i), filler));
      }
      for (int i = 0; i < 1_000; i++) {
        storage.commit(new Commit().put("big", key("k" + i), bytes("v" + i)));
      }
      for (int i = 0; i < 1_000; i += 3) {
        storage.commit(new Commit().delete("big", key("k" + i)));
      }
      storage.commit(new Commit().delete("big", key("filler7")));
      for (int i = 0; i < 1_000; i++) {
        if (i % 3 == 0) {
          assertThat(storage.get("big", key("k" + i))).isEmpty();
        } else {
          assertThat(storage.get("big", key("k" + i)).orElseThrow().value())
              .isEqualTo(bytes("v" + i));
        }
        assertThat(storage.get("big", key("never" + i))).isEmpty();
      }
      assertThat(storage.get("big", key("filler7"))).isEmpty();
      assertThat(storage.get("big", key("filler8")).orElseThrow().value()).isEqualTo(filler);
      assertThat(storage.query("big", bytes("k1"), null, null, true, 10))
          .extracting(r -> new String(r.value(), UTF_8))
          .containsExactly("v1");
      assertThat(storage.query("big", bytes("k3"), null, null, false, 10)).isEmpty();
      assertThat(storage.scan("big", null, null, null, 10_000)).hasSize(5_000 - 1 + 1_000 - 334);
    }
  }

  @Test
  void aDroppedSpaceOfTheSameNameStartsAgainWithoutAFilter() {
    try (RocksDbStorage storage =
        RocksDbStorage.open(dir, RocksDbStorage.MIN_MEMORY_BYTES, 4096)) {
      storage.createSpace("t");
      for (int i = 0; i < MemtableFilters.READS; i++) {
        storage.get("t", key("absent" + i));
      }
      assertThat(storage.memtableFilterRatio("t")).isPositive();
      storage.dropSpace("t");
      storage.createSpace("t");
      assertThat(storage.memtableFilterRatio("t")).isZero();
      for (int i = 0; i < MemtableFilters.READS - 1; i++) {
        storage.get("t", key("absent" + i));
      }
      assertThat(storage.memtableFilterRatio("t")).isZero();
    }
  }

  private static StorageKey key(String partition) {
    return new StorageKey(bytes(partition), bytes("s"));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }
}
