package io.stator.storage.rocksdb;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Gives the memtables of a space a Bloom filter of their keys once point reads of the space have
 * gone to RocksDB many times.
 *
 * <p>Every point read of a key that the memtables do not hold descends their skip lists before it
 * looks in the files: for a large table, most reads (a full 16 MB memtable holds ~80,000 small
 * items). A filter spares those descents: GetItem over 2M items cost 33-52 against 46-51 µs of
 * CPU with one (docs/performance.md, "Scale"). But RocksDB makes a memtable's filter
 * with the memtable, empty or not, and charges it to the budget that all memtables share; a
 * filter on every table's memtables kept that budget spent with ~60 tables, and every write then
 * flushed a memtable. So only a space whose reads missed the record cache {@value #READS} times
 * gets one, from its next memtable on, and with arena blocks of {@value #ARENA_BLOCK_BYTES}
 * bytes: an allocation over a quarter of the arena's block size gets a block of exactly its own
 * size, so the filter is charged its 164 KB rather than a 1 MB block.
 *
 * <p>A store opens with no filters; each space earns its filter again.
 */
final class MemtableFilters {
  /** Point reads from RocksDB after which a space's memtables get a filter. */
  static final long READS = 100_000;
  /** The filter's share of a 16 MB memtable: 164 KB, ~15 bits per key when the memtable is full. */
  private static final double FILTER_RATIO = 0.01;
  private static final long ARENA_BLOCK_BYTES = 512 << 10;

  private final RocksDB db;
  private final Map<String, AtomicLong> reads = new ConcurrentHashMap<>();

  MemtableFilters(RocksDB db) {
    this.db = db;
  }

  /** Counts a point read of the space that went to RocksDB; call it while the handle is open. */
  void read(String space, ColumnFamilyHandle handle) {
    AtomicLong count = reads.computeIfAbsent(space, s -> new AtomicLong());
    // Past the threshold the count is only read: two event loops do not take turns writing it.
    if (count.get() < READS && count.incrementAndGet() == READS) {
      try {
        db.setOptions(
            handle,
            MutableColumnFamilyOptions.builder()
                .setMemtablePrefixBloomSizeRatio(FILTER_RATIO)
                .setMemtableWholeKeyFiltering(true)
                .setArenaBlockSize(ARENA_BLOCK_BYTES)
                .build());
      } catch (RocksDBException e) {
        // The filter only makes reads cheaper: the read that asked for it goes on without one.
      }
    }
  }

  /** Forgets a dropped space's reads, so that a new space of its name starts without a filter. */
  void forget(String space) {
    reads.remove(space);
  }
}
