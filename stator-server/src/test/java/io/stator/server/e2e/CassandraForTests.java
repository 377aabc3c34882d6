package io.stator.server.e2e;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.stator.storage.cassandra.CassandraNode;
import io.stator.storage.cassandra.CassandraStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The one Cassandra node of the end-to-end suite: started by the first test class that runs on
 * {@link Target#CASSANDRA}, shared by all the others of the test JVM (a node takes 20-50 s to
 * start, so one per class would cost more than the tests), stopped when the JVM exits. Its
 * directory is {@code target/cassandra-e2e-node}, where its {@code system.log} stays after a
 * failure. Each endpoint opens a store of its own in the one keyspace, so runs share nothing.
 */
final class CassandraForTests {
  static final String KEYSPACE = "stator_e2e";
  private static CassandraNode node;
  private static CqlSession session;

  private CassandraForTests() {}

  /** The node's session, the keyspace and Stator's tables created in it. */
  static synchronized CqlSession session() {
    if (session == null) {
      Path dir = Path.of("target", "cassandra-e2e-node").toAbsolutePath();
      if (Files.exists(dir)) {
        DynamoDbEndpoint.deleteRecursively(dir);
      }
      node = CassandraNode.in(dir).tiedToThisProcess().start(Duration.ofMinutes(3));
      Runtime.getRuntime().addShutdownHook(new Thread(CassandraForTests::stop, "e2e-cassandra-stop"));
      CqlSession opened = CassandraStorage.session(List.of(node.contactPoint()), "datacenter1");
      createSchema(opened);
      session = opened;
    }
    return session;
  }

  /**
   * Creates the keyspace and Stator's tables. The first Accord transaction on a fresh node's new
   * table (the layout version's insert) can time out on the node while Accord takes up the new
   * schema: seen once with the machine's load at 20 on two cores. Creating the schema is
   * idempotent (a keyspace left half made is finished by the next call), so a timeout is tried
   * again, up to three times in all; this sets the fixture up and asserts nothing.
   */
  private static void createSchema(CqlSession opened) {
    for (int attempt = 1; ; attempt++) {
      try {
        CassandraStorage.createSchema(
            opened, KEYSPACE, "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        return;
      } catch (WriteTimeoutException | DriverTimeoutException e) {
        if (attempt == 3) {
          throw e;
        }
      }
    }
  }

  /** The store {@code store} in the suite's keyspace; closing it leaves the session open. */
  static CassandraStorage open(String store) {
    return CassandraStorage.open(session(), KEYSPACE, store);
  }

  /** The node's process, started with the session if it is not yet. */
  static synchronized long nodePid() {
    session();
    return node.pid();
  }

  private static synchronized void stop() {
    if (session != null) {
      session.close();
    }
    if (node != null) {
      node.stop();
    }
  }
}
