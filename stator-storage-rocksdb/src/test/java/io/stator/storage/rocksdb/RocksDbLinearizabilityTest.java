package io.stator.storage.rocksdb;

import io.stator.engine.LinearizabilityTest;
import io.stator.storage.Storage;
import java.nio.file.Path;

/** The single-item linearizability workload and checker on RocksDB storage. */
class RocksDbLinearizabilityTest extends LinearizabilityTest {
  @Override
  protected Storage open(Path dir) {
    return RocksDbStorage.open(dir);
  }
}
