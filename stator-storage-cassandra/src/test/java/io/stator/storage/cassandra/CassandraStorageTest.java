package io.stator.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.Commit;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageContract;
import io.stator.storage.StorageKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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

  /** The default copy, page by page, is one instant only for a source no one writes. */
  @Override
  protected boolean copiesAtOneInstant() {
    return false;
  }

  /** Every instance opened on one directory's name is on one store, as another process's is. */
  @Override
  protected Sharing sharing() {
    return Sharing.SHARED;
  }

  /**
   * Stats are summed from each record's stored size, not its value: exact after overwrites that
   * change a value's size, deletes, and records in many buckets.
   */
  @Test
  void statsAreTheSizesOfTheRecordsStoredNow() {
    storage.createSpace("t");
    Commit fill = new Commit();
    long bytes = 0;
    for (int i = 0; i < 300; i++) {
      StorageKey k = new StorageKey(bytes(i % 256, i / 256), b("s"));
      fill.put("t", k, new byte[i]);
      bytes += 2 + 1 + i;
    }
    storage.commit(fill);
    assertThat(storage.stats("t")).isEqualTo(new SpaceStats(300, bytes));

    StorageKey grown = new StorageKey(bytes(7, 0), b("s"));
    StorageKey gone = new StorageKey(bytes(200, 0), b("s"));
    storage.commit(new Commit().put("t", grown, new byte[1000]).delete("t", gone));
    assertThat(storage.stats("t"))
        .isEqualTo(new SpaceStats(299, bytes - 7 + 1000 - (2 + 1 + 200)));
  }
}
