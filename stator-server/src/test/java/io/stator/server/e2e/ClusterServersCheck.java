package io.stator.server.e2e;

import static io.stator.server.e2e.ServersOnOneStore.createTable;
import static io.stator.server.e2e.ServersOnOneStore.runAll;
import static io.stator.server.e2e.ServersOnOneStore.transfer;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.engine.Engine;
import io.stator.engine.LinearizabilityChecker;
import io.stator.storage.cassandra.CassandraStorage;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Issue 21's guarantees across Stator servers in front of a Cassandra cluster the caller started
 * (bench/servers.sh starts three nodes, replication factor 3): item-level linearizability of
 * histories from clients spread over the servers (the Wing–Gong check of {@link
 * LinearizabilityChecker}), transfers through all servers conserving the total, and stream
 * records of writes through all servers read once each, in per-item order, through every server.
 * Prints what it checked: operations, acknowledged writes verified, anomalies (must be 0).
 *
 * <p>Not one of the build's tests (its name does not end in Test): it runs only when {@code
 * stator.cluster} names the nodes' contact points, {@code host:port,...}; {@code stator.servers}
 * is the number of Stator servers (2 by default), each with its own engine over its own {@code
 * CassandraStorage} on one store.
 */
@EnabledIfSystemProperty(named = "stator.cluster", matches = ".+")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterServersCheck {
  private static final String KEYSPACE = "stator_servers";
  private final ServersOnOneStore group = new ServersOnOneStore();
  private final List<DynamoDbClient> clients = group.clients;
  private final List<DynamoDbStreamsClient> streams = group.streams;

  @BeforeAll
  void startServers() {
    List<InetSocketAddress> contactPoints = new ArrayList<>();
    for (String hostPort : System.getProperty("stator.cluster").split(",")) {
      String[] parts = hostPort.trim().split(":");
      contactPoints.add(new InetSocketAddress(parts[0], Integer.parseInt(parts[1])));
    }
    int factor = Math.min(3, contactPoints.size());
    String replication =
        "{'class': 'SimpleStrategy', 'replication_factor': " + factor + "}";
    String store = "check" + UUID.randomUUID().toString().replace("-", "");
    int count = Integer.getInteger("stator.servers", 2);
    for (int i = 0; i < count; i++) {
      group.start((Engine) Stator.open(CassandraStorage.connect(
          contactPoints, "datacenter1", KEYSPACE, replication, store)));
    }
    System.out.printf("servers: %d, nodes: %d, replication factor: %d%n",
        count, contactPoints.size(), factor);
  }

  @AfterAll
  void stopServers() {
    group.close();
  }

  /**
   * Threads on every server read, put and conditionally put a few items at random; each item's
   * history must be linearizable. A write whose outcome the client does not know (an error other
   * than a failed condition) leaves its item's history unchecked, and is counted.
   */
  @Test
  void itemHistoriesFromClientsOnEveryServerAreLinearizable() throws Exception {
    createTable(clients.get(0), "Lin", false);
    int keys = 4;
    int threads = 2 * clients.size() + 2;
    int opsPerThread = 60;
    ItemHistories histories = new ItemHistories("Lin", keys);
    List<Callable<Void>> work = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      ItemHistories.Client client =
          new ItemHistories.Client(t, clients.get(t % clients.size()));
      work.add(() -> {
        for (int i = 0; i < opsPerThread; i++) {
          histories.step(client);
        }
        return null;
      });
    }
    runAll(work);
    ItemHistories.Verdict verdict = histories.check();
    System.out.printf("linearizability: from %d clients over %d servers, %s%n",
        threads, clients.size(), verdict);
    assertThat(verdict.anomalies()).isZero();
    assertThat(verdict.unchecked()).isLessThan(keys);
  }

  /** Transfers between accounts through every server conserve the total. */
  @Test
  void transfersThroughEveryServerConserveTheTotal() throws Exception {
    createTable(clients.get(0), "Accounts", false);
    int accounts = 10;
    long opening = 1000;
    for (int i = 0; i < accounts; i++) {
      String id = "acct" + i;
      clients.get(i % clients.size()).putItem(r -> r.tableName("Accounts")
          .item(Map.of("id", s(id), "balance", n(opening))));
    }
    AtomicInteger applied = new AtomicInteger();
    AtomicInteger cancelled = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<Callable<Void>> work = new ArrayList<>();
    for (int t = 0; t < 2 * clients.size(); t++) {
      DynamoDbClient client = clients.get(t % clients.size());
      work.add(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 25; i++) {
          int from = random.nextInt(accounts);
          int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
          long amount = 1 + random.nextInt(50);
          try {
            client.transactWriteItems(r -> r.transactItems(
                transfer("acct" + from, -amount, true), transfer("acct" + to, amount, false)));
            applied.incrementAndGet();
          } catch (TransactionCanceledException e) {
            cancelled.incrementAndGet();
          } catch (RuntimeException e) {
            failed.incrementAndGet(); // applied wholly or not at all: the total holds either way
          }
        }
        return null;
      });
    }
    runAll(work);
    long total = 0;
    for (Map<String, AttributeValue> account : clients.get(0)
        .scan(r -> r.tableName("Accounts").consistentRead(true)).items()) {
      long balance = Long.parseLong(account.get("balance").n());
      assertThat(balance).isNotNegative();
      total += balance;
    }
    System.out.printf("transfers: %d applied, %d cancelled, %d failed; total %d of %d%n",
        applied.get(), cancelled.get(), failed.get(), total, accounts * opening);
    assertThat(total).isEqualTo(accounts * opening);
  }

  /**
   * Each thread writes its own items through the servers in turn, so every item's writes have
   * one order; through every server, the stream holds one record per acknowledged write, in that
   * order per item.
   */
  @Test
  void streamRecordsOfWritesThroughEveryServerAreReadOnceInOrder() throws Exception {
    createTable(clients.get(0), "Events", true);
    String arn = clients.get(0).describeTable(r -> r.tableName("Events")).table()
        .latestStreamArn();
    int threads = 2 * clients.size();
    int writesPerItem = 10;
    AtomicInteger acknowledged = new AtomicInteger();
    List<Callable<Void>> work = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      work.add(() -> {
        for (int v = 1; v <= writesPerItem; v++) {
          for (int item = 0; item < 3; item++) {
            String id = "t" + thread + "i" + item;
            int value = v;
            clients.get((v + item) % clients.size()).putItem(r -> r.tableName("Events")
                .item(Map.of("id", s(id), "v", n(value))));
            acknowledged.incrementAndGet();
          }
        }
        return null;
      });
    }
    runAll(work);
    int anomalies = 0;
    for (DynamoDbStreamsClient reader : streams) {
      List<Record> records = new StreamConsumer(reader, arn).readAll();
      Map<String, List<Integer>> perItem = new HashMap<>();
      for (Record rec : records) {
        perItem.computeIfAbsent(rec.dynamodb().keys().get("id").s(), k -> new ArrayList<>())
            .add(Integer.parseInt(rec.dynamodb().newImage().get("v").n()));
      }
      long distinct = records.stream().map(Record::eventID).distinct().count();
      for (List<Integer> order : perItem.values()) {
        for (int i = 0; i < order.size(); i++) {
          if (order.get(i) != i + 1) {
            anomalies++;
            break;
          }
        }
      }
      if (records.size() != acknowledged.get() || distinct != records.size()) {
        anomalies++;
      }
      System.out.printf("streams: %d records (%d distinct) of %d acknowledged writes on %d items,"
              + " read through one server%n",
          records.size(), distinct, acknowledged.get(), perItem.size());
    }
    System.out.printf("streams: anomalies: %d%n", anomalies);
    assertThat(anomalies).isZero();
  }

  private static AttributeValue s(String s) {
    return AttributeValue.fromS(s);
  }

  private static AttributeValue n(long n) {
    return AttributeValue.fromN(Long.toString(n));
  }
}
