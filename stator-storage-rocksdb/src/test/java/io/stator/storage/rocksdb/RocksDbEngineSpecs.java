package io.stator.storage.rocksdb;

import io.stator.engine.EngineSpec;
import java.util.List;

/**
 * The engine tests' spec on RocksDB: the core's {@code EngineTest}s run once more on this
 * storage (the surefire execution {@code engine-on-rocksdb} of this module).
 */
public final class RocksDbEngineSpecs implements EngineSpec.Provider {
  @Override
  public String storage() {
    return "rocksdb";
  }

  @Override
  public List<EngineSpec> specs() {
    return List.of(new EngineSpec("rocksdb", RocksDbStorage::open, options -> options));
  }
}
