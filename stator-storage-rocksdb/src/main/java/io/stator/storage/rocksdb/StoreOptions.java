package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.RocksDbStorage.push;

import java.util.Deque;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.HyperClockCache;
import org.rocksdb.RocksObject;
import org.rocksdb.WriteBufferManager;

/**
 * The RocksDB options of a store, and why each is set: the block cache the memtables are charged
 * to, the Bloom filters, the options of every space's column family and of the database. Each
 * native object made is pushed on {@code natives}, which the store closes when it closes (or the
 * open, when it fails).
 *
 * @param spaces the options of every column family
 * @param store the database's options
 */
record StoreOptions(ColumnFamilyOptions spaces, DBOptions store) {
  private static final long MAX_WRITE_BUFFER_BYTES = 64L << 20;
  // The length of the key prefix the Bloom filters index besides whole keys: a partition key's
  // bytes start with its 8-byte hash (KeyCodec), escaped into at least 8 bytes of the RocksDB key.
  static final int PREFIX_BYTES = 8;

  /**
   * The options of a store with {@code memoryBytes} for its caches, {@code recordCacheBytes} of
   * them for the record cache, which is not RocksDB's (see RocksDbStorage, "Memory").
   */
  static StoreOptions create(long memoryBytes, long recordCacheBytes, Deque<RocksObject> natives) {
    // A lock-free cache: two event loops reading blocks contend on no shard mutex (an LRU
    // cache's lookups were 11% of a Query's CPU at 10M items).
    long cacheBytes = memoryBytes - recordCacheBytes;
    long writeBufferBytes = Math.min(MAX_WRITE_BUFFER_BYTES, memoryBytes / 4);
    Cache cache = push(natives, new HyperClockCache(cacheBytes, 0, -1, false));
    BloomFilter bloom = push(natives, new BloomFilter(10));
    WriteBufferManager writeBuffers =
        push(natives, new WriteBufferManager(writeBufferBytes, cache));
    ColumnFamilyOptions spaceOptions =
        push(
            natives,
            new ColumnFamilyOptions()
                .setWriteBufferSize(16L << 20)
                // No Bloom filter on a new space's memtables: every memtable would take one
                // from the budget all memtables share, empty or not, and ~60 small tables kept
                // that budget spent. A space gets one once its reads show it large (see
                // MemtableFilters).
                // The files' Bloom filters also hold each key's first PREFIX_BYTES, which a
                // partition key's hash fills (see RocksDbStorage.range()): a Query skips every
                // file that has nothing of its partition, where it sought in each (Query at 10M
                // items soon after a bulk load, with level-0 files not yet compacted: 85 -> 61
                // us).
                .useFixedLengthPrefixExtractor(PREFIX_BYTES)
                .setTableFormatConfig(
                    // Each file's index and Bloom filter live with the open file, outside the
                    // block cache (~25 MB at 10M items), so a point read looks up one block in
                    // the cache, the data block, and finds its key there through the block's
                    // hash index. Kept in the cache instead, a whole filter larger than one
                    // shard of it was never kept and was read again from the file on every
                    // point read (a bulk load fell from 20,000 to 4,000 items/s at 2M items);
                    // partitioned into the cache, each read paid three cache lookups: GetItem
                    // cost 17.5-23.5 us of CPU at 10M items against 11.1-11.6 us now
                    // (docs/performance.md, "Scale").
                    new BlockBasedTableConfig()
                        .setBlockCache(cache)
                        .setFilterPolicy(bloom)
                        .setCacheIndexAndFilterBlocks(false)
                        .setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash)));
    DBOptions dbOptions =
        push(
            natives,
            new DBOptions()
                .setCreateIfMissing(true)
                // Commits leave their WAL records in RocksDB's buffer; awaitDurable writes the
                // buffer to the file, once for every commit since the last (see RocksDbStorage,
                // "Durability").
                .setManualWalFlush(true)
                // Commits write one at a time (the commit lock), so the memtables need not
                // take concurrent inserts, whose atomic steps cost every insert: PutItem on the
                // load benchmark used 10% less CPU without them.
                .setAllowConcurrentMemtableWrite(false)
                .setCreateMissingColumnFamilies(true)
                .setWriteBufferManager(writeBuffers)
                // A write-ahead log file can go only when every column family with writes in
                // it has flushed them; the catalog's and the metadata's rarely fill a memtable,
                // so without a bound the logs grew by hundreds of megabytes under a write load,
                // all of it replayed by the next open. Past this size RocksDB flushes the column
                // families that hold the oldest log.
                .setMaxTotalWalSize(writeBufferBytes)
                // A bounded number of open files, in a table cache of 16 shards: without a
                // bound every file stays open, and a store of many tables took descriptors
                // without end (see maxOpenFiles).
                .setMaxOpenFiles(RocksDbStorage.maxOpenFiles())
                .setTableCacheNumshardbits(4)
                .setKeepLogFileNum(5));
    return new StoreOptions(spaceOptions, dbOptions);
  }
}
