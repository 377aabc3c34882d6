package io.stator.server.e2e;

import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;

/** Opens the storage engine of a {@link Target}. */
final class Storages {
  private Storages() {}

  static Storage open(Target target, Path dataDirectory) {
    return switch (target) {
      case MEMORY -> new MemoryStorage();
      case ROCKSDB -> rocksDb(dataDirectory);
      case EXTERNAL -> throw new IllegalArgumentException("an external endpoint has no storage");
    };
  }

  /**
   * {@code io.stator.storage.rocksdb.RocksDbStorage.open(Path)}, called by name so that this suite
   * compiles while the RocksDB module is still being written; replace with the direct call once
   * the class exists on every branch.
   */
  private static Storage rocksDb(Path dataDirectory) {
    try {
      Class<?> type = Class.forName("io.stator.storage.rocksdb.RocksDbStorage");
      return (Storage) type.getMethod("open", Path.class).invoke(null, dataDirectory);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("cannot open RocksDB storage", e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "io.stator.storage.rocksdb.RocksDbStorage.open(Path) is not available yet", e);
    }
  }
}
