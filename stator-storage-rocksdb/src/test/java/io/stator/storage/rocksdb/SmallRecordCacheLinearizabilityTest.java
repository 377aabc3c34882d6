package io.stator.storage.rocksdb;

import io.stator.engine.LinearizabilityTest;
import io.stator.storage.Storage;
import java.nio.file.Path;

/**
 * The single-item linearizability workload on RocksDB with a record cache too small for the keys
 * it touches, so that entries are evicted and refilled by readers while commits land.
 */
class SmallRecordCacheLinearizabilityTest extends LinearizabilityTest {
  @Override
  protected Storage open(Path dir) {
    return RocksDbStorage.open(dir, RocksDbStorage.MIN_MEMORY_BYTES, 4 * 1024);
  }
}
