package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.server.Main;
import io.stator.storage.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Issue 21's faults, on a cluster of {@code stator cassandra start --nodes 3} (bench/servers.sh
 * --faults starts it) with Stator servers in JVMs of their own ({@link ServerProcesses}) on one
 * keyspace at replication factor 3, under {@link MixedLoad} through all of them:
 *
 * <ul>
 *   <li>a Cassandra node killed with SIGKILL and started again: requests go on through the
 *       other two, nothing acknowledged is lost, no stream record is written twice.
 * </ul>
 *
 * Prints what it checked: operations, acknowledged writes verified, anomalies (must be 0).
 *
 * <p>Not one of the build's tests (its name does not end in Test): it runs only when {@code
 * stator.cluster.dir} names the cluster's directory ({@code stator cassandra start --dir}), with
 * {@code stator.cluster} its contact points, {@code stator.cluster.storage-port} and {@code
 * stator.cluster.heap} as it was started with, and {@code stator.faults.servers} servers (3 by default).
 */
@EnabledIfSystemProperty(named = "stator.cluster.dir", matches = ".+")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFaultsCheck {
  private final Path dir = Path.of(System.getProperty("stator.cluster.dir", ""));
  private final String contactPoints = System.getProperty("stator.cluster", "");
  private final int nodes = contactPoints.split(",").length;
  private final Path logs = Path.of("target", "cluster-faults");
  private ServerProcesses servers;
  private final List<DynamoDbClient> clients = new ArrayList<>();
  private final List<DynamoDbStreamsClient> streams = new ArrayList<>();

  @BeforeAll
  void startServers() {
    String keyspace = "faults" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    servers = new ServerProcesses(contactPoints, keyspace, Math.min(3, nodes), logs);
    int count = Integer.getInteger("stator.faults.servers", 3);
    for (int i = 0; i < count; i++) {
      servers.start();
      clients.add(servers.client(i));
      streams.add(servers.streamsClient(i));
    }
    System.out.printf("servers: %d processes, nodes: %d, replication factor: %d, keyspace %s%n",
        count, nodes, Math.min(3, nodes), keyspace);
  }

  @AfterAll
  void stopServers() {
    clients.forEach(DynamoDbClient::close);
    streams.forEach(DynamoDbStreamsClient::close);
    if (servers != null) {
      servers.close();
    }
  }

  /**
   * Under load through every server, the last node is killed with SIGKILL for a minute ({@code
   * stator.faults.node-down-seconds}) and started again, the load going on meanwhile and for 20 s
   * after; then everything acknowledged is read
   * back and checked. Prints the requests answered in each 5 s from the kill.
   */
  @Test
  @Order(1)
  void aNodeKilledUnderLoadLosesNothingAcknowledged() throws Exception {
    int victim = nodes;
    MixedLoad load = new MixedLoad("Node", clients);
    load.start();
    Thread.sleep(10_000);
    long killedAt = System.nanoTime();
    double rateBefore = load.rateBefore(killedAt, 8);
    killNode(victim);
    long down = Long.getLong("stator.faults.node-down-seconds", 60);
    Thread.sleep(TimeUnit.SECONDS.toMillis(down));
    long restartAt = System.nanoTime();
    startNode(victim);
    double restartSeconds = seconds(restartAt);
    Thread.sleep(20_000);
    load.stop();
    List<Long> timeline = load.answeredEvery(killedAt, 5);
    MixedLoad.Figures figures = load.verify();
    long streamAnomalies = load.checkPutsStream(streams.get(0), "node fault");
    System.out.printf("node fault: node %d killed (SIGKILL) under load (%.1f requests/s before);"
            + " started again after %d s, up in %.1f s; requests answered in each 5 s from the"
            + " kill: %s; %d answered by another server after an attempt that failed%n",
        victim, rateBefore, down, restartSeconds, timeline, load.failedOver());
    print("node fault", figures);
    assertThat(timeline.stream().mapToLong(Long::longValue).sum())
        .as("requests answered with a node down or starting").isPositive();
    assertThat(figures.anomalies() + streamAnomalies).isZero();
    assertThat(figures.linearizability().unchecked()).isLessThan(8);
  }

  private static void print(String label, MixedLoad.Figures figures) {
    figures.toString().lines().forEach(line -> System.out.println(label + ": " + line));
  }

  /** SIGKILL of Cassandra node {@code i} (from 1), whose pid its directory holds. */
  private void killNode(int i) throws IOException {
    long pid = Long.parseLong(
        Files.readString(dir.resolve("node-" + i).resolve("cassandra.pid")).strip());
    ProcessHandle node = ProcessHandle.of(pid)
        .orElseThrow(() -> new IllegalStateException("node " + i + " (pid " + pid + ") is gone"));
    node.destroyForcibly();
    node.onExit().join();
  }

  /** Starts node {@code i} again with {@code stator cassandra start --node i}, and waits. */
  private void startNode(int i) throws Exception {
    Files.createDirectories(logs);
    Path errors = logs.resolve("node-" + i + "-start.err");
    Process start = ChildJvm.start(Main.class, errors, "cassandra", "start",
        "--nodes", Integer.toString(nodes), "--node", Integer.toString(i),
        "--dir", dir.toString(),
        "--native-port", contactPoints.split(",")[0].split(":")[1],
        "--storage-port", System.getProperty("stator.cluster.storage-port", "7000"),
        "--heap", System.getProperty("stator.cluster.heap", "1g"), "--timeout", "6m");
    String out = new String(start.getInputStream().readAllBytes());
    if (!start.waitFor(7, TimeUnit.MINUTES) || start.exitValue() != 0) {
      throw new IllegalStateException("node " + i + " did not start: " + out
          + Files.readString(errors));
    }
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
