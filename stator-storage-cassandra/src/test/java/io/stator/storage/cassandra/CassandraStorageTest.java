package io.stator.storage.cassandra;

import io.stator.storage.Storage;
import io.stator.storage.StorageContract;
import java.nio.file.Path;

/**
 * The whole storage contract on one Cassandra node. Each storage the contract opens is a store of
 * its own, named by its directory, in one shared keyspace: a fresh directory is a fresh, empty
 * store, and reopening the same directory reopens the same store, as durable as Cassandra.
 */
class CassandraStorageTest extends StorageContract {
  @Override
  protected Storage open(Path dir) {
    return CassandraStorage.open(TestCluster.session(), TestCluster.KEYSPACE, dir.toString());
  }

  /**
   * A fifth: eight threads on one key make every Accord transaction wait on the others', and on a
   * loaded two-core machine the full 2,400 attempts took a transaction past the driver's 12 s
   * timeout (once in four builds).
   */
  @Override
  protected int contended(int attempts) {
    return Math.max(1, attempts / 5);
  }

  /** Every instance opened on one directory's name is on one store, as another process's is. */
  @Override
  protected Sharing sharing() {
    return Sharing.SHARED;
  }
}
