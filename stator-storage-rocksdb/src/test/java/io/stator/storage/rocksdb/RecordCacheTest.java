package io.stator.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The rules that keep {@link RecordCache} exact while readers and commits race. */
class RecordCacheTest {
  // The cache compares handles by identity only; the tests never touch RocksDB through them.
  private static final org.rocksdb.ColumnFamilyHandle SPACE = null;

  private static RecordCache.Slot slot(String key) {
    return new RecordCache.Slot(SPACE, StorageKey.of(key.getBytes(StandardCharsets.UTF_8)));
  }

  private static StoredRecord record(RecordCache.Slot slot, long version, int size) {
    return new StoredRecord(slot.key(), version, new byte[size]);
  }

  /**
   * A reader's fill at the key's second miss, which admission lets through: what the cache then
   * holds is decided by the exactness rules alone.
   */
  private static void fillTwice(RecordCache cache, RecordCache.Slot k, StoredRecord r, long seen) {
    cache.fill(k, r, seen);
    cache.fill(k, r, seen);
  }

  @Test
  void aFillNeverReplacesWhatACommitPut() {
    RecordCache cache = new RecordCache(1 << 20);
    RecordCache.Slot k = slot("k");
    cache.written(k, record(k, 7, 10), 7);
    fillTwice(cache, k, record(k, 3, 10), 6); // a reader that read before commit 7 landed
    assertThat(cache.get(k).record().version()).isEqualTo(7);
  }

  @Test
  void aCommitReplacesWhatAReaderFilled() {
    RecordCache cache = new RecordCache(1 << 20);
    RecordCache.Slot k = slot("k");
    fillTwice(cache, k, record(k, 3, 10), 5);
    assertThat(cache.get(k).record().version()).isEqualTo(3);
    cache.written(k, null, 6); // deleted
    assertThat(cache.get(k)).isNotNull();
    assertThat(cache.get(k).record()).isNull();
  }

  @Test
  void aFillFromBeforeAnEvictedCommitIsRefused() {
    // Room for about two entries per segment: later puts evict earlier ones.
    RecordCache cache = new RecordCache(16 * 2 * 300);
    RecordCache.Slot k = slot("k");
    cache.written(k, record(k, 9, 100), 9);
    // Enough other commits to evict k, whatever segment it is in (without touching k, which
    // would make it the most recently used).
    for (int i = 0; i < 2000; i++) {
      RecordCache.Slot other = slot("other" + i);
      cache.written(other, record(other, 10 + i, 100), 10 + i);
    }
    assertThat(cache.get(k)).isNull();
    // A reader that began before commit 9 may have read the older state: refused, also at the
    // key's second miss, when a fill would otherwise go in.
    fillTwice(cache, k, record(k, 4, 100), 8);
    assertThat(cache.get(k)).isNull();
  }

  @Test
  void aFillFromAfterEveryEvictedCommitIsAccepted() {
    RecordCache cache = new RecordCache(16 * 2 * 300);
    RecordCache.Slot k = slot("k");
    long version = 1;
    for (int i = 0; i < 200; i++, version++) {
      RecordCache.Slot other = slot("other" + i);
      cache.written(other, record(other, version, 100), version);
    }
    fillTwice(cache, k, record(k, 1, 100), version);
    assertThat(cache.get(k).record().version()).isEqualTo(1);
  }

  @Test
  void aFillGoesInAtTheKeysSecondMiss() {
    RecordCache cache = new RecordCache(1 << 20);
    RecordCache.Slot k = slot("k");
    cache.fill(k, record(k, 1, 10), 1);
    assertThat(cache.get(k)).isNull();
    cache.fill(k, record(k, 1, 10), 1);
    assertThat(cache.get(k).record().version()).isEqualTo(1);
    // A commit's entry needs no second time: it must replace whatever a reader could fill.
    RecordCache.Slot w = slot("w");
    cache.written(w, record(w, 2, 10), 2);
    assertThat(cache.get(w).record().version()).isEqualTo(2);
  }

  @Test
  void keysMissedOnceMostlyStayOutAndGoInAtTheirSecondMiss() {
    // Room for every key: what is missing was turned away, not evicted.
    RecordCache cache = new RecordCache(64 << 20);
    int keys = 200_000;
    for (int i = 0; i < keys; i++) {
      RecordCache.Slot k = slot("key" + i);
      cache.fill(k, record(k, 1, 10), 1);
    }
    // Only keys whose bit another key set first go in: at most one in eight.
    assertThat(cached(cache, keys)).isLessThan(keys / 8);
    for (int i = 0; i < keys; i++) {
      RecordCache.Slot k = slot("key" + i);
      cache.fill(k, record(k, 1, 10), 1);
    }
    assertThat(cached(cache, keys)).isEqualTo(keys);
  }

  private static int cached(RecordCache cache, int keys) {
    int cached = 0;
    for (int i = 0; i < keys; i++) {
      cached += cache.get(slot("key" + i)) == null ? 0 : 1;
    }
    return cached;
  }

  @Test
  void staysWithinItsBudget() {
    long budget = 64 * 1024;
    RecordCache cache = new RecordCache(budget);
    int kept = 0;
    for (int i = 0; i < 10_000; i++) {
      RecordCache.Slot k = slot("key" + i);
      cache.written(k, record(k, i + 1, 1000), i + 1);
    }
    for (int i = 0; i < 10_000; i++) {
      if (cache.get(slot("key" + i)) != null) {
        kept++;
      }
    }
    // Each entry is over 1 KB: at most budget / 1 KB of them stay, and the most recent do.
    assertThat(kept).isBetween(1, (int) (budget / 1000));
    assertThat(cache.get(slot("key9999"))).isNotNull();
  }

  @Test
  void clearRefusesFillsFromReadersThatBeganBefore() {
    RecordCache cache = new RecordCache(1 << 20);
    RecordCache.Slot k = slot("k");
    cache.written(k, record(k, 5, 10), 5);
    cache.clear(6);
    assertThat(cache.get(k)).isNull();
    fillTwice(cache, k, record(k, 5, 10), 5);
    assertThat(cache.get(k)).isNull();
    fillTwice(cache, k, record(k, 5, 10), 6);
    assertThat(cache.get(k)).isNotNull();
  }
}
