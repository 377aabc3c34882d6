package io.stator.storage.memory;

import io.stator.storage.Storage;
import io.stator.storage.StorageContract;
import java.nio.file.Path;

class MemoryStorageTest extends StorageContract {
  @Override
  protected Storage open(Path dir) {
    return new MemoryStorage();
  }

  @Override
  protected boolean durable() {
    return false;
  }
}
