package io.stator.bench;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.stator.item.ItemCodec;
import io.stator.key.KeyCodec;
import io.stator.schema.Catalog;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Stator on Cassandra beside the floor under it: the same operations, at the same client
 * concurrency, in one run, once through Stator's HTTP API with the AWS SDK and once as the one
 * CQL statement a driver would send for it, on a table of the shape Stator's records have.
 *
 * <p>The floor is what Stator cannot beat on that cluster: a GetItem is at least a SELECT of one
 * row, a PutItem an INSERT, a Query a slice SELECT of one partition, a TransactWriteItems of two
 * items one Accord transaction writing two rows of different partitions. Its table is {@code
 * records ((space, bucket), partition, sort)} with {@code transactional_mode = 'full'}, as
 * Stator's, in a keyspace of its own with the same replication, and its rows are the bytes Stator
 * stores for the same items (the key codec's partition and sort bytes, the item codec's value),
 * so the two sides move the same data through the same Cassandra.
 *
 * <p>One more operation, {@code catalog}, weighs what a PutItem's commit pays on Cassandra for
 * the catalog check every write of Stator carries (its table's catalog record version expected
 * in the commit, so that a write computed against a definition another server changed cannot
 * commit): the commit of a PutItem as Stator sends it, an Accord transaction that LETs the
 * item's version, SELECTs it and INSERTs the item under an IF on it, beside the same transaction
 * with a second LET and IF on a catalog-shaped row in another partition (the table's catalog
 * key, one row that every write of the table reads), both in CQL on the floor's table. The
 * expected versions are the ones this client last wrote, so the IFs hold but where two clients
 * met on one item; a refused IF reads as much as one that held, and is counted, not an error.
 * And {@code spread} (not run unless named): the same two-LET transaction, its second row drawn
 * at random from a catalog-shaped row in each item partition, beside the item's alone: what a
 * second partition costs when the transactions do not all read the same row. And {@code fence}
 * (not run unless named): the same, its second row the one of 64 catalog-shaped rows whose first
 * byte is the item's bucket with its two low bits cleared, as Stator's writes expect one of the
 * 64 fences of their table's catalog record (see {@code Catalog}).
 *
 * <p>Each operation runs on each side for a warm-up and then a measured period, the sides in
 * turn (alternating which goes first), with {@code clients} threads each sending one request at
 * a time: throughput, latency percentiles, errors, and the CPU each process spent per operation
 * (this client, the Stator server, the Cassandra nodes, the last two less what they use idle),
 * which on a small shared machine says where the time goes. Prints the figures and a table of
 * Stator's cost as a multiple of the floor's; bench/cassandra.sh starts the server and runs it.
 *
 * <pre>
 * java -cp stator-bench/target/benchmarks.jar io.stator.bench.CqlFloor
 *     --endpoint http://127.0.0.1:18100 --contact-points 127.0.0.1:9042
 *     [--replication "{'class': 'SimpleStrategy', 'replication_factor': 1}"]
 *     [--operations get,put,query,transact,catalog[,spread][,fence]] [--clients 16] [--warmup 5]
 *     [--duration 20] [--repeats 1] [--partitions 1000] [--floor-keyspace stator_floor]
 *     [--server-pid PID] [--node-pids PID,PID]
 * </pre>
 */
public final class CqlFloor {
  private static final String TABLE = "bench";
  private static final int PER_PARTITION = Data.PER_PARTITION;
  private static final int BUCKETS = 256;
  private static final long TICK_NANOS = 10_000_000L; // USER_HZ = 100 on Linux

  private final Map<String, String> options;
  private final int partitions;
  private final String floorKeyspace;
  private final int clients;
  private final DynamoDbClient dynamo;
  private final CqlSession cql;
  private final UUID space = UUID.randomUUID();
  private final byte[][] partitionBytes;
  private final byte[][] sortBytes;
  private final AtomicLong versions = new AtomicLong(1);
  /** The catalog-shaped row's space, and the version of each floor row as last written. */
  private final UUID catalogSpace = UUID.randomUUID();
  private final StorageKey catalogKey = Catalog.key(TABLE);
  private final long catalogVersion = versions.getAndIncrement();
  private final AtomicLongArray written;
  private final AtomicLong refused = new AtomicLong();
  private PreparedStatement select;
  private PreparedStatement insert;
  private PreparedStatement slice;
  private PreparedStatement transaction;
  private PreparedStatement itemCommit;
  private PreparedStatement catalogCommit;
  private double idleNodes;
  private double idleServer;

  private CqlFloor(Map<String, String> options) {
    this.options = options;
    partitions = Integer.parseInt(options.getOrDefault("partitions", "1000"));
    floorKeyspace = options.getOrDefault("floor-keyspace", "stator_floor");
    clients = Integer.parseInt(options.getOrDefault("clients", "16"));
    dynamo = DynamoDbClient.builder()
        .endpointOverride(URI.create(options.get("endpoint")))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("bench", "bench")))
        .httpClient(Apache5HttpClient.builder().maxConnections(clients).build())
        .overrideConfiguration(c -> c
            .retryPolicy(RetryPolicy.none())
            .apiCallTimeout(Duration.ofSeconds(30)))
        .build();
    List<InetSocketAddress> points = new ArrayList<>();
    for (String point : options.get("contact-points").split(",")) {
      int colon = point.lastIndexOf(':');
      points.add(new InetSocketAddress(
          point.substring(0, colon), Integer.parseInt(point.substring(colon + 1))));
    }
    // As Stator's session: QUORUM, a 12 s timeout; one connection per node, as Stator's has.
    cql = CqlSession.builder()
        .addContactPoints(points)
        .withLocalDatacenter(options.getOrDefault("local-datacenter", "datacenter1"))
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(12))
            .withString(DefaultDriverOption.REQUEST_CONSISTENCY, ConsistencyLevel.QUORUM.name())
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT,
                Duration.ofSeconds(60))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT,
                Duration.ofSeconds(60))
            .build())
        .build();
    partitionBytes = new byte[partitions][];
    for (int p = 0; p < partitions; p++) {
      partitionBytes[p] = KeyCodec.partition(AttributeValue.s(Data.pk(p)));
    }
    written = new AtomicLongArray(partitions * PER_PARTITION);
    sortBytes = new byte[PER_PARTITION][];
    for (int s = 0; s < PER_PARTITION; s++) {
      sortBytes[s] = KeyCodec.sort(AttributeValue.n(Integer.toString(s)));
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        System.err.println("usage: see the class's documentation; bad argument " + args[i]);
        System.exit(2);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    if (!options.containsKey("endpoint") || !options.containsKey("contact-points")) {
      System.err.println("--endpoint and --contact-points are needed");
      System.exit(2);
    }
    CqlFloor bench = new CqlFloor(options);
    try {
      bench.run();
    } finally {
      bench.close();
    }
  }

  // ---------------------------------------------------------------- the run

  private void run() throws Exception {
    List<String> operations =
        List.of(options.getOrDefault("operations", "get,put,query,transact,catalog").split(","));
    double warmup = Double.parseDouble(options.getOrDefault("warmup", "5"));
    double duration = Double.parseDouble(options.getOrDefault("duration", "20"));
    int repeats = Integer.parseInt(options.getOrDefault("repeats", "1"));
    log("loading " + partitions * PER_PARTITION + " items on each side ...");
    loadStator();
    loadFloor();
    idleNodes = idleRate(options.get("node-pids"));
    idleServer = idleRate(options.get("server-pid"));
    log(String.format(Locale.ROOT, "idle CPU: Cassandra %.3f, server %.3f of a core",
        idleNodes, idleServer));
    Map<String, List<Side>> pairs = new LinkedHashMap<>();
    Map<String, Side> floor = floorSide();
    statorSide().forEach((operation, side) ->
        pairs.put(operation, List.of(side, floor.get(operation))));
    pairs.put("catalog", List.of(
        new Side("catalog", "catalog", random -> guardedPut(random, Second.CATALOG)),
        new Side("catalog", "item", random -> guardedPut(random, Second.NONE))));
    pairs.put("fence", List.of(
        new Side("fence", "fence", random -> guardedPut(random, Second.FENCE)),
        new Side("fence", "item", random -> guardedPut(random, Second.NONE))));
    pairs.put("spread", List.of(
        new Side("spread", "spread", random -> guardedPut(random, Second.SPREAD)),
        new Side("spread", "item", random -> guardedPut(random, Second.NONE))));
    List<Result> results = new ArrayList<>();
    int turn = 0;
    for (int r = 0; r < repeats; r++) {
      for (String operation : operations) {
        List<Side> pair = pairs.get(operation);
        if (pair == null) {
          throw new IllegalArgumentException("no operation " + operation);
        }
        List<Side> order = turn++ % 2 == 0 ? pair : List.of(pair.get(1), pair.get(0));
        for (Side side : order) {
          measure(side, warmup); // warm-up, thrown away
          Result result = measure(side, duration);
          log(result.line());
          results.add(result);
        }
      }
    }
    if (operations.contains("catalog") || operations.contains("spread")
        || operations.contains("fence")) {
      log(refused + " commits of the catalog, spread and fence operations refused by their IF"
          + " (clients that met on an item)");
    }
    printTable(operations, pairs, results);
    dropFloor();
  }

  /**
   * One operation on one side: {@code side} "stator" or "floor" (for {@code catalog}, "catalog"
   * or "item"), its call.
   */
  private record Side(String operation, String side, Call call) {}

  @FunctionalInterface
  private interface Call {
    /** One request, with the thread's random numbers; throws if it failed. */
    void run(SplittableRandom random) throws Exception;
  }

  // ---------------------------------------------------------------- Stator over HTTP

  private Map<String, Side> statorSide() {
    Map<String, Side> sides = new LinkedHashMap<>();
    sides.put("get", new Side("get", "stator", random -> {
      int p = random.nextInt(partitions);
      int s = random.nextInt(PER_PARTITION);
      var answer = dynamo.getItem(b -> b.tableName(TABLE).key(sdkKey(p, s)));
      if (!answer.hasItem()) {
        throw new IllegalStateException("GetItem found no item " + Data.pk(p) + "/" + s);
      }
    }));
    sides.put("put", new Side("put", "stator", random -> {
      int p = random.nextInt(partitions);
      int s = random.nextInt(PER_PARTITION);
      dynamo.putItem(b -> b.tableName(TABLE).item(sdkItem(p, s, random.nextLong())));
    }));
    sides.put("query", new Side("query", "stator", random -> {
      int p = random.nextInt(partitions);
      var answer = dynamo.query(b -> b.tableName(TABLE)
          .keyConditionExpression("pk = :p")
          .expressionAttributeValues(
              Map.of(":p", software.amazon.awssdk.services.dynamodb.model.AttributeValue
                  .fromS(Data.pk(p))))
          .limit(PER_PARTITION));
      if (answer.count() != PER_PARTITION) {
        throw new IllegalStateException("Query found " + answer.count() + " items");
      }
    }));
    sides.put("transact", new Side("transact", "stator", random -> {
      int p = random.nextInt(partitions);
      int q = (p + 1 + random.nextInt(partitions - 1)) % partitions;
      long n = random.nextLong();
      dynamo.transactWriteItems(b -> b.transactItems(
          TransactWriteItem.builder().put(Put.builder().tableName(TABLE)
              .item(sdkItem(p, random.nextInt(PER_PARTITION), n)).build()).build(),
          TransactWriteItem.builder().put(Put.builder().tableName(TABLE)
              .item(sdkItem(q, random.nextInt(PER_PARTITION), n)).build()).build()));
    }));
    return sides;
  }

  private void loadStator() throws InterruptedException {
    try {
      dynamo.deleteTable(b -> b.tableName(TABLE)); // a run stopped before it dropped its table
      dynamo.waiter().waitUntilTableNotExists(b -> b.tableName(TABLE));
    } catch (ResourceNotFoundException e) {
      // none
    }
    dynamo.createTable(b -> b.tableName(TABLE)
        .attributeDefinitions(
            AttributeDefinition.builder().attributeName("pk")
                .attributeType(ScalarAttributeType.S).build(),
            AttributeDefinition.builder().attributeName("sk")
                .attributeType(ScalarAttributeType.N).build())
        .keySchema(
            KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build(),
            KeySchemaElement.builder().attributeName("sk").keyType(KeyType.RANGE).build())
        .billingMode(BillingMode.PAY_PER_REQUEST));
    dynamo.waiter().waitUntilTableExists(b -> b.tableName(TABLE));
    // Each client thread loads its share of the partitions in batches of 25 (two partitions).
    List<Thread> threads = new ArrayList<>();
    AtomicLong failures = new AtomicLong();
    for (int t = 0; t < clients; t++) {
      int first = t;
      threads.add(started(() -> {
        for (int p = first * 2; p < partitions; p += clients * 2) {
          List<WriteRequest> writes = new ArrayList<>();
          for (int q = p; q < Math.min(p + 2, partitions); q++) {
            for (int s = 0; s < PER_PARTITION; s++) {
              writes.add(WriteRequest.builder()
                  .putRequest(PutRequest.builder().item(sdkItem(q, s, s)).build()).build());
            }
          }
          // A batch is sent again with what was left unprocessed, or whole after a 500 or a
          // timeout (a busy cluster's), as a client's retries would.
          Map<String, List<WriteRequest>> pending = Map.of(TABLE, writes);
          for (int attempt = 0; !pending.isEmpty(); attempt++) {
            if (attempt == 10) {
              failures.incrementAndGet();
              return;
            }
            Map<String, List<WriteRequest>> batch = pending;
            try {
              BatchWriteItemResponse answer = dynamo.batchWriteItem(b -> b.requestItems(batch));
              pending = answer.unprocessedItems();
            } catch (InternalServerErrorException | ApiCallTimeoutException e) {
              log("a load batch is sent again after " + e.getClass().getSimpleName());
            }
          }
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failures.get() > 0) {
      throw new IllegalStateException("the load left unprocessed items in " + failures + " batches");
    }
  }

  private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
      sdkKey(int p, int s) {
    return Map.of(
        "pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(Data.pk(p)),
        "sk", software.amazon.awssdk.services.dynamodb.model.AttributeValue
            .fromN(Integer.toString(s)));
  }

  /** The load benchmark's item ({@link Data#item}), as the SDK sends it. */
  private static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>
      sdkItem(int p, int s, long n) {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item =
        new HashMap<>();
    Data.item(p, s, n).forEach((name, value) -> {
      if (value instanceof AttributeValue.S text) {
        item.put(name,
            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(text.value()));
      } else if (value instanceof AttributeValue.N number) {
        item.put(name,
            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(number.value()));
      } else {
        throw new IllegalStateException("not in the bench's items: " + value);
      }
    });
    return item;
  }

  // ---------------------------------------------------------------- the floor: CQL

  private void loadFloor() {
    String replication = options.getOrDefault(
        "replication", "{'class': 'SimpleStrategy', 'replication_factor': 1}");
    ddl("CREATE KEYSPACE IF NOT EXISTS " + floorKeyspace + " WITH replication = " + replication);
    // Stator's records table (docs/cassandra.md, "Mapping"), under another keyspace.
    ddl("CREATE TABLE IF NOT EXISTS " + floorKeyspace + ".records ("
        + " space uuid, bucket int, partition blob, sort blob, version bigint, value blob,"
        + " size int, PRIMARY KEY ((space, bucket), partition, sort))"
        + " WITH transactional_mode = 'full'");
    String table = floorKeyspace + ".records";
    String key = "space = ? AND bucket = ? AND partition = ? AND sort = ?";
    select = cql.prepare("SELECT version, value FROM " + table + " WHERE " + key);
    insert = cql.prepare("INSERT INTO " + table
        + " (space, bucket, partition, sort, version, value, size) VALUES (?, ?, ?, ?, ?, ?, ?)");
    slice = cql.prepare("SELECT sort, version, value FROM " + table
        + " WHERE space = ? AND bucket = ? AND partition = ? LIMIT ?");
    String row = "    INSERT INTO " + table
        + " (space, bucket, partition, sort, version, value, size) VALUES (?, ?, ?, ?, ?, ?, ?);\n";
    transaction = cql.prepare("BEGIN TRANSACTION\n" + row + row + "COMMIT TRANSACTION");
    // A PutItem's commit as CassandraStorage.commit writes it, without and with the catalog's
    // expectation: the LETs, the SELECT of what they read, the IF, the INSERT inside it.
    String item = "  LET e0 = (SELECT version FROM " + table + " WHERE " + key + ");\n";
    String catalog = "  LET e1 = (SELECT version FROM " + table + " WHERE " + key + ");\n";
    itemCommit = cql.prepare("BEGIN TRANSACTION\n" + item + "  SELECT e0.version;\n"
        + "  IF e0.version = ? THEN\n" + row + "  END IF\nCOMMIT TRANSACTION");
    catalogCommit = cql.prepare("BEGIN TRANSACTION\n" + item + catalog
        + "  SELECT e0.version, e1.version;\n"
        + "  IF e0.version = ? AND e1.version = ? THEN\n" + row + "  END IF\nCOMMIT TRANSACTION");
    byte[] definition = new byte[400]; // about a table definition's encoding
    cql.execute(insert.bind(catalogSpace, catalogBucket(), buffer(catalogKey.partition()),
        buffer(catalogKey.sort()), catalogVersion, ByteBuffer.wrap(definition),
        catalogKey.partition().length + catalogKey.sort().length + definition.length));
    List<CompletionStage<?>> pending = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      for (int s = 0; s < PER_PARTITION; s++) {
        send(pending, insert.bind(insertValues(p, s, s)));
      }
      // The spread operation's catalog-shaped row in the partition.
      send(pending, insert.bind(catalogSpace, bucket(p), buffer(partitionBytes[p]),
          buffer(catalogKey.sort()), catalogVersion, ByteBuffer.wrap(definition),
          partitionBytes[p].length + definition.length));
    }
    // The fence operation's 64 catalog-shaped rows, in buckets 0, 4, 8 ... 252.
    for (int f = 0; f < FENCES; f++) {
      send(pending, insert.bind(catalogSpace, f * 4, buffer(fencePartition(f)),
          buffer(catalogKey.sort()), catalogVersion, ByteBuffer.wrap(new byte[0]),
          fencePartition(f).length));
    }
    pending.forEach(f -> f.toCompletableFuture().join());
  }

  /** The fence operation's row {@code f}: its bucket's byte, then the table's name. */
  private byte[] fencePartition(int f) {
    byte[] name = catalogKey.partition();
    byte[] out = new byte[name.length + 1];
    out[0] = (byte) (f * 4);
    System.arraycopy(name, 0, out, 1, name.length);
    return out;
  }

  /** Sends a load's statement, 64 at most in flight. */
  private void send(List<CompletionStage<?>> pending, BoundStatement statement) {
    pending.add(cql.executeAsync(statement));
    if (pending.size() == 64) {
      pending.forEach(f -> f.toCompletableFuture().join());
      pending.clear();
    }
  }

  private Map<String, Side> floorSide() {
    Map<String, Side> sides = new LinkedHashMap<>();
    sides.put("get", new Side("get", "floor", random -> {
      int p = random.nextInt(partitions);
      int s = random.nextInt(PER_PARTITION);
      if (cql.execute(select.bind(space, bucket(p), buffer(partitionBytes[p]),
          buffer(sortBytes[s]))).one() == null) {
        throw new IllegalStateException("SELECT found no row " + Data.pk(p) + "/" + s);
      }
    }));
    sides.put("put", new Side("put", "floor", random -> {
      int p = random.nextInt(partitions);
      int s = random.nextInt(PER_PARTITION);
      cql.execute(insert.bind(insertValues(p, s, random.nextLong())));
    }));
    sides.put("query", new Side("query", "floor", random -> {
      int p = random.nextInt(partitions);
      int rows = cql.execute(slice.bind(space, bucket(p), buffer(partitionBytes[p]),
          PER_PARTITION)).all().size();
      if (rows != PER_PARTITION) {
        throw new IllegalStateException("the slice found " + rows + " rows");
      }
    }));
    sides.put("transact", new Side("transact", "floor", random -> {
      int p = random.nextInt(partitions);
      int q = (p + 1 + random.nextInt(partitions - 1)) % partitions;
      long n = random.nextLong();
      Object[] first = insertValues(p, random.nextInt(PER_PARTITION), n);
      Object[] second = insertValues(q, random.nextInt(PER_PARTITION), n);
      Object[] both = Arrays.copyOf(first, first.length * 2);
      System.arraycopy(second, 0, both, first.length, second.length);
      cql.execute(transaction.bind(both));
    }));
    return sides;
  }

  /** The values of an INSERT of item (p, s) as Stator would store it. */
  private Object[] insertValues(int p, int s, long n) {
    byte[] value = ItemCodec.encode(Data.item(p, s, n));
    long version = versions.getAndIncrement();
    written.set(p * PER_PARTITION + s, version);
    return new Object[] {
      space, bucket(p), buffer(partitionBytes[p]), buffer(sortBytes[s]),
      version, ByteBuffer.wrap(value),
      partitionBytes[p].length + sortBytes[s].length + value.length
    };
  }

  private int bucket(int p) {
    return partitionBytes[p][0] & 0xff;
  }

  private int catalogBucket() {
    return catalogKey.partition()[0] & 0xff;
  }

  /**
   * The second row a PutItem's commit expects: none, the one catalog row of the table, a
   * catalog-shaped row of a random partition, or the fence of the item's bucket.
   */
  private enum Second { NONE, CATALOG, SPREAD, FENCE }

  /** How many rows the fence operation spreads its second reads over. */
  private static final int FENCES = 64;

  /** A PutItem's commit of a random item, expecting its version (and the second row's). */
  private void guardedPut(SplittableRandom random, Second second) {
    boolean catalog = second != Second.NONE;
    int p = random.nextInt(partitions);
    int s = random.nextInt(PER_PARTITION);
    int at = p * PER_PARTITION + s;
    long expected = written.get(at);
    Object[] item = insertValues(p, s, random.nextLong()); // records its new version
    long version = (Long) item[4];
    List<Object> values = new ArrayList<>();
    values.add(space);
    values.add(bucket(p));
    values.add(buffer(partitionBytes[p]));
    values.add(buffer(sortBytes[s]));
    if (second == Second.FENCE) {
      int f = bucket(p) / 4;
      values.add(catalogSpace);
      values.add(f * 4);
      values.add(buffer(fencePartition(f)));
      values.add(buffer(catalogKey.sort()));
    } else if (catalog) {
      int q = random.nextInt(partitions);
      values.add(catalogSpace);
      values.add(second == Second.SPREAD ? bucket(q) : catalogBucket());
      values.add(buffer(second == Second.SPREAD ? partitionBytes[q] : catalogKey.partition()));
      values.add(buffer(catalogKey.sort()));
    }
    values.add(expected);
    if (catalog) {
      values.add(catalogVersion);
    }
    values.addAll(Arrays.asList(item));
    var row = cql.execute((catalog ? catalogCommit : itemCommit).bind(values.toArray())).one();
    long read = row == null || row.isNull(0) ? -1 : row.getLong(0);
    if (read != expected || catalog && (row.isNull(1) || row.getLong(1) != catalogVersion)) {
      refused.incrementAndGet();
      written.compareAndSet(at, version, read); // the next commit of it expects what is stored
    }
  }

  private static ByteBuffer buffer(byte[] bytes) {
    return ByteBuffer.wrap(bytes);
  }

  private void ddl(String statement) {
    cql.execute(SimpleStatement.newInstance(statement).setTimeout(Duration.ofSeconds(60)));
  }

  /** This run's rows: its space's 256 partitions, deleted at once. */
  private void dropFloor() {
    PreparedStatement delete =
        cql.prepare("DELETE FROM " + floorKeyspace + ".records WHERE space = ? AND bucket = ?");
    List<CompletionStage<?>> pending = new ArrayList<>();
    for (int b = 0; b < BUCKETS; b++) {
      pending.add(cql.executeAsync(delete.bind(space, b)));
    }
    for (int b = 0; b < BUCKETS; b++) {
      pending.add(cql.executeAsync(delete.bind(catalogSpace, b)));
    }
    pending.forEach(f -> f.toCompletableFuture().join());
    try {
      dynamo.deleteTable(b -> b.tableName(TABLE));
    } catch (RuntimeException e) {
      log("could not delete the table " + TABLE + ": " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------- measuring

  /** What one side did in one measured period. */
  private record Result(
      String operation, String side, double seconds, long ok, long errors, String firstError,
      long[] nanos, double clientCpu, double serverCpu, double nodesCpu, String load) {

    double perSecond() {
      return ok / seconds;
    }

    double percentileMs(double q) {
      if (nanos.length == 0) {
        return Double.NaN;
      }
      return nanos[(int) Math.min(nanos.length - 1, Math.ceil(q * nanos.length) - 1)] / 1e6;
    }

    /** CPU microseconds per successful operation (NaN where the process was not measured). */
    double perOp(double cpuSeconds) {
      return ok == 0 || Double.isNaN(cpuSeconds) ? Double.NaN : cpuSeconds * 1e6 / ok;
    }

    String line() {
      return String.format(Locale.ROOT,
          "%-8s %-6s %8.0f ops/s  p50 %6.2f ms  p99 %7.2f ms  errors %d%s  CPU µs/op: client"
              + " %.0f, server %.0f, Cassandra %.0f  load %s",
          operation, side, perSecond(), percentileMs(0.50), percentileMs(0.99), errors,
          firstError == null ? "" : " (" + firstError + ")", perOp(clientCpu),
          side.equals("stator") ? perOp(serverCpu) : Double.NaN, perOp(nodesCpu), load);
    }
  }

  /**
   * Runs {@code side} on {@code clients} threads for {@code seconds}; each thread sends its next
   * request when the last is answered.
   */
  private Result measure(Side side, double seconds) throws InterruptedException {
    long[][] latencies = new long[clients][];
    int[] counts = new int[clients];
    AtomicLong errors = new AtomicLong();
    String[] firstError = new String[1];
    long clientCpu0 = clientCpuNanos();
    long server0 = ticks(options.get("server-pid"));
    long nodes0 = ticks(options.get("node-pids"));
    long start = System.nanoTime();
    long end = start + (long) (seconds * 1e9);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < clients; t++) {
      int thread = t;
      SplittableRandom random = new SplittableRandom(System.nanoTime() ^ (31L * t));
      threads.add(started(() -> {
        long[] mine = new long[4096];
        int n = 0;
        while (true) {
          long t0 = System.nanoTime();
          if (t0 >= end) {
            break;
          }
          try {
            side.call().run(random);
            if (n == mine.length) {
              mine = Arrays.copyOf(mine, n * 2);
            }
            mine[n++] = System.nanoTime() - t0;
          } catch (Exception e) {
            if (errors.getAndIncrement() == 0) {
              firstError[0] = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
          }
        }
        latencies[thread] = mine;
        counts[thread] = n;
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int t = 0; t < clients; t++) {
      System.arraycopy(latencies[t], 0, all, at, counts[t]);
      at += counts[t];
    }
    Arrays.sort(all);
    return new Result(side.operation(), side.side(), elapsed, total, errors.get(), firstError[0],
        all, (clientCpuNanos() - clientCpu0) / 1e9,
        cpuSeconds(server0, ticks(options.get("server-pid"))) - idleServer * elapsed,
        cpuSeconds(nodes0, ticks(options.get("node-pids"))) - idleNodes * elapsed,
        loadAverage());
  }

  private static Thread started(Runnable body) {
    Thread thread = new Thread(body);
    thread.start();
    return thread;
  }

  private static long clientCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** User and system CPU ticks of the processes named (pids separated by commas), -1 if none. */
  private static long ticks(String pids) {
    if (pids == null || pids.isBlank()) {
      return -1;
    }
    long total = 0;
    for (String pid : pids.split(",")) {
      try {
        String stat = Files.readString(Path.of("/proc", pid.trim(), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        total += Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
      } catch (Exception e) {
        return -1;
      }
    }
    return total;
  }

  /**
   * The share of a core the processes use with no request for 5 s: Cassandra's own work
   * (compaction, the Accord journal, gossip), which the CPU per operation leaves out, since at a
   * few hundred operations a second it would weigh more than the operations.
   */
  private static double idleRate(String pids) throws InterruptedException {
    long before = ticks(pids);
    long start = System.nanoTime();
    Thread.sleep(5000);
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = cpuSeconds(before, ticks(pids));
    return Double.isNaN(cpu) ? 0 : cpu / seconds;
  }

  private static double cpuSeconds(long before, long after) {
    return before < 0 || after < 0 ? Double.NaN : (after - before) * TICK_NANOS / 1e9;
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0];
    } catch (Exception e) {
      return "?";
    }
  }

  // ---------------------------------------------------------------- report

  private static final Map<String, String> NAMES = Map.of(
      "get", "GetItem", "put", "PutItem", "query", "Query (10 items)",
      "transact", "TransactWriteItems (2 puts)", "catalog", "PutItem's commit (CQL)",
      "spread", "PutItem's commit, second row spread (CQL)",
      "fence", "PutItem's commit, the item's catalog fence (CQL)");
  private static final Map<String, String> SIDES = Map.of(
      "stator", "Stator (HTTP, AWS SDK)", "floor", "CQL floor",
      "catalog", "item and catalog expected", "item", "item expected",
      "spread", "item and a random partition's row expected",
      "fence", "item and its bucket's fence expected");
  private static final Map<String, Double> TARGETS =
      Map.of("get", 1.5, "put", 1.5, "query", 1.5, "transact", 1.2);

  /**
   * The markdown table: each side's figures (the medians over the repeats), and the first side's
   * cost as a multiple of the second's: Stator's over the floor's (the floor's throughput over
   * Stator's, Stator's latency over the floor's, so 1.0 is the floor and the target is at most
   * 1.5, 1.2 for transactions), and for the catalog operation, the commit with the catalog's
   * expectation over the commit without it.
   */
  private static void printTable(
      List<String> operations, Map<String, List<Side>> pairs, List<Result> results) {
    System.out.println();
    System.out.println("| operation | side | ops/s | p50 ms | p99 ms | errors"
        + " | CPU µs/op client, server, Cassandra"
        + " | Stator ÷ floor (catalog, spread or fence ÷ item): ops/s, p50, p99 | target |");
    System.out.println("|---|---|---:|---:|---:|---:|---|---|---|");
    for (String operation : operations) {
      List<Side> pair = pairs.get(operation);
      Result first = median(results, operation, pair.get(0).side());
      Result second = median(results, operation, pair.get(1).side());
      for (Result r : List.of(first, second)) {
        String ratio = "";
        String target = "";
        if (r == first) {
          double throughput = second.perSecond() / first.perSecond();
          double p50 = first.percentileMs(0.5) / second.percentileMs(0.5);
          double p99 = first.percentileMs(0.99) / second.percentileMs(0.99);
          ratio = String.format(Locale.ROOT, "%.2f×, %.2f×, %.2f×", throughput, p50, p99);
          Double goal = TARGETS.get(operation);
          target = goal == null ? "-" : String.format(Locale.ROOT, "≤ %.1f×: %s", goal,
              Math.max(throughput, p50) <= goal ? "met" : "missed");
        }
        boolean stator = r.side().equals("stator");
        System.out.println(String.format(Locale.ROOT,
            "| %s | %s | %.0f | %.2f | %.2f | %d | %s | %s | %s |",
            NAMES.get(operation), SIDES.get(r.side()),
            r.perSecond(), r.percentileMs(0.5), r.percentileMs(0.99), r.errors(),
            String.format(Locale.ROOT, "%.0f, %s, %s", r.perOp(r.clientCpu()),
                stator ? format(r.perOp(r.serverCpu())) : "-",
                format(r.perOp(r.nodesCpu()))),
            ratio, target));
      }
    }
  }

  private static String format(double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f", value);
  }

  /** The repeat of median throughput of one operation on one side. */
  private static Result median(List<Result> results, String operation, String side) {
    List<Result> runs = new ArrayList<>();
    for (Result r : results) {
      if (r.operation().equals(operation) && r.side().equals(side)) {
        runs.add(r);
      }
    }
    runs.sort((a, b) -> Double.compare(a.perSecond(), b.perSecond()));
    return runs.get(runs.size() / 2);
  }

  private static void log(String line) {
    System.err.println("[cqlfloor] " + line);
  }

  private void close() {
    dynamo.close();
    cql.close();
  }
}
