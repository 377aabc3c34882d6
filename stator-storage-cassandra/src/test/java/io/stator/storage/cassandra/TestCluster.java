package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The one Cassandra node of a test run: started by the first test that asks for it, shared by
 * every test class of the JVM, stopped when the JVM exits. Its directory is under {@code
 * target/cassandra-node} (its {@code system.log} is there when a test fails).
 */
final class TestCluster {
  static final String KEYSPACE = "stator_test";
  private static CassandraNode node;
  private static CqlSession session;
  private static Duration startTime;

  private TestCluster() {}

  static synchronized CqlSession session() {
    if (session == null) {
      Path dir = Path.of("target", "cassandra-node").toAbsolutePath();
      deleteRecursively(dir);
      long started = System.nanoTime();
      node = CassandraNode.in(dir).tiedToThisProcess().start(Duration.ofMinutes(3));
      startTime = Duration.ofNanos(System.nanoTime() - started);
      System.out.println("Cassandra node ready in " + startTime.toMillis() + " ms at " + node.contactPoint());
      Runtime.getRuntime().addShutdownHook(new Thread(TestCluster::stop, "cassandra-node-stop"));
      session = CassandraStorage.session(List.of(node.contactPoint()), "datacenter1");
      long ddl = System.nanoTime();
      CassandraStorage.createSchema(
          session, KEYSPACE, "{'class': 'SimpleStrategy', 'replication_factor': 1}");
      System.out.println("Schema created in " + (System.nanoTime() - ddl) / 1_000_000 + " ms");
    }
    return session;
  }

  private static synchronized void stop() {
    if (session != null) {
      session.close();
    }
    if (node != null) {
      node.stop();
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
