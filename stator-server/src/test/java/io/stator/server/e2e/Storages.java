package io.stator.server.e2e;

import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.nio.file.Path;

/** Opens the storage engine of a {@link Target}. */
final class Storages {
  private Storages() {}

  static Storage open(Target target, Path dataDirectory) {
    return switch (target) {
      case MEMORY -> new MemoryStorage();
      case ROCKSDB -> RocksDbStorage.open(dataDirectory);
      // The data directory's name names the run's store in the node's one keyspace: a restart
      // on the same directory opens the same store, another run a fresh one.
      case CASSANDRA -> CassandraForTests.open(dataDirectory.getFileName().toString());
      case EXTERNAL -> throw new IllegalArgumentException("an external endpoint has no storage");
    };
  }
}
