package io.stator.storage.rocksdb;

import io.stator.storage.Storage;
import io.stator.storage.StorageContract;
import java.nio.file.Path;

class RocksDbStorageTest extends StorageContract {
  @Override
  protected Storage open(Path dir) {
    return RocksDbStorage.open(dir);
  }

  @Override
  protected Sharing sharing() {
    return Sharing.EXCLUSIVE;
  }
}
