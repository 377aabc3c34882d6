package io.stator.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.stator.storage.StorageException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A keyspace records its layout, and Stator refuses one it does not read, saying what to do,
 * rather than mixing layouts.
 */
class LayoutTest {
  private static final String REPLICATION = "{'class': 'SimpleStrategy', 'replication_factor': 1}";

  @Test
  void theTestKeyspaceRecordsThisLayout() {
    CqlSession session = TestCluster.session();
    assertThat(session.execute(
            "SELECT version FROM " + TestCluster.KEYSPACE + ".schema_version WHERE name = 'layout'")
        .one().getInt(0)).isEqualTo(Layout.VERSION);
    // Created again on a keyspace of this layout: nothing to do, nothing refused.
    CassandraStorage.createSchema(session, TestCluster.KEYSPACE, REPLICATION);
  }

  @Test
  void aKeyspaceOfTheFirstLayoutIsRefusedWithWhatToDo() {
    CqlSession session = TestCluster.session();
    String keyspace = "stator_first_layout";
    ddl(session, "CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + REPLICATION);
    ddl(session, "CREATE TABLE IF NOT EXISTS " + keyspace + ".records ("
        + " space uuid, partition blob, sort blob, version bigint, value blob,"
        + " PRIMARY KEY ((space), partition, sort)) WITH transactional_mode = 'full'");

    assertThatThrownBy(() -> CassandraStorage.createSchema(session, keyspace, REPLICATION))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("keyspace " + keyspace + " holds Stator's first layout")
        .hasMessageContaining("start Stator on a new keyspace (--keyspace)");
    assertThatThrownBy(() -> CassandraStorage.open(session, keyspace, "s"))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("first layout");
    assertThat(session.getMetadata().getKeyspace(keyspace).orElseThrow()
        .getTable("schema_version")).as("nothing added to the old keyspace").isEmpty();
  }

  /** An earlier version (the buckets without each record's size) and a later one. */
  @Test
  void aKeyspaceOfAnotherLayoutVersionIsRefused() {
    CqlSession session = TestCluster.session();
    String keyspace = "stator_other_layout";
    CassandraStorage.createSchema(session, keyspace, REPLICATION);
    for (int other : new int[] {Layout.VERSION - 1, Layout.VERSION + 1}) {
      session.execute(SimpleStatement.newInstance(
          "UPDATE " + keyspace + ".schema_version SET version = ? WHERE name = 'layout'", other));

      assertThatThrownBy(() -> CassandraStorage.open(session, keyspace, "s"))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("holds Stator's layout version " + other)
          .hasMessageContaining("new keyspace");
      assertThatThrownBy(() -> CassandraStorage.createSchema(session, keyspace, REPLICATION))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("layout version " + other);
    }
  }

  private static void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(60)));
  }
}
