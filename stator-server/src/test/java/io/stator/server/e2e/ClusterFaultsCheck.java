package io.stator.server.e2e;

import static io.stator.server.e2e.ServersOnOneStore.createTable;
import static io.stator.server.e2e.ServersOnOneStore.runAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.server.Main;
import io.stator.storage.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Issue 21's faults, on a cluster of {@code stator cassandra start --nodes 3} (bench/servers.sh
 * --faults starts it) with Stator servers in JVMs of their own ({@link ServerProcesses}) on one
 * keyspace at replication factor 3, under {@link MixedLoad} through all of them:
 *
 * <ul>
 *   <li>a Cassandra node killed with SIGKILL and started again: requests go on through the
 *       other two, nothing acknowledged is lost, no stream record is written twice;
 *   <li>the Stator server holding the Time to Live sweep's lease killed with SIGKILL: clients
 *       fail over to the others, nothing acknowledged is lost, no transaction is half-applied,
 *       and another server sweeps within seconds, each expired item deleted once with one
 *       REMOVE record;
 *   <li>that server stopped with SIGSTOP past its lease's term and continued: no item deleted
 *       twice, no stream record written twice;
 *   <li>GetItem and PutItem throughput through 1, 2 and 3 servers, in the same run;
 *   <li>a Cassandra node stopped with SIGSTOP for 20 s and continued: nothing acknowledged lost,
 *       no stream record skipped or written twice, read through every server.
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
  private static final String EXPIRING = "Expiring";
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
      if (i == 0) {
        // Before the others start, so that their sweepers run from their start: TTL enabled on
        // another server reaches a running one only at its next housekeeping tick, a minute.
        createExpiringTable();
      }
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
    for (DynamoDbClient client : clients) {
      streamAnomalies += load.checkIndex(client, "node fault");
    }
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

  /**
   * Under load through every server, the holder of the Time to Live sweep's lease is killed with
   * SIGKILL: clients fail over to the other servers, nothing acknowledged is lost, no transfer is
   * half-applied, and items that expire after the kill are swept by another server once the
   * lease's term (10 s) has passed, each deleted once with one REMOVE record.
   */
  @Test
  @Order(2)
  void aServerKilledMidRequestLosesNothingAndItsSweepIsTakenOver() throws Exception {
    holdSweepOn(0);
    MixedLoad load = new MixedLoad("Killed", clients);
    load.start();
    Thread.sleep(8_000);
    long failedOverBefore = load.failedOver();
    long killedAt = System.nanoTime();
    servers.kill(0);
    List<String> expired = putExpired(load, "killed", 20);
    double[] swept = awaitSwept(load, expired, killedAt);
    Thread.sleep(5_000);
    load.stop();
    long failedOver = load.failedOver() - failedOverBefore;
    List<Long> timeline = load.answeredEvery(killedAt, 5);
    MixedLoad.Figures figures = load.verify();
    long streamAnomalies = load.checkPutsStream(streams.get(1), "server fault");
    for (DynamoDbClient client : clients.subList(1, clients.size())) {
      streamAnomalies += load.checkIndex(client, "server fault");
    }
    long ttlAnomalies = checkRemoves(streams.get(1), "server fault");
    servers.restart(0);
    System.out.printf("server fault: server 0, the sweep's holder, killed (SIGKILL) under load;"
            + " %d requests answered by another server after an attempt that failed; 20 items"
            + " that expired after the kill swept from %.1f s to %.1f s after it; requests"
            + " answered in each 5 s from the kill: %s%n",
        failedOver, swept[0], swept[1], timeline);
    print("server fault", figures);
    assertThat(failedOver).as("requests failed over to another server").isPositive();
    assertThat(figures.anomalies() + streamAnomalies + ttlAnomalies).isZero();
    assertThat(figures.linearizability().unchecked()).isLessThan(8);
  }

  /**
   * The sweep's holder is stopped with SIGSTOP for 15 s, past its lease's term, just after items
   * expired, and continued: another server sweeps them meanwhile, and once continued the holder
   * finishes what it was doing. Each item is still deleted once with one REMOVE record, and the
   * puts' stream holds one record per item, through every server.
   */
  @Test
  @Order(3)
  void aServerPausedPastItsLeaseAppliesNoJobTwiceAndWritesNoRecordTwice() throws Exception {
    holdSweepOn(0);
    MixedLoad load = new MixedLoad("Paused", clients);
    load.start();
    Thread.sleep(5_000);
    long pausedAt = System.nanoTime();
    List<String> expired = putExpired(load, "paused", 30);
    servers.pause(0);
    double[] swept;
    try {
      swept = awaitSwept(load, expired, pausedAt);
      Thread.sleep(Math.max(0, 15_000 - (System.nanoTime() - pausedAt) / 1_000_000));
    } finally {
      servers.resume(0);
    }
    double pausedFor = seconds(pausedAt);
    Thread.sleep(8_000);
    load.stop();
    List<Long> timeline = load.answeredEvery(pausedAt, 5);
    MixedLoad.Figures figures = load.verify();
    long anomalies = figures.anomalies();
    for (int i = 0; i < servers.size(); i++) {
      anomalies += load.checkPutsStream(streams.get(i), "pause");
      anomalies += load.checkIndex(clients.get(i), "pause");
      anomalies += checkRemoves(streams.get(i), "pause");
    }
    System.out.printf("pause: server 0, the sweep's holder, stopped (SIGSTOP) for %.1f s then"
            + " continued (SIGCONT); 30 items that expired as it stopped swept by another server"
            + " from %.1f s to %.1f s after; requests answered in each 5 s from the pause: %s%n",
        pausedFor, swept[0], swept[1], timeline);
    print("pause", figures);
    assertThat(anomalies).isZero();
  }

  /**
   * GetItem and PutItem of one client count of threads spread over 1, 2 and 3 servers in front of
   * the same cluster, in one run, in {@code stator.faults.bench-rounds} rounds (2 by default) of
   * 1, 2, 3 servers each, so that a drift of the machine's load meets every count alike: on a
   * machine whose cores the nodes and servers share, only the direction means something.
   */
  @Test
  @Order(4)
  void getItemAndPutItemThroughputWithOneTwoAndThreeServers() throws Exception {
    createTable(clients.get(0), "Bench", false);
    int items = 100;
    for (int i = 0; i < items; i++) {
      String id = "b" + i;
      clients.get(i % clients.size()).putItem(r -> r.tableName("Bench")
          .item(Map.of("id", AttributeValue.fromS(id), "v", AttributeValue.fromN("0"))));
    }
    int rounds = Integer.getInteger("stator.faults.bench-rounds", 2);
    Map<String, List<Long>> perSecond = new TreeMap<>();
    for (int round = 1; round <= rounds; round++) {
      for (int count = 1; count <= servers.size(); count++) {
        for (String operation : List.of("GetItem", "PutItem")) {
          long rate = throughput(count, operation, items);
          perSecond.computeIfAbsent(operation, o -> new ArrayList<>()).add(rate);
        }
      }
    }
    for (Map.Entry<String, List<Long>> e : perSecond.entrySet()) {
      StringBuilder line = new StringBuilder();
      for (int count = 1; count <= servers.size(); count++) {
        List<Long> rates = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
          rates.add(e.getValue().get(round * servers.size() + count - 1));
        }
        line.append(count == 1 ? "" : "; ").append(count)
            .append(count == 1 ? " server " : " servers ").append(rates);
      }
      System.out.printf("throughput: %s requests/s by round: %s%n", e.getKey(), line);
    }
  }

  /** Requests per second of 12 client threads spread over the first {@code serving} servers. */
  private long throughput(int serving, String operation, int items) throws Exception {
    int threads = 12;
    long seconds = Long.getLong("stator.faults.bench-seconds", 15);
    AtomicLong done = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<Callable<Void>> work = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      DynamoDbClient client = clients.get(t % serving);
      work.add(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (System.nanoTime() < end) {
          Map<String, AttributeValue> key = Map.of("id",
              AttributeValue.fromS("b" + random.nextInt(items)));
          try {
            if (operation.equals("GetItem")) {
              client.getItem(r -> r.tableName("Bench").key(key));
            } else {
              Map<String, AttributeValue> item = new HashMap<>(key);
              item.put("v", AttributeValue.fromN(Long.toString(random.nextLong(1000))));
              client.putItem(r -> r.tableName("Bench").item(item));
            }
            done.incrementAndGet();
          } catch (RuntimeException e) {
            errors.incrementAndGet();
          }
        }
        return null;
      });
    }
    runAll(work);
    System.out.printf("throughput: %d server%s, %s: %.0f requests/s (%d in %d s, %d"
            + " errors), %d client threads%n", serving, serving == 1 ? "" : "s", operation,
        done.get() / (double) seconds, done.get(), seconds, errors.get(), threads);
    assertThat(done.get()).isPositive();
    return Math.round(done.get() / (double) seconds);
  }

  /**
   * Under load through every server, a Cassandra node is stopped with SIGSTOP for 20 s ({@code
   * stator.faults.node-pause-seconds}), as a node that stops answering for a while without dying
   * (a long GC pause, a network that drops its packets), then continued: nothing acknowledged is
   * lost, no transfer is half-applied, the puts' stream holds one record per item through every
   * server (no reader passed a record whose commit the pause held up).
   */
  @Test
  @Order(5)
  void aNodePausedUnderLoadLosesNothingAndSkipsNoStreamRecord() throws Exception {
    int victim = 2;
    MixedLoad load = new MixedLoad("NodePaused", clients);
    load.start();
    Thread.sleep(8_000);
    long pausedAt = System.nanoTime();
    long pid = nodePid(victim);
    signal("STOP", pid);
    try {
      Thread.sleep(TimeUnit.SECONDS.toMillis(
          Long.getLong("stator.faults.node-pause-seconds", 20)));
    } finally {
      signal("CONT", pid);
    }
    double pausedFor = seconds(pausedAt);
    Thread.sleep(20_000);
    load.stop();
    List<Long> timeline = load.answeredEvery(pausedAt, 5);
    MixedLoad.Figures figures = load.verify();
    long anomalies = figures.anomalies();
    for (int i = 0; i < streams.size(); i++) {
      anomalies += load.checkPutsStream(streams.get(i), "node pause");
      anomalies += load.checkIndex(clients.get(i), "node pause");
    }
    System.out.printf("node pause: node %d stopped (SIGSTOP) for %.1f s under load, then"
            + " continued (SIGCONT); requests answered in each 5 s from the pause: %s%n",
        victim, pausedFor, timeline);
    print("node pause", figures);
    assertThat(anomalies).isZero();
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
    }
  }

  private void createExpiringTable() {
    createTable(clients.get(0), EXPIRING, true);
    clients.get(0).updateTimeToLive(r -> r.tableName(EXPIRING)
        .timeToLiveSpecification(t -> t.enabled(true).attributeName("expiresAt")));
  }

  /**
   * Makes server {@code holder} the holder of the sweep's lease: the other servers paused past
   * the lease's term (10 s), an expired item put through it must be swept while they are.
   */
  private void holdSweepOn(int holder) throws Exception {
    for (int i = 0; i < servers.size(); i++) {
      if (i != holder) {
        servers.pause(i);
      }
    }
    try {
      Thread.sleep(12_000);
      String id = "holder" + System.nanoTime();
      clients.get(holder).putItem(r -> r.tableName(EXPIRING).item(expiredItem(id)));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!clients.get(holder).getItem(r -> r.tableName(EXPIRING)
          .key(Map.of("id", AttributeValue.fromS(id))).consistentRead(true)).item().isEmpty()) {
        assertThat(System.nanoTime()).as("server %d sweeping alone", holder).isLessThan(deadline);
        Thread.sleep(200);
      }
    } finally {
      for (int i = 0; i < servers.size(); i++) {
        if (i != holder) {
          servers.resume(i);
        }
      }
    }
  }

  private List<String> putExpired(MixedLoad load, String prefix, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = prefix + i;
      load.failover(1 + i % (servers.size() - 1),
          c -> c.putItem(r -> r.tableName(EXPIRING).item(expiredItem(id))));
      ids.add(id);
    }
    return ids;
  }

  private static Map<String, AttributeValue> expiredItem(String id) {
    return Map.of("id", AttributeValue.fromS(id),
        "expiresAt", AttributeValue.fromN(Long.toString(Instant.now().getEpochSecond() - 60)));
  }

  /**
   * Waits (two minutes at most) until none of {@code ids} is left, reading through servers other
   * than 0; returns the seconds from {@code since} to the first and to the last gone.
   */
  private double[] awaitSwept(MixedLoad load, List<String> ids, long since) throws Exception {
    double first = -1;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      long left = load.failover(1, c -> c.scanPaginator(r -> r.tableName(EXPIRING)
              .consistentRead(true)).items().stream()
          .filter(item -> ids.contains(item.get("id").s())).count());
      if (left < ids.size() && first < 0) {
        first = seconds(since);
      }
      if (left == 0) {
        return new double[] {first, seconds(since)};
      }
      assertThat(System.nanoTime()).as("%d expired items still there", left)
          .isLessThan(deadline);
      Thread.sleep(250);
    }
  }

  /**
   * The stream of the expiring items read through {@code reader}: every item made once and
   * removed once, the REMOVE by the service (DynamoDB's Time to Live principal); returns the
   * anomalies.
   */
  private long checkRemoves(DynamoDbStreamsClient reader, String label) {
    String arn = clients.get(1).describeTable(r -> r.tableName(EXPIRING)).table()
        .latestStreamArn();
    List<Record> records = new StreamConsumer(reader, arn).readAll();
    Map<String, List<String>> perItem = new HashMap<>();
    long anomalies = 0;
    for (Record rec : records) {
      perItem.computeIfAbsent(rec.dynamodb().keys().get("id").s(), k -> new ArrayList<>())
          .add(rec.eventNameAsString());
      if (rec.eventName() == OperationType.REMOVE && (rec.userIdentity() == null
          || !"dynamodb.amazonaws.com".equals(rec.userIdentity().principalId()))) {
        anomalies++;
      }
    }
    for (Map.Entry<String, List<String>> item : perItem.entrySet()) {
      if (!item.getValue().equals(List.of("INSERT", "REMOVE"))) {
        anomalies++;
        System.out.println("expired item " + item.getKey() + " has records " + item.getValue());
      }
    }
    System.out.printf("%s: Time to Live: %d expired items, %d records read through %s; anomalies:"
            + " %d%n", label, perItem.size(), records.size(),
        reader.serviceClientConfiguration().endpointOverride().orElseThrow(), anomalies);
    return anomalies;
  }

  private static void print(String label, MixedLoad.Figures figures) {
    figures.toString().lines().forEach(line -> System.out.println(label + ": " + line));
  }

  /** SIGKILL of Cassandra node {@code i} (from 1), whose pid its directory holds. */
  private void killNode(int i) throws IOException {
    long pid = nodePid(i);
    ProcessHandle node = ProcessHandle.of(pid)
        .orElseThrow(() -> new IllegalStateException("node " + i + " (pid " + pid + ") is gone"));
    node.destroyForcibly();
    node.onExit().join();
  }

  private long nodePid(int i) throws IOException {
    return Long.parseLong(
        Files.readString(dir.resolve("node-" + i).resolve("cassandra.pid")).strip());
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
