package io.stator.server;

import io.stator.storage.Storage;
import java.nio.file.Path;

/** Opens the durable RocksDB storage. */
final class RocksDb {
  private RocksDb() {}

  static Storage open(Path directory) {
    // Until the RocksDB storage lands, the default path refuses clearly.
    throw new UnsupportedOperationException(
        "the RocksDB storage is not available in this build; use --in-memory");
  }
}
