package io.stator.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StorageContract;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class MemoryStorageTest extends StorageContract {
  @Override
  protected Storage open(Path dir) {
    return new MemoryStorage();
  }

  @Override
  protected Sharing sharing() {
    return Sharing.NONE;
  }

  @Override
  protected boolean durable() {
    return false;
  }

  /**
   * Point reads use the hash index, range reads the ordered map: on one key, neither may see an
   * older version than the other showed before it, while a writer keeps replacing and deleting
   * the key (GetItem and Query of the same item stay linearizable).
   */
  @Test
  void pointAndRangeReadsOfOneKeyNeverGoBackInTime() throws InterruptedException {
    MemoryStorage storage = new MemoryStorage();
    storage.createSpace("s");
    byte[] partition = "0123456789p".getBytes();
    StorageKey key = new StorageKey(partition, new byte[] {1});
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> failure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      for (int i = 0; !stop.get(); i++) {
        Commit commit = new Commit();
        if (i % 5 == 4) {
          commit.delete("s", key);
        } else {
          commit.put("s", key, new byte[] {(byte) i});
        }
        storage.commit(commit);
      }
    });
    writer.start();
    try {
      long seen = 0; // the greatest version any read returned so far (deletes show as absent)
      int reads = 0;
      for (; reads < 200_000 && failure.get() == null; reads++) {
        long version;
        if (reads % 2 == 0) {
          version = storage.get("s", key).map(StoredRecord::version).orElse(-1L);
        } else {
          List<StoredRecord> range = storage.query("s", partition, null, null, true, 10);
          version = range.isEmpty() ? -1 : range.get(0).version();
        }
        if (version >= 0) {
          if (version < seen) {
            failure.set("read version " + version + " after " + seen + " at read " + reads);
          }
          seen = version;
        }
      }
      assertThat(reads).isPositive();
    } finally {
      stop.set(true);
      writer.join();
    }
    assertThat(failure.get()).isNull();
    // Both reads agree once the writer stopped, on a value known to be there (the writer's last
    // commit may have been a delete, which an index that finds nothing would also agree with).
    storage.commit(new Commit().put("s", key, new byte[] {42}));
    assertThat(storage.get("s", key)).get()
        .satisfies(r -> assertThat(r.value()).containsExactly(42));
    assertThat(storage.get("s", key).map(StoredRecord::version).orElse(-1L))
        .isEqualTo(storage.query("s", partition, null, null, true, 10).stream()
            .mapToLong(StoredRecord::version).findFirst().orElse(-1L));
  }

  /**
   * Partitions change shape as records come and go (none, one record held alone, a tree of
   * several, back to one, empty and dropped): after every step of a random sequence of puts and
   * deletes over a few partitions, with and without sort keys, Query of each partition, a paged
   * Scan and point reads give exactly what a sorted model of the records gives.
   */
  @Test
  void partitionsMatchASortedModelThroughPutsAndDeletes() {
    MemoryStorage storage = new MemoryStorage();
    storage.createSpace("s");
    TreeMap<StorageKey, String> model = new TreeMap<>();
    Random random = new Random(8);
    byte[][] partitions = {
      "01234567a".getBytes(), "01234567ab".getBytes(), "7654321xa".getBytes(), {1}, {1, 0}
    };
    byte[][] sorts = {{}, {0}, {1}, {1, 0}, {2}, {(byte) 0xff}};
    for (int step = 0; step < 2000; step++) {
      StorageKey key = new StorageKey(
          partitions[random.nextInt(partitions.length)], sorts[random.nextInt(sorts.length)]);
      if (random.nextInt(3) == 0) {
        storage.commit(new Commit().delete("s", key));
        model.remove(key);
      } else {
        String value = "v" + step;
        storage.commit(new Commit().put("s", key, value.getBytes()));
        model.put(key, value);
      }
      for (byte[] partition : partitions) {
        List<String> expected = new ArrayList<>();
        model.forEach((k, v) -> {
          if (Arrays.equals(k.partition(), partition)) {
            expected.add(v);
          }
        });
        assertThat(values(storage.query("s", partition, null, null, true, 100)))
            .isEqualTo(expected);
        List<String> reversed = new ArrayList<>(expected);
        Collections.reverse(reversed);
        assertThat(values(storage.query("s", partition, null, null, false, 100)))
            .isEqualTo(reversed);
      }
      List<String> scanned = new ArrayList<>();
      StorageKey after = null;
      while (true) {
        List<StoredRecord> page = storage.scan("s", null, null, after, 3);
        scanned.addAll(values(page));
        if (page.size() < 3) {
          break;
        }
        after = page.get(page.size() - 1).key();
      }
      assertThat(scanned).isEqualTo(new ArrayList<>(model.values()));
      assertThat(storage.get("s", key).map(r -> new String(r.value())))
          .isEqualTo(Optional.ofNullable(model.get(key)));
      assertThat(storage.stats("s").records()).isEqualTo(model.size());
    }
  }

  private static List<String> values(List<StoredRecord> records) {
    return records.stream().map(r -> new String(r.value())).toList();
  }
}
