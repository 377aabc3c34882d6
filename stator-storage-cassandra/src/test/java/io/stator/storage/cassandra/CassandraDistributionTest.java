package io.stator.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteTableRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.PutItemRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.value.AttributeValue;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How a table's rows spread over a cluster's nodes: a measurement on a cluster the caller starts,
 * skipped unless {@code -Dstator.cassandra.cluster} names its contact points, so not part of the
 * build. On three nodes (see docs/cassandra.md):
 *
 * <pre>
 * ./stator cassandra start --nodes 3 --dir /tmp/c3 --heap 768m
 * ./mvnw -pl stator-storage-cassandra -am test -Dtest=CassandraDistributionTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dstator.cassandra.cluster=127.0.0.1:9042
 * ./stator cassandra stop --dir /tmp/c3
 * </pre>
 *
 * It loads 10,000 items over 1,000 partition keys into a table with one global secondary index
 * through the engine, in a keyspace of replication factor 1 made for the run, then counts the
 * table's and the index's rows on each node: each bucket's rows, placed on the node that owns
 * the bucket's token in the driver's token map. Each node must hold between 20% and 50% of
 * either's rows (on three nodes; on {@code n}, between 0.6/n and 1.5/n).
 */
class CassandraDistributionTest {
  private static final String CLUSTER = "stator.cassandra.cluster";
  private static final int ITEMS = 10_000;
  private static final int PARTITION_KEYS = 1_000;

  @Test
  void aTableAndItsIndexSpreadOverEveryNode() throws Exception {
    String cluster = System.getProperty(CLUSTER, "");
    assumeTrue(!cluster.isBlank(), "-D" + CLUSTER + "=host:port,... names no cluster");
    List<InetSocketAddress> contactPoints = new ArrayList<>();
    for (String hostPort : cluster.split(",")) {
      String[] parts = hostPort.trim().split(":");
      contactPoints.add(new InetSocketAddress(parts[0], Integer.parseInt(parts[1])));
    }
    // Cassandra refuses to drop a keyspace of Accord tables, so runs share one, each a store of
    // its own, which drops its table at the end.
    String keyspace = "stator_distribution";
    String store = "distribution-" + System.currentTimeMillis();
    CassandraStorage storage = CassandraStorage.connect(contactPoints, "datacenter1", keyspace,
        "{'class': 'SimpleStrategy', 'replication_factor': 1}", store);
    EngineOptions defaults = EngineOptions.defaults();
    try (Engine engine = new Engine(storage, defaults);
        CqlSession session = CassandraStorage.session(contactPoints, "datacenter1")) {
      engine.createTable(new CreateTableRequest(
          "Orders",
          List.of(new AttributeDefinition("customer", "S"), new AttributeDefinition("order", "S"),
              new AttributeDefinition("status", "S")),
          List.of(new KeySchemaElement("customer", "HASH"), new KeySchemaElement("order", "RANGE")),
          null,
          List.of(new GlobalSecondaryIndex("ByStatus",
              List.of(new KeySchemaElement("status", "HASH"),
                  new KeySchemaElement("order", "RANGE")),
              new Projection("ALL", null), null)),
          "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
      long started = System.nanoTime();
      load(engine);
      assertThat(engine.awaitIndexes(Duration.ofMinutes(5))).isTrue();
      System.out.printf("loaded %d items in %d s%n", ITEMS,
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));

      Map<String, UUID> spaces = new TreeMap<>();
      for (Row row : session.execute(
          "SELECT name, id FROM " + keyspace + ".spaces WHERE store = '" + store + "'")) {
        spaces.put(row.getString(0), row.getUuid(1));
      }
      Set<Node> nodes = Set.copyOf(session.getMetadata().getNodes().values());
      System.out.println("nodes: " + nodes.size());
      for (String prefix : List.of("table.", "index.")) {
        String space = spaces.keySet().stream().filter(s -> s.startsWith(prefix))
            .findFirst().orElseThrow();
        Map<Node, Long> rows = new HashMap<>();
        Map<Node, Long> buckets = new HashMap<>();
        countByNode(session, keyspace, spaces.get(space), rows, buckets);
        long total = rows.values().stream().mapToLong(Long::longValue).sum();
        assertThat(total).as("rows of " + space).isEqualTo(ITEMS);
        for (Node node : nodes) {
          long mine = rows.getOrDefault(node, 0L);
          double share = (double) mine / total;
          System.out.printf("%s %s: %d rows, %.1f%%, in %d buckets%n", prefix, node.getEndPoint(),
              mine, 100 * share, buckets.getOrDefault(node, 0L));
          assertThat(share).as("share of %s on %s", space, node.getEndPoint())
              .isBetween(0.6 / nodes.size(), 1.5 / nodes.size());
        }
      }
      engine.deleteTable(new DeleteTableRequest("Orders"));
    }
  }

  /** 10,000 PutItems over 1,000 customers, from eight threads. */
  private static void load(Engine engine) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int first = t;
        writers.add(pool.submit(() -> {
          for (int i = first; i < ITEMS; i += 8) {
            Map<String, AttributeValue> item = Map.of(
                "customer", new AttributeValue.S("customer-" + (i % PARTITION_KEYS)),
                "order", new AttributeValue.S("order-" + i),
                "status", new AttributeValue.S("status-" + (i * 7919 % PARTITION_KEYS)));
            engine.putItem(new PutItemRequest(
                "Orders", item, null, null, null, null, null, null, null, null, null));
          }
          return null;
        }));
      }
      for (Future<?> writer : writers) {
        writer.get(30, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Each bucket's rows of the space, counted on the node that owns the bucket's token, and the
   * buckets holding rows on each node.
   */
  private static void countByNode(CqlSession session, String keyspace, UUID space,
      Map<Node, Long> rows, Map<Node, Long> buckets) {
    TokenMap tokens = session.getMetadata().getTokenMap().orElseThrow();
    PreparedStatement count = session.prepare(
        "SELECT partition FROM " + keyspace + ".records WHERE space = ? AND bucket = ?");
    for (int bucket = 0; bucket < ScanRange.BUCKETS; bucket++) {
      long n = 0;
      for (Row ignored : session.execute(count.bind(space, bucket))) {
        n++;
      }
      if (n == 0) {
        continue;
      }
      ByteBuffer spaceBytes = TypeCodecs.UUID.encode(space, ProtocolVersion.DEFAULT);
      ByteBuffer bucketBytes = TypeCodecs.INT.encode(bucket, ProtocolVersion.DEFAULT);
      Token token = tokens.newToken(spaceBytes, bucketBytes);
      Set<Node> replicas = tokens.getReplicas(
          CqlIdentifier.fromInternal(keyspace), token);
      assertThat(replicas).as("replicas of bucket %d", bucket).hasSize(1);
      rows.merge(replicas.iterator().next(), n, Long::sum);
      buckets.merge(replicas.iterator().next(), 1L, Long::sum);
    }
  }
}
