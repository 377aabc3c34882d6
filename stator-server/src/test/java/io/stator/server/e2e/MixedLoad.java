package io.stator.server.e2e;

import static io.stator.server.e2e.ServersOnOneStore.createTable;
import static io.stator.server.e2e.ServersOnOneStore.transfer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Load through every server of a group until stopped, for the fault checks: on each server two
 * clients read, put and conditionally put a few items ({@link ItemHistories}, for the
 * linearizability check), one transfers between accounts with TransactWriteItems and one puts
 * items of its own. The transfers and the puts fail over: a request that gets no answer (the
 * server is gone or paused) or a 500 is sent again to the next server, a transfer with its
 * ClientRequestToken, so a retry never applies it twice; a put counts as acknowledged only once
 * a server answered it with success. {@link #verify} then reads everything back.
 *
 * <p>As the load starts, a GSI is added to the accounts' table through the second server
 * (UpdateTable, so it is backfilled while the transfers move every account's entry in it), keyed
 * on the accounts' kind and balance: {@link #checkIndex} then waits until it holds exactly the
 * table's balances, through each server.
 */
final class MixedLoad {
  static final int ACCOUNTS = 10;
  static final long OPENING = 1000;
  /** The GSI added to the accounts' table: hash key kind ("account"), range key balance. */
  static final String BY_BALANCE = "ByBalance";

  private final String name;
  private final List<DynamoDbClient> clients;
  private final ItemHistories histories;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicLong answered = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong failedOver = new AtomicLong();
  private final AtomicLong transfersApplied = new AtomicLong();
  private final AtomicLong transfersCancelled = new AtomicLong();
  private final AtomicLong transfersGivenUp = new AtomicLong();
  private final Map<String, Long> acknowledgedPuts = new ConcurrentHashMap<>();
  private final AtomicLong putsGivenUp = new AtomicLong();
  private final List<long[]> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
  private ExecutorService pool;
  private final List<Future<?>> workers = new ArrayList<>();

  /** Load through {@code clients}, one per server, on tables whose names start with {@code name}. */
  MixedLoad(String name, List<DynamoDbClient> clients) {
    this.name = name;
    this.clients = clients;
    this.histories = new ItemHistories(name + "Items", 8);
  }

  /** Creates the tables and the accounts, then starts the clients. */
  void start() {
    failover(0, c -> {
      createTable(c, name + "Items", false);
      return null;
    });
    failover(0, c -> {
      createTable(c, name + "Accounts", false);
      return null;
    });
    failover(0, c -> {
      createTable(c, name + "Puts", true);
      return null;
    });
    for (int i = 0; i < ACCOUNTS; i++) {
      String id = "acct" + i;
      failover(i, c -> c.putItem(r -> r.tableName(name + "Accounts")
          .item(Map.of("id", s(id), "kind", s("account"), "balance", n(OPENING)))));
    }
    pool = Executors.newFixedThreadPool(4 * clients.size() + 1);
    workers.add(pool.submit(() -> {
      while (!stopped.get()) {
        samples.add(new long[] {System.nanoTime(), answered.get()});
        Thread.sleep(1000);
      }
      return null;
    }));
    for (int s = 0; s < clients.size(); s++) {
      int server = s;
      for (int t = 0; t < 2; t++) {
        ItemHistories.Client client =
            new ItemHistories.Client(2 * server + t, clients.get(server));
        workers.add(pool.submit(() -> {
          while (!stopped.get()) {
            if (histories.step(client)) {
              answered.incrementAndGet();
            } else {
              failed.incrementAndGet();
              Thread.sleep(100); // not a busy loop on a server that is gone
            }
          }
          return null;
        }));
      }
      workers.add(pool.submit(() -> {
        while (!stopped.get()) {
          transferOnce(server);
        }
      }));
      workers.add(pool.submit(() -> {
        for (long v = 0; !stopped.get(); v++) {
          putOnce(server, "p" + server + "-" + v, v);
        }
      }));
    }
    failover(1 % clients.size(), c -> c.updateTable(r -> r.tableName(name + "Accounts")
        .attributeDefinitions(
            d -> d.attributeName("kind").attributeType("S"),
            d -> d.attributeName("balance").attributeType("N"))
        .globalSecondaryIndexUpdates(u -> u.create(g -> g.indexName(BY_BALANCE)
            .keySchema(k -> k.attributeName("kind").keyType("HASH"),
                k -> k.attributeName("balance").keyType("RANGE"))
            .projection(pr -> pr.projectionType("KEYS_ONLY"))))));
  }

  /** Requests answered so far (with success or an answer such as a failed condition). */
  long answered() {
    return answered.get();
  }

  /** Requests that got no answer or a 500 so far (each attempt of a failed-over request). */
  long failed() {
    return failed.get();
  }

  /** Transfers and puts answered by a server after an attempt that failed (on another one). */
  long failedOver() {
    return failedOver.get();
  }

  /** Requests answered per second over the {@code seconds} before {@code at} (a nanoTime). */
  double rateBefore(long at, int seconds) {
    return (answeredAt(at) - answeredAt(at - TimeUnit.SECONDS.toNanos(seconds))) / (double) seconds;
  }

  /**
   * Requests answered in each {@code bucket} seconds from {@code since} (a nanoTime) to the last
   * sample, for the checks' timelines.
   */
  List<Long> answeredEvery(long since, int bucket) {
    List<Long> counts = new ArrayList<>();
    long last = samples.get(samples.size() - 1)[0];
    for (long from = since; from + TimeUnit.SECONDS.toNanos(bucket) <= last;
        from += TimeUnit.SECONDS.toNanos(bucket)) {
      counts.add(answeredAt(from + TimeUnit.SECONDS.toNanos(bucket)) - answeredAt(from));
    }
    return counts;
  }

  /** Requests answered by the last sample at or before {@code at}. */
  private long answeredAt(long at) {
    long count = 0;
    for (long[] sample : samples) {
      if (sample[0] <= at) {
        count = sample[1];
      }
    }
    return count;
  }

  /** Stops the clients and waits for the requests in flight. */
  void stop() throws Exception {
    stopped.set(true);
    for (Future<?> worker : workers) {
      worker.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();
  }

  /** What {@link #verify} found. */
  record Figures(ItemHistories.Verdict linearizability, long transfersApplied,
      long transfersCancelled, long transfersGivenUp, long total, long acknowledgedPuts,
      long putsGivenUp, long putsLost) {
    long anomalies() {
      return linearizability.anomalies() + (total == ACCOUNTS * OPENING ? 0 : 1) + putsLost;
    }

    @Override
    public String toString() {
      return String.format("linearizability: %s%ntransfers: %d applied, %d cancelled, %d given up;"
              + " total %d of %d%nacknowledged puts: %d verified, %d lost (%d given up"
              + " unacknowledged)%nanomalies: %d", linearizability, transfersApplied,
          transfersCancelled, transfersGivenUp, total, ACCOUNTS * OPENING, acknowledgedPuts,
          putsLost, putsGivenUp, anomalies());
    }
  }

  /**
   * Once stopped: each item's history checked, the accounts' total, and every acknowledged put
   * read back (a consistent Scan through whichever server answers).
   */
  Figures verify() {
    ItemHistories.Verdict verdict = histories.check();
    long total = 0;
    for (Map<String, AttributeValue> account : scanAll(name + "Accounts")) {
      total += Long.parseLong(account.get("balance").n());
    }
    Map<String, Long> stored = new HashMap<>();
    for (Map<String, AttributeValue> item : scanAll(name + "Puts")) {
      stored.put(item.get("id").s(), Long.parseLong(item.get("v").n()));
    }
    long lost = 0;
    for (Map.Entry<String, Long> put : acknowledgedPuts.entrySet()) {
      if (!put.getValue().equals(stored.get(put.getKey()))) {
        lost++;
        System.out.println("lost: acknowledged put of " + put.getKey() + " = " + put.getValue()
            + ", read " + stored.get(put.getKey()));
      }
    }
    return new Figures(verdict, transfersApplied.get(), transfersCancelled.get(),
        transfersGivenUp.get(), total, acknowledgedPuts.size(), putsGivenUp.get(), lost);
  }

  private List<Map<String, AttributeValue>> scanAll(String table) {
    return failover(0, c -> c.scanPaginator(r -> r.tableName(table).consistentRead(true))
        .items().stream().toList());
  }

  private void transferOnce(int server) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int from = random.nextInt(ACCOUNTS);
    int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
    long amount = 1 + random.nextInt(50);
    String token = UUID.randomUUID().toString();
    try {
      failover(server, c -> c.transactWriteItems(r -> r.clientRequestToken(token).transactItems(
          transfer(name + "Accounts", "acct" + from, -amount, true),
          transfer(name + "Accounts", "acct" + to, amount, false))));
      transfersApplied.incrementAndGet();
    } catch (TransactionCanceledException e) {
      transfersCancelled.incrementAndGet();
    } catch (RuntimeException e) {
      transfersGivenUp.incrementAndGet(); // wholly applied or not at all: the total holds
    }
  }

  /**
   * A put of a new item, on the condition that it is new: a retry after an attempt whose answer
   * was lost but which was applied fails its condition instead of writing the item again, so
   * the stream must hold exactly one record of each item in the table.
   */
  private void putOnce(int server, String id, long v) {
    try {
      failover(server, c -> c.putItem(r -> r.tableName(name + "Puts")
          .item(Map.of("id", s(id), "v", n(v))).conditionExpression("attribute_not_exists(id)")));
      acknowledgedPuts.put(id, v);
    } catch (ConditionalCheckFailedException e) {
      putsGivenUp.incrementAndGet(); // applied by an attempt whose answer was lost
    } catch (RuntimeException e) {
      putsGivenUp.incrementAndGet();
    }
  }

  /**
   * Once stopped: waits (two minutes at most) until the accounts' GSI, read through {@code
   * reader}, is ACTIVE and holds one entry per account with the table's balance, in balance
   * order. Returns the anomalies: 1 if it never did.
   */
  long checkIndex(DynamoDbClient reader, String label) throws InterruptedException {
    Map<String, Long> table = new HashMap<>();
    for (Map<String, AttributeValue> account : scanAll(name + "Accounts")) {
      table.put(account.get("id").s(), Long.parseLong(account.get("balance").n()));
    }
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MINUTES.toNanos(2);
    List<String> seen = List.of();
    while (System.nanoTime() < deadline) {
      try {
        String status = reader.describeTable(r -> r.tableName(name + "Accounts")).table()
            .globalSecondaryIndexes().get(0).indexStatusAsString();
        if (status.equals("ACTIVE")) {
          List<Map<String, AttributeValue>> entries = reader.queryPaginator(r -> r
                  .tableName(name + "Accounts").indexName(BY_BALANCE)
                  .keyConditionExpression("kind = :k")
                  .expressionAttributeValues(Map.of(":k", s("account"))))
              .items().stream().toList();
          Map<String, Long> index = new HashMap<>();
          List<Long> order = new ArrayList<>();
          for (Map<String, AttributeValue> e : entries) {
            long balance = Long.parseLong(e.get("balance").n());
            index.put(e.get("id").s(), balance);
            order.add(balance);
          }
          if (entries.size() == table.size() && index.equals(table)
              && order.equals(order.stream().sorted().toList())) {
            System.out.printf("%s: index %s of %d accounts through %s: the table's balances, in"
                    + " order, %.1f s after the load stopped; anomalies: 0%n", label, BY_BALANCE,
                table.size(), reader.serviceClientConfiguration().endpointOverride().orElseThrow(),
                (System.nanoTime() - start) / 1e9);
            return 0;
          }
          seen = entries.stream().map(e -> e.get("id").s() + "=" + e.get("balance").n())
              .toList();
        }
      } catch (SdkClientException | DynamoDbException e) {
        // a server still recovering: read again
      }
      Thread.sleep(500);
    }
    System.out.printf("%s: index %s through %s never held the table's balances %s: last read %s;"
            + " anomalies: 1%n", label, BY_BALANCE,
        reader.serviceClientConfiguration().endpointOverride().orElseThrow(), table, seen);
    return 1;
  }

  /**
   * The stream of the puts' table read through {@code reader}: one INSERT record per item in the
   * table, with its value, none of another item and no eventID twice. Returns the anomalies.
   */
  long checkPutsStream(DynamoDbStreamsClient reader, String label) {
    String arn = failover(0, c -> c.describeTable(r -> r.tableName(name + "Puts")).table()
        .latestStreamArn());
    Map<String, Long> stored = new HashMap<>();
    for (Map<String, AttributeValue> item : scanAll(name + "Puts")) {
      stored.put(item.get("id").s(), Long.parseLong(item.get("v").n()));
    }
    List<Record> records =
        new StreamConsumer(reader, arn).readUntil(r -> r.size() >= stored.size());
    Map<String, Integer> perItem = new HashMap<>();
    long anomalies = 0;
    for (Record rec : records) {
      String id = rec.dynamodb().keys().get("id").s();
      perItem.merge(id, 1, Integer::sum);
      if (rec.eventName() != OperationType.INSERT || !stored.containsKey(id)
          || stored.get(id) != Long.parseLong(rec.dynamodb().newImage().get("v").n())) {
        anomalies++;
        System.out.println("stream anomaly: " + rec);
      }
    }
    long twice = perItem.values().stream().filter(count -> count > 1).count();
    long missing = stored.keySet().stream().filter(id -> !perItem.containsKey(id)).count();
    long eventIds = records.stream().map(Record::eventID).distinct().count();
    anomalies += twice + missing + (records.size() - eventIds);
    System.out.printf("%s: stream of %d puts read through %s: %d records, %d event IDs, %d items"
            + " with two records or more, %d items with none; anomalies: %d%n", label,
        stored.size(), reader.serviceClientConfiguration().endpointOverride().orElseThrow(),
        records.size(), eventIds, twice, missing, anomalies);
    return anomalies;
  }

  /**
   * {@code call} on server {@code first}'s client, then on the next server's and so on while it
   * gets no answer, a 500 or a TransactionInProgressException, for at most two minutes; any other
   * answer (a failed condition, a cancelled transaction) is the outcome.
   */
  <T> T failover(int first, Function<DynamoDbClient, T> call) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    for (int attempt = 0; ; attempt++) {
      DynamoDbClient client = clients.get((first + attempt) % clients.size());
      try {
        T result = call.apply(client);
        answered.incrementAndGet();
        if (attempt > 0) {
          failedOver.incrementAndGet();
        }
        return result;
      } catch (SdkClientException | TransactionInProgressException e) {
        failed.incrementAndGet();
        if (System.nanoTime() > deadline) {
          throw e;
        }
      } catch (DynamoDbException e) {
        if (e.statusCode() < 500) {
          answered.incrementAndGet();
          throw e;
        }
        failed.incrementAndGet();
        if (System.nanoTime() > deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(100L * Math.min(attempt + 1, 10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static AttributeValue s(String s) {
    return AttributeValue.fromS(s);
  }

  private static AttributeValue n(long n) {
    return AttributeValue.fromN(Long.toString(n));
  }
}
