package io.stator;

import io.stator.api.Database;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;

/** Entry point of the embedded API. */
public final class Stator {
  private Stator() {}

  /** A database on the given storage; closing the database closes the storage. */
  public static Database open(Storage storage) {
    return new Engine(storage, EngineOptions.defaults());
  }

  /** A database on the given storage with options (region, account id, clock). */
  public static Database open(Storage storage, EngineOptions options) {
    return new Engine(storage, options);
  }

  /** A database in memory: fast, for tests; gone when closed. */
  public static Database inMemory() {
    return open(new MemoryStorage());
  }
}
