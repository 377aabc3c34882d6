package io.stator.server.e2e;

import static io.stator.server.e2e.ServersOnOneStore.createTable;
import static io.stator.server.e2e.ServersOnOneStore.runAll;
import static io.stator.server.e2e.ServersOnOneStore.transfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.lease.Leases;
import io.stator.server.StatorServer;
import io.stator.storage.Storage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Two Stator servers in front of one Cassandra node, as issue 21 asks of N stateless servers in
 * front of one cluster: each server has its own {@link Engine} over its own {@code
 * CassandraStorage} on the same store, and clients of the AWS SDK talk to both. What one server
 * does must hold for the other: table changes, conditional writes, transactions and their
 * ClientRequestTokens, stream records and the Time to Live sweep.
 *
 * <p>On the end-to-end suite's node ({@link CassandraForTests}); skipped with {@code
 * -Dcassandra.tests.skip}, as the other Cassandra tests are.
 */
@DisabledIfSystemProperty(named = Target.CASSANDRA_SKIP_PROPERTY, matches = ".*")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TwoServersTest {
  private final ServersOnOneStore group = new ServersOnOneStore();
  private final List<StatorServer> servers = group.servers;
  private final List<Engine> engines = new ArrayList<>();
  private final List<DynamoDbClient> clients = group.clients;
  private final List<DynamoDbStreamsClient> streams = group.streams;
  private final List<MovableClock> clocks = new ArrayList<>();
  private DynamoDbClient a;
  private DynamoDbClient b;
  private String store;

  @BeforeEach
  void startTwoServersOnOneStore() {
    store = "two-" + UUID.randomUUID().toString().replace("-", "");
    for (int i = 0; i < 2; i++) {
      MovableClock clock = new MovableClock();
      Engine engine = (Engine) Stator.open(
          CassandraForTests.open(store), EngineOptions.defaults().withClock(clock));
      clocks.add(clock);
      engines.add(engine);
      group.start(engine);
    }
    a = clients.get(0);
    b = clients.get(1);
  }

  @AfterEach
  void stopServers() {
    group.close();
  }

  @Test
  void tableChangesOnOneServerAreSeenByTheOther() throws Exception {
    createTable(a, "Orders", false);
    TableDescription onB = b.describeTable(r -> r.tableName("Orders")).table();
    assertThat(onB.tableStatusAsString()).isEqualTo("ACTIVE");
    assertThat(onB.keySchema()).hasSize(1);
    b.putItem(r -> r.tableName("Orders").item(item("o1", "status", s("new"))));
    assertThat(a.getItem(r -> r.tableName("Orders").key(key("o1")).consistentRead(true)).item())
        .isEqualTo(item("o1", "status", s("new")));

    // A GSI added on A, backfilled from the item B wrote, then written through both.
    a.updateTable(r -> r.tableName("Orders")
        .attributeDefinitions(d -> d.attributeName("status").attributeType("S"))
        .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("ByStatus")
            .keySchema(k -> k.attributeName("status").keyType("HASH"))
            .projection(p -> p.projectionType("ALL")))));
    awaitIndexActive(b, "Orders", "ByStatus");
    a.putItem(r -> r.tableName("Orders").item(item("o2", "status", s("new"))));
    b.putItem(r -> r.tableName("Orders").item(item("o3", "status", s("new"))));
    for (Engine engine : engines) {
      assertThat(engine.awaitIndexes(Duration.ofSeconds(60))).isTrue();
    }
    for (DynamoDbClient client : clients) {
      List<String> ids = client.query(r -> r.tableName("Orders").indexName("ByStatus")
              .keyConditionExpression("#s = :s")
              .expressionAttributeNames(Map.of("#s", "status"))
              .expressionAttributeValues(Map.of(":s", s("new"))))
          .items().stream().map(i -> i.get("id").s()).toList();
      assertThat(ids).containsExactlyInAnyOrder("o1", "o2", "o3");
    }

    // Deleted on A: B knows no such table, for writes, and for reads after them.
    a.deleteTable(r -> r.tableName("Orders"));
    assertThatThrownBy(() -> b.putItem(r -> r.tableName("Orders").item(key("o4"))))
        .isInstanceOf(ResourceNotFoundException.class);
    assertThatThrownBy(() -> b.getItem(r -> r.tableName("Orders").key(key("o1"))))
        .isInstanceOf(ResourceNotFoundException.class);
    assertThatThrownBy(() -> b.describeTable(r -> r.tableName("Orders")))
        .isInstanceOf(ResourceNotFoundException.class);

    // Made again on A under the same name: B sees a new, empty table.
    createTable(a, "Orders", false);
    assertThat(b.scan(r -> r.tableName("Orders").consistentRead(true)).items()).isEmpty();
    assertThat(b.getItem(r -> r.tableName("Orders").key(key("o1")).consistentRead(true))
        .hasItem()).isFalse();
  }

  @Test
  void aReadOnTheOtherServerAfterDeleteTableIsResourceNotFound() {
    createTable(a, "Gone", false);
    b.putItem(r -> r.tableName("Gone").item(item("g1", "v", n(1))));
    assertThat(b.getItem(r -> r.tableName("Gone").key(key("g1"))).hasItem()).isTrue();
    a.deleteTable(r -> r.tableName("Gone"));
    // B's copy of the definition may serve reads for a second (from the dropped space); past
    // that bound, B reads its catalog again, and every read knows no such table.
    clocks.get(1).advance(Duration.ofSeconds(1));
    assertThatThrownBy(() -> b.getItem(r -> r.tableName("Gone").key(key("g1"))))
        .isInstanceOf(ResourceNotFoundException.class);
    assertThatThrownBy(() -> b.query(r -> r.tableName("Gone")
            .keyConditionExpression("id = :id").expressionAttributeValues(Map.of(":id", s("g1")))))
        .isInstanceOf(ResourceNotFoundException.class);
    assertThatThrownBy(() -> b.scan(r -> r.tableName("Gone")))
        .isInstanceOf(ResourceNotFoundException.class);

    // Made again on A, twice, while B holds a copy of the first new incarnation: B shows none
    // of that incarnation's items, and past the bound B serves the newest table.
    createTable(a, "Gone", false);
    a.putItem(r -> r.tableName("Gone").item(item("g2", "v", n(2))));
    assertThat(b.getItem(r -> r.tableName("Gone").key(key("g2"))).hasItem()).isTrue();
    a.deleteTable(r -> r.tableName("Gone"));
    createTable(a, "Gone", false);
    a.putItem(r -> r.tableName("Gone").item(item("g3", "v", n(3))));
    assertThat(b.scan(r -> r.tableName("Gone").consistentRead(true)).items())
        .doesNotContain(item("g2", "v", n(2)));
    clocks.get(1).advance(Duration.ofSeconds(1));
    assertThat(b.scan(r -> r.tableName("Gone").consistentRead(true)).items())
        .containsExactly(item("g3", "v", n(3)));
  }

  @Test
  void oneServerAtATimeHoldsALeaseAndAnotherTakesItOverOnceItExpires() {
    // The leases of the servers' background jobs, on Cassandra's conditional commits.
    try (Storage onA = CassandraForTests.open(store); Storage onB = CassandraForTests.open(store)) {
      Leases leasesOfA = new Leases(onA, clocks.get(0));
      Leases leasesOfB = new Leases(onB, clocks.get(1));
      Duration term = Duration.ofSeconds(10);
      assertThat(leasesOfA.hold("job", term)).isTrue();
      assertThat(leasesOfB.hold("job", term)).isFalse();
      assertThat(leasesOfA.hold("job", term)).isTrue(); // renewed
      clocks.get(1).advance(term.plusSeconds(1)); // A renews no more: on B's clock, expired
      assertThat(leasesOfB.hold("job", term)).isTrue();
      assertThat(leasesOfA.hold("job", term)).isFalse();
      leasesOfB.release("job");
      assertThat(leasesOfA.hold("job", term)).isTrue();
    }
  }

  @Test
  void conditionalIncrementsFromBothServersLoseNoUpdate() throws Exception {
    createTable(a, "Counters", false);
    a.putItem(r -> r.tableName("Counters").item(item("c", "n", n(0))));
    AtomicInteger successes = new AtomicInteger();
    int attemptsPerThread = 25;
    List<Callable<Void>> threads = new ArrayList<>();
    for (DynamoDbClient client : List.of(a, b, a, b)) {
      threads.add(() -> {
        for (int i = 0; i < attemptsPerThread; i++) {
          Map<String, AttributeValue> read = client.getItem(r -> r.tableName("Counters")
              .key(key("c")).consistentRead(true)).item();
          long seen = Long.parseLong(read.get("n").n());
          try {
            client.updateItem(r -> r.tableName("Counters").key(key("c"))
                .updateExpression("SET n = :next")
                .conditionExpression("n = :seen")
                .expressionAttributeValues(Map.of(":next", n(seen + 1), ":seen", n(seen))));
            successes.incrementAndGet();
          } catch (ConditionalCheckFailedException lost) {
            // another writer incremented first: this attempt applied nothing
          }
        }
        return null;
      });
    }
    runAll(threads);
    long value = Long.parseLong(a.getItem(r -> r.tableName("Counters").key(key("c"))
        .consistentRead(true)).item().get("n").n());
    assertThat(successes.get()).isPositive();
    assertThat(value).isEqualTo(successes.get());
  }

  @Test
  void transfersThroughBothServersConserveTheTotal() throws Exception {
    createTable(a, "Accounts", false);
    int accounts = 6;
    long opening = 100;
    for (int i = 0; i < accounts; i++) {
      String id = "acct" + i;
      b.putItem(r -> r.tableName("Accounts").item(item(id, "balance", n(opening))));
    }
    AtomicInteger applied = new AtomicInteger();
    List<Callable<Void>> threads = new ArrayList<>();
    for (DynamoDbClient client : List.of(a, b, a, b)) {
      threads.add(() -> {
        for (int i = 0; i < 15; i++) {
          int from = ThreadLocalRandom.current().nextInt(accounts);
          int to = (from + 1 + ThreadLocalRandom.current().nextInt(accounts - 1)) % accounts;
          long amount = 1 + ThreadLocalRandom.current().nextInt(30);
          try {
            client.transactWriteItems(r -> r.transactItems(
                transfer("acct" + from, -amount, true),
                transfer("acct" + to, amount, false)));
            applied.incrementAndGet();
          } catch (TransactionCanceledException cancelled) {
            // a conflict or too small a balance: nothing applied
          }
        }
        return null;
      });
    }
    runAll(threads);
    long total = 0;
    for (Map<String, AttributeValue> account :
        a.scan(r -> r.tableName("Accounts").consistentRead(true)).items()) {
      long balance = Long.parseLong(account.get("balance").n());
      assertThat(balance).as("balance of %s", account.get("id").s()).isNotNegative();
      total += balance;
    }
    assertThat(applied.get()).isPositive();
    assertThat(total).isEqualTo(accounts * opening);
  }

  @Test
  void aTransactionRetriedOnTheOtherServerWithItsTokenIsAppliedOnce() {
    createTable(a, "Tokens", false);
    a.putItem(r -> r.tableName("Tokens").item(item("c", "n", n(0))));
    String token = UUID.randomUUID().toString();
    TransactWriteItem increment = TransactWriteItem.builder().update(u -> u.tableName("Tokens")
        .key(key("c")).updateExpression("ADD n :one")
        .expressionAttributeValues(Map.of(":one", n(1)))).build();
    a.transactWriteItems(r -> r.clientRequestToken(token).transactItems(increment));
    b.transactWriteItems(r -> r.clientRequestToken(token).transactItems(increment));
    a.transactWriteItems(r -> r.clientRequestToken(token).transactItems(increment));
    assertThat(b.getItem(r -> r.tableName("Tokens").key(key("c")).consistentRead(true))
        .item().get("n").n()).isEqualTo("1");
  }

  @Test
  void streamRecordsOfBothServersAreReadOnceThroughEither() throws Exception {
    createTable(a, "Events", true);
    String streamArn = b.describeTable(r -> r.tableName("Events")).table().latestStreamArn();
    assertThat(streamArn).isNotNull();
    Map<String, Integer> writes = new HashMap<>();
    for (int i = 0; i < 20; i++) {
      DynamoDbClient client = clients.get(i % 2);
      String id = "e" + (i % 5);
      int version = i;
      client.putItem(r -> r.tableName("Events").item(item(id, "v", n(version))));
      writes.merge(id, 1, Integer::sum);
    }
    for (DynamoDbStreamsClient reader : streams) {
      List<Record> records = new StreamConsumer(reader, streamArn).readUntil(r -> r.size() >= 20);
      assertThat(records).hasSize(20);
      assertThat(records.stream().map(Record::eventID).distinct()).hasSize(20);
      assertThat(records.stream().map(rec -> rec.dynamodb().sequenceNumber()).distinct())
          .hasSize(20);
      // One record per write, each with the value that write put, in per-item order.
      List<Integer> values = records.stream()
          .map(rec -> Integer.parseInt(rec.dynamodb().newImage().get("v").n())).sorted().toList();
      assertThat(values).isEqualTo(java.util.stream.IntStream.range(0, 20).boxed().toList());
      Map<String, List<Integer>> perItem = new HashMap<>();
      for (Record rec : records) {
        perItem.computeIfAbsent(rec.dynamodb().keys().get("id").s(), k -> new ArrayList<>())
            .add(Integer.parseInt(rec.dynamodb().newImage().get("v").n()));
      }
      perItem.values().forEach(order -> assertThat(order).isSorted());
    }
  }

  @Test
  void anExpiredItemIsDeletedOnceWhenBothServersSweep() throws Exception {
    createTable(a, "Sessions", true);
    a.updateTimeToLive(r -> r.tableName("Sessions")
        .timeToLiveSpecification(t -> t.enabled(true).attributeName("expiresAt")));
    long expired = Instant.now().getEpochSecond() - 60;
    int items = 10;
    for (int i = 0; i < items; i++) {
      String id = "s" + i;
      clients.get(i % 2).putItem(r -> r.tableName("Sessions")
          .item(item(id, "expiresAt", n(expired))));
    }
    // Both servers sweep at once, besides their background sweepers.
    List<Callable<Long>> sweeps = new ArrayList<>();
    for (StatorServer server : servers) {
      sweeps.add(() -> forceSweep(server));
    }
    ExecutorService pool = Executors.newFixedThreadPool(sweeps.size());
    long deleted = 0;
    try {
      for (Future<Long> sweep : pool.invokeAll(sweeps)) {
        deleted += sweep.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(deleted).as("items the forced sweeps deleted").isLessThanOrEqualTo(items);
    assertThat(b.scan(r -> r.tableName("Sessions").consistentRead(true)).items()).isEmpty();
    String streamArn = a.describeTable(r -> r.tableName("Sessions")).table().latestStreamArn();
    for (DynamoDbStreamsClient reader : streams) {
      List<Record> removes = removesIn(
          new StreamConsumer(reader, streamArn).readUntil(r -> removesIn(r).size() >= items));
      assertThat(removes).hasSize(items);
      assertThat(removes.stream().map(rec -> rec.dynamodb().keys().get("id").s()).distinct())
          .hasSize(items);
      removes.forEach(rec -> assertThat(rec.userIdentity().principalId())
          .isEqualTo("dynamodb.amazonaws.com"));
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  /**
   * Paging through both servers: each page of a parallel Scan's segments and of a Query asked of
   * the server the previous page did not answer, with that page's LastEvaluatedKey. The segments
   * cover the table exactly (every item once, in one segment), and the Query's pages run in
   * sort-key order both ways.
   */
  @Test
  void scanSegmentsAndQueryPagesAlternatingServersCoverEveryItemOnceInOrder() {
    a.createTable(r -> r.tableName("Pages").billingMode("PAY_PER_REQUEST")
        .attributeDefinitions(d -> d.attributeName("pk").attributeType("S"),
            d -> d.attributeName("sk").attributeType("N"))
        .keySchema(k -> k.attributeName("pk").keyType("HASH"),
            k -> k.attributeName("sk").keyType("RANGE")));
    int partitions = 6;
    int perPartition = 10;
    for (int p = 0; p < partitions; p++) {
      for (int k = 0; k < perPartition; k++) {
        Map<String, AttributeValue> item = Map.of("pk", s("p" + p), "sk", n(k));
        clients.get((p + k) % 2).putItem(r -> r.tableName("Pages").item(item));
      }
    }

    int segments = 4;
    List<String> scanned = new ArrayList<>();
    int page = 0;
    for (int segment = 0; segment < segments; segment++) {
      Map<String, AttributeValue> start = null;
      do {
        Map<String, AttributeValue> from = start;
        int seg = segment;
        var answer = clients.get(page++ % 2).scan(r -> r.tableName("Pages").segment(seg)
            .totalSegments(segments).limit(4).consistentRead(true).exclusiveStartKey(from));
        answer.items().forEach(i -> scanned.add(i.get("pk").s() + "/" + i.get("sk").n()));
        start = answer.hasLastEvaluatedKey() && !answer.lastEvaluatedKey().isEmpty()
            ? answer.lastEvaluatedKey() : null;
      } while (start != null);
    }
    assertThat(scanned).doesNotHaveDuplicates().hasSize(partitions * perPartition);

    for (boolean forward : List.of(true, false)) {
      List<Long> keys = new ArrayList<>();
      Map<String, AttributeValue> start = null;
      do {
        Map<String, AttributeValue> from = start;
        var answer = clients.get(page++ % 2).query(r -> r.tableName("Pages")
            .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", s("p3")))
            .scanIndexForward(forward).limit(3).consistentRead(true).exclusiveStartKey(from));
        answer.items().forEach(i -> keys.add(Long.parseLong(i.get("sk").n())));
        start = answer.hasLastEvaluatedKey() && !answer.lastEvaluatedKey().isEmpty()
            ? answer.lastEvaluatedKey() : null;
      } while (start != null);
      List<Long> expected = new ArrayList<>();
      for (long k = 0; k < perPartition; k++) {
        expected.add(forward ? k : perPartition - 1 - k);
      }
      assertThat(keys).as(forward ? "forward" : "backward").isEqualTo(expected);
    }
  }

  private static List<Record> removesIn(List<Record> records) {
    return records.stream().filter(rec -> rec.eventName() == OperationType.REMOVE).toList();
  }

  /** Polls DescribeTable, as a DynamoDB client waits for a new index, for at most 60 s. */
  private static void awaitIndexActive(DynamoDbClient client, String table, String index)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      IndexStatus status = client.describeTable(r -> r.tableName(table)).table()
          .globalSecondaryIndexes().stream().filter(i -> i.indexName().equals(index))
          .findFirst().orElseThrow().indexStatus();
      if (status == IndexStatus.ACTIVE) {
        return;
      }
      assertThat(System.nanoTime()).as("%s ACTIVE within 60 s", index).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private static long forceSweep(StatorServer server) throws Exception {
    HttpResponse<String> swept = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(DynamoDbEndpoint.uri(server) + "/stator/ttl/sweep"))
            .POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(swept.statusCode()).isEqualTo(200);
    return Long.parseLong(swept.body().replaceAll("\\D", ""));
  }

  /** The system clock, which a test may move forward for one server. */
  private static final class MovableClock extends Clock {
    private volatile Duration ahead = Duration.ZERO;

    void advance(Duration by) {
      ahead = ahead.plus(by);
    }

    @Override
    public Instant instant() {
      return Instant.now().plus(ahead);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  private static Map<String, AttributeValue> key(String id) {
    return Map.of("id", s(id));
  }

  private static Map<String, AttributeValue> item(String id, String name, AttributeValue value) {
    return Map.of("id", s(id), name, value);
  }

  private static AttributeValue s(String s) {
    return AttributeValue.fromS(s);
  }

  private static AttributeValue n(long n) {
    return AttributeValue.fromN(Long.toString(n));
  }
}
