package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.capacity.CapacityMode;
import io.stator.capacity.ManualClock;
import io.stator.engine.EngineOptions;
import io.stator.server.Main;
import io.stator.server.StatorServer;
import io.stator.storage.memory.MemoryStorage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Capacity through the AWS SDK: ReturnConsumedCapacity shapes, and enforce mode throttling on a
 * server whose engine runs on a clock the test moves.
 */
class CapacityTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private StatorServer server;
  private DynamoDbClient client;

  private void start(CapacityMode mode) {
    server = StatorServer.start("127.0.0.1", 0, Stator.open(new MemoryStorage(),
        EngineOptions.defaults().withClock(clock).withCapacityMode(mode)));
    client = DynamoDbEndpoint.client(URI.create(endpoint()));
  }

  private String endpoint() {
    return "http://127.0.0.1:" + server.port();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static AttributeDefinition string(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S)
        .build();
  }

  private static KeySchemaElement hash(String name) {
    return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
  }

  private void createTable(String name, Long read, Long write) {
    client.createTable(b -> {
      b.tableName(name).attributeDefinitions(string("pk")).keySchema(hash("pk"));
      if (read == null) {
        b.billingMode(BillingMode.PAY_PER_REQUEST);
      } else {
        b.provisionedThroughput(p -> p.readCapacityUnits(read).writeCapacityUnits(write));
      }
    });
  }

  /** An item of {@code size} bytes: "pk" + its value, "d" + filler. */
  private static Map<String, AttributeValue> item(String pk, int size) {
    int filler = size - 2 - pk.length() - 1;
    return Map.of(
        "pk", AttributeValue.fromS(pk),
        "d", AttributeValue.fromS("x".repeat(filler)));
  }

  @Test
  void returnConsumedCapacityTotalAndIndexes() {
    start(CapacityMode.OBSERVE);
    createTable("Music", null, null);
    ConsumedCapacity total = client.putItem(b -> b.tableName("Music").item(item("a", 1536))
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
    assertThat(total.tableName()).isEqualTo("Music");
    assertThat(total.capacityUnits()).isEqualTo(2.0);
    // TOTAL is CapacityUnits alone: no read/write split, as DynamoDB answers a single item write
    assertThat(total.writeCapacityUnits()).isNull();
    assertThat(total.readCapacityUnits()).isNull();
    assertThat(total.table()).isNull();

    ConsumedCapacity indexes = client.getItem(b -> b.tableName("Music")
        .key(Map.of("pk", AttributeValue.fromS("a"))).consistentRead(true)
        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    assertThat(indexes.capacityUnits()).isEqualTo(1.0);
    assertThat(indexes.readCapacityUnits()).isNull();
    assertThat(indexes.table().capacityUnits()).isEqualTo(1.0);
    assertThat(indexes.table().readCapacityUnits()).isNull();
    assertThat(indexes.hasGlobalSecondaryIndexes()).isFalse();

    ConsumedCapacity missing = client.getItem(b -> b.tableName("Music")
        .key(Map.of("pk", AttributeValue.fromS("nothing")))
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
    assertThat(missing.capacityUnits()).isEqualTo(0.5);

    ConsumedCapacity query = client.query(b -> b.tableName("Music")
        .keyConditionExpression("pk = :a")
        .expressionAttributeValues(Map.of(":a", AttributeValue.fromS("a")))
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
    assertThat(query.capacityUnits()).isEqualTo(0.5);

    assertThat(client.putItem(b -> b.tableName("Music").item(item("b", 10)))
        .consumedCapacity()).isNull();
  }

  @Test
  void onDemandThroughputIsACeilingAboveWhichRequestsAreThrottled() {
    start(CapacityMode.ENFORCE);
    client.createTable(b -> b.tableName("Capped")
        .attributeDefinitions(string("pk"))
        .keySchema(hash("pk"))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .onDemandThroughput(o -> o.maxReadRequestUnits(2L).maxWriteRequestUnits(3L)));
    // Up to the ceiling, in one second: three writes of 1 WCU.
    for (int i = 0; i < 3; i++) {
      String pk = "k" + i;
      client.putItem(b -> b.tableName("Capped").item(item(pk, 100)));
    }
    // One more is above it.
    ThrottlingException write = catchThrowableOfType(
        () -> client.putItem(b -> b.tableName("Capped").item(item("k3", 100))),
        ThrottlingException.class);
    assertMaxOnDemandThrottle(write, "TableWriteMaxOnDemandThroughputExceeded",
        "arn:aws:dynamodb:us-east-1:000000000000:table/Capped");
    // Nothing was written (an eventually consistent read: 0.5 RCU of the 2).
    assertThat(client.getItem(b -> b.tableName("Capped")
        .key(Map.of("pk", AttributeValue.fromS("k3")))).hasItem()).isFalse();
    // A strongly consistent read is 1 RCU: 1.5 taken, then one more is above the ceiling.
    client.getItem(b -> b.tableName("Capped").key(Map.of("pk", AttributeValue.fromS("k0")))
        .consistentRead(true));
    ThrottlingException read = catchThrowableOfType(
        () -> client.getItem(b -> b.tableName("Capped")
            .key(Map.of("pk", AttributeValue.fromS("k1"))).consistentRead(true)),
        ThrottlingException.class);
    assertMaxOnDemandThrottle(read, "TableReadMaxOnDemandThroughputExceeded",
        "arn:aws:dynamodb:us-east-1:000000000000:table/Capped");
    // In a transaction it is that action's ThrottlingError, in the same words.
    TransactionCanceledException cancelled = catchThrowableOfType(
        () -> client.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder()
            .put(p -> p.tableName("Capped").item(item("k4", 100))).build())),
        TransactionCanceledException.class);
    assertThat(cancelled.cancellationReasons()).singleElement().satisfies(r -> {
      assertThat(r.code()).isEqualTo("ThrottlingError");
      assertThat(r.message()).isEqualTo(
          "Throughput exceeds the maximum OnDemandThroughput configured on table or index");
    });

    // A second later the ceiling's second is back.
    clock.advanceSeconds(1);
    client.putItem(b -> b.tableName("Capped").item(item("k3", 100)));
    // A higher ceiling, set by UpdateTable, applies from the next request on.
    client.updateTable(b -> b.tableName("Capped").onDemandThroughput(o -> o
        .maxWriteRequestUnits(10L)));
    for (int i = 0; i < 10; i++) {
      String pk = "n" + i;
      client.putItem(b -> b.tableName("Capped").item(item(pk, 100)));
    }
    assertThat(catchThrowableOfType(
        () -> client.putItem(b -> b.tableName("Capped").item(item("n10", 100))),
        ThrottlingException.class)).isNotNull();
    // And -1 removes it: the table is on-demand without a ceiling again.
    client.updateTable(b -> b.tableName("Capped").onDemandThroughput(o -> o
        .maxWriteRequestUnits(-1L)));
    for (int i = 0; i < 20; i++) {
      String pk = "m" + i;
      client.putItem(b -> b.tableName("Capped").item(item(pk, 100)));
    }
  }

  @Test
  void aGlobalSecondaryIndexCeilingThrottlesTheWritesThatReachIt() {
    start(CapacityMode.ENFORCE);
    client.createTable(b -> b.tableName("Events")
        .attributeDefinitions(string("pk"), string("day"))
        .keySchema(hash("pk"))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .globalSecondaryIndexes(g -> g.indexName("byDay")
            .keySchema(hash("day"))
            .projection(p -> p.projectionType("ALL"))
            .onDemandThroughput(o -> o.maxWriteRequestUnits(1L))));
    Map<String, AttributeValue> first = new java.util.HashMap<>(item("e1", 100));
    first.put("day", AttributeValue.fromS("2026-03-01"));
    client.putItem(b -> b.tableName("Events").item(first));
    Map<String, AttributeValue> second = new java.util.HashMap<>(item("e2", 100));
    second.put("day", AttributeValue.fromS("2026-03-02"));
    ThrottlingException e = catchThrowableOfType(
        () -> client.putItem(b -> b.tableName("Events").item(second)),
        ThrottlingException.class);
    assertMaxOnDemandThrottle(e, "IndexWriteMaxOnDemandThroughputExceeded",
        "arn:aws:dynamodb:us-east-1:000000000000:table/Events/index/byDay");
    assertThat(client.getItem(b -> b.tableName("Events")
        .key(Map.of("pk", AttributeValue.fromS("e2")))).hasItem()).isFalse();
    // An item the index does not hold is no write of the index: the table has no ceiling.
    for (int i = 0; i < 5; i++) {
      String pk = "plain" + i;
      client.putItem(b -> b.tableName("Events").item(item(pk, 100)));
    }
  }

  private static void assertMaxOnDemandThrottle(
      ThrottlingException e, String reason, String resource) {
    assertThat(e).isNotNull();
    assertThat(e.statusCode()).isEqualTo(400);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(
        "Throughput exceeds the maximum OnDemandThroughput configured on table or index");
    assertThat(e.throttlingReasons()).singleElement().satisfies(r -> {
      assertThat(r.reason()).isEqualTo(reason);
      assertThat(r.resource()).isEqualTo(resource);
    });
  }

  @Test
  void aGlobalSecondaryIndexShortOfWriteCapacityThrottlesTheBaseWrite() {
    start(CapacityMode.ENFORCE);
    client.createTable(b -> b.tableName("Readings")
        .attributeDefinitions(string("pk"), string("day"))
        .keySchema(hash("pk"))
        .provisionedThroughput(p -> p.readCapacityUnits(10_000L).writeCapacityUnits(10_000L))
        .globalSecondaryIndexes(g -> g.indexName("byDay")
            .keySchema(hash("day"))
            .projection(p -> p.projectionType("ALL"))
            .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))));
    // The index keeps 300 WCU of burst at 1 WCU: three 100 KB items, projected whole, spend it,
    // while the table's 10,000 WCU are nowhere near spent.
    for (int i = 0; i < 4; i++) {
      Map<String, AttributeValue> reading = new java.util.HashMap<>(item("s" + i, 99 * 1024));
      reading.put("day", AttributeValue.fromS("2026-03-0" + (i + 1)));
      if (i < 3) {
        client.putItem(b -> b.tableName("Readings").item(reading));
        continue;
      }
      ProvisionedThroughputExceededException e = catchThrowableOfType(
          () -> client.putItem(b -> b.tableName("Readings").item(reading)),
          ProvisionedThroughputExceededException.class);
      assertThat(e).isNotNull();
      assertOnlyReason(e, "IndexWriteProvisionedThroughputExceeded",
          "arn:aws:dynamodb:us-east-1:000000000000:table/Readings/index/byDay");
      // The base write was refused whole.
      assertThat(client.getItem(b -> b.tableName("Readings")
          .key(Map.of("pk", AttributeValue.fromS("s3")))).hasItem()).isFalse();
      // BatchWriteItem hands the throttled item back; here it was the only one, so the whole
      // batch is refused, as DynamoDB refuses a batch none of whose items it could write.
      ProvisionedThroughputExceededException batch = catchThrowableOfType(
          () -> client.batchWriteItem(b -> b.requestItems(Map.of("Readings", List.of(
              WriteRequest.builder().putRequest(PutRequest.builder().item(reading).build())
                  .build())))),
          ProvisionedThroughputExceededException.class);
      assertThat(batch).isNotNull();
    }
    // The index's own partitions name its hot key.
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(new PrintWriter(out, true));
    int status = cli.execute("hot-keys", "--table", "Readings", "--index", "byDay",
        "--endpoint", endpoint());
    assertThat(status).isZero();
    assertThat(out.toString())
        .contains("Table Readings index byDay (PROVISIONED, 1 RCU / 1 WCU provisioned")
        .contains("0 read / 2 write throttles")
        .contains("2026-03-04");
  }

  @Test
  void enforceModeThrottlesWhenTheBurstIsSpent() throws Exception {
    start(CapacityMode.ENFORCE);
    createTable("Sensors", 1L, 1L);
    // 1 WCU provisioned keeps 300 WCU of burst: three 100 KB writes spend it.
    for (int i = 0; i < 3; i++) {
      String pk = "2026-03-0" + (i + 1);
      client.putItem(b -> b.tableName("Sensors").item(item(pk, 100 * 1024)));
    }
    ProvisionedThroughputExceededException e = catchThrowableOfType(
        () -> client.putItem(b -> b.tableName("Sensors").item(item("2026-03-04", 100 * 1024))),
        ProvisionedThroughputExceededException.class);
    assertThat(e).isNotNull();
    assertThat(e.statusCode()).isEqualTo(400);
    assertThat(e.awsErrorDetails().errorCode())
        .isEqualTo("ProvisionedThroughputExceededException");
    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(
        "The level of configured provisioned throughput for the table was exceeded. Consider"
            + " increasing your provisioning level with the UpdateTable API.");
    assertOnlyReason(e, "TableWriteProvisionedThroughputExceeded",
        "arn:aws:dynamodb:us-east-1:000000000000:table/Sensors");
    // Nothing was written.
    assertThat(client.getItem(b -> b.tableName("Sensors")
        .key(Map.of("pk", AttributeValue.fromS("2026-03-04")))).hasItem()).isFalse();

    // 100 seconds at 1 WCU/s refill enough for one more.
    clock.advanceSeconds(100);
    client.putItem(b -> b.tableName("Sensors").item(item("2026-03-04", 100 * 1024)));

    // The partition report over HTTP names the throttled key.
    HttpResponse<String> report = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(endpoint() + "/stator/tables/Sensors/partitions"))
            .GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(report.statusCode()).isEqualTo(200);
    assertThat(report.body())
        .contains("\"TableName\":\"Sensors\"")
        .contains("\"WriteThrottles\":1")
        .contains("\"PartitionKey\":\"2026-03-04\"");

    // And so does the CLI.
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(new PrintWriter(out, true));
    int status = cli.execute("hot-keys", "--table", "Sensors", "--endpoint", endpoint());
    assertThat(status).isZero();
    assertThat(out.toString())
        .contains("Table Sensors (PROVISIONED, 1 RCU / 1 WCU provisioned")
        .contains("0 read / 1 write throttles")
        .contains("2026-03-04 (200.5, 1)");
  }

  private static Map<String, AttributeValue> key(String pk) {
    return Map.of("pk", AttributeValue.fromS(pk));
  }

  private static WriteRequest put(Map<String, AttributeValue> item) {
    return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
  }

  @Test
  void batchesAndTransactionsReturnOneConsumedCapacityPerTable() {
    start(CapacityMode.OBSERVE);
    createTable("Music", null, null);
    createTable("Books", null, null);
    BatchWriteItemResponse written = client.batchWriteItem(b -> b
        .requestItems(Map.of(
            "Music", List.of(put(item("a", 1536)), put(item("b", 6656))),
            "Books", List.of(put(item("c", 100)))))
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    assertThat(written.unprocessedItems()).isEmpty();
    assertThat(written.consumedCapacity())
        .extracting(ConsumedCapacity::tableName, ConsumedCapacity::capacityUnits,
            ConsumedCapacity::writeCapacityUnits)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("Music", 9.0, null), // 2 KB + 7 KB
            org.assertj.core.groups.Tuple.tuple("Books", 1.0, null));

    // The Developer Guide's example: 1.5 KB and 6.5 KB read as 4 KB + 8 KB.
    BatchGetItemResponse read = client.batchGetItem(b -> b
        .requestItems(Map.of("Music", KeysAndAttributes.builder()
            .keys(key("a"), key("b")).consistentRead(true).build()))
        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES));
    ConsumedCapacity music = read.consumedCapacity().get(0);
    assertThat(music.tableName()).isEqualTo("Music");
    assertThat(music.capacityUnits()).isEqualTo(3.0);
    assertThat(music.readCapacityUnits()).isNull();
    assertThat(music.table().capacityUnits()).isEqualTo(3.0);
    assertThat(music.table().readCapacityUnits()).isNull();

    List<ConsumedCapacity> transactWrite = client.transactWriteItems(b -> b
        .transactItems(
            TransactWriteItem.builder().put(p -> p.tableName("Music").item(item("d", 1536)))
                .build(),
            TransactWriteItem.builder().conditionCheck(c -> c.tableName("Books").key(key("c"))
                .conditionExpression("attribute_exists(pk)")).build())
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
    assertThat(transactWrite)
        .extracting(ConsumedCapacity::tableName, ConsumedCapacity::writeCapacityUnits)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Music", 4.0),
            org.assertj.core.groups.Tuple.tuple("Books", 2.0));

    List<ConsumedCapacity> transactGet = client.transactGetItems(b -> b
        .transactItems(
            TransactGetItem.builder().get(g -> g.tableName("Music").key(key("a"))).build(),
            TransactGetItem.builder().get(g -> g.tableName("Music").key(key("b"))).build())
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
    assertThat(transactGet).singleElement().satisfies(c -> {
      assertThat(c.tableName()).isEqualTo("Music");
      assertThat(c.readCapacityUnits()).isEqualTo(6.0);
    });
  }

  @Test
  void enforceModeThrottlesPartiqlWritesAsTheItemWritesTheyStandFor() throws Exception {
    start(CapacityMode.ENFORCE);
    createTable("Sensors", 1L, 1L);
    AttributeValue filler = AttributeValue.fromS("x".repeat(100 * 1024 - 20));
    // Three 100 KB INSERTs spend the 300 WCU of burst, as three PutItems would
    for (int i = 1; i <= 3; i++) {
      String pk = "2026-03-0" + i;
      client.executeStatement(b -> b.statement("INSERT INTO Sensors VALUE {'pk': ?, 'd': ?}")
          .parameters(AttributeValue.fromS(pk), filler));
    }
    ProvisionedThroughputExceededException e = catchThrowableOfType(
        () -> client.executeStatement(b -> b
            .statement("INSERT INTO Sensors VALUE {'pk': '2026-03-04', 'd': ?}")
            .parameters(filler)),
        ProvisionedThroughputExceededException.class);
    assertThat(e).isNotNull();
    assertOnlyReason(e, "TableWriteProvisionedThroughputExceeded",
        "arn:aws:dynamodb:us-east-1:000000000000:table/Sensors");

    // In a batch, the throttled statement fails on its own, with its code
    var batch = client.batchExecuteStatement(b -> b.statements(
        s -> s.statement("INSERT INTO Sensors VALUE {'pk': '2026-03-05', 'd': ?}")
            .parameters(filler)));
    assertThat(batch.responses().get(0).error().codeAsString())
        .isEqualTo("ProvisionedThroughputExceeded");
    // The metrics count the throttled ExecuteStatement (the batch's statement failed alone)
    HttpResponse<String> metrics = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(endpoint() + "/stator/metrics")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body())
        .contains("stator_throttled_requests_total{operation=\"ExecuteStatement\"} 1.0")
        .contains("stator_requests_total{operation=\"ExecuteStatement\","
            + "outcome=\"ProvisionedThroughputExceededException\"} 1.0");
    for (String pk : List.of("2026-03-04", "2026-03-05")) {
      assertThat(client.getItem(b -> b.tableName("Sensors")
          .key(Map.of("pk", AttributeValue.fromS(pk)))).hasItem()).as(pk).isFalse();
    }

    // 100 seconds at 1 WCU/s refill enough for one more
    clock.advanceSeconds(100);
    client.executeStatement(b -> b
        .statement("INSERT INTO Sensors VALUE {'pk': '2026-03-04', 'd': ?}").parameters(filler));
    assertThat(client.getItem(b -> b.tableName("Sensors")
        .key(Map.of("pk", AttributeValue.fromS("2026-03-04")))).hasItem()).isTrue();
  }

  @Test
  void enforceModeReturnsThrottledBatchWritesAsUnprocessedItems() {
    start(CapacityMode.ENFORCE);
    createTable("Sensors", 10L, 990L); // one partition; its 1,000 WCU/s ceiling binds
    // 10 writes of 100 KB spend the partition's second.
    for (int i = 0; i < 10; i++) {
      client.putItem(b -> b.tableName("Sensors").item(item("2026-03-01", 100 * 1024)));
    }
    ThrottlingException none = catchThrowableOfType(() -> client.batchWriteItem(b -> b
        .requestItems(Map.of("Sensors", List.of(put(item("2026-03-02", 100)))))),
        ThrottlingException.class);
    assertThat(none).isNotNull();
    assertThat(none.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
    assertThat(none.throttlingReasons()).singleElement().satisfies(r ->
        assertThat(r.reason()).isEqualTo("TableWriteKeyRangeThroughputExceeded"));

    clock.advance(Duration.ofMillis(2)); // 2 WCU back
    WriteRequest third = put(item("2026-03-05", 100));
    BatchWriteItemResponse partial = client.batchWriteItem(b -> b
        .requestItems(Map.of("Sensors",
            List.of(put(item("2026-03-03", 100)), put(item("2026-03-04", 100)), third)))
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    assertThat(partial.unprocessedItems()).isEqualTo(Map.of("Sensors", List.of(third)));
    assertThat(partial.consumedCapacity()).singleElement()
        .satisfies(c -> assertThat(c.capacityUnits()).isEqualTo(2.0));

    TransactionCanceledException cancelled = catchThrowableOfType(
        () -> client.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder()
            .put(p -> p.tableName("Sensors").item(item("2026-03-06", 100))).build())),
        TransactionCanceledException.class);
    assertThat(cancelled.cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("ProvisionedThroughputExceeded");
  }

  @Test
  void unknownTableOrPathAnswers404() throws Exception {
    start(CapacityMode.OBSERVE);
    HttpClient http = HttpClient.newHttpClient();
    for (String path : new String[] {"/stator/tables/Nope/partitions", "/stator/whatever"}) {
      HttpResponse<String> r = http.send(
          HttpRequest.newBuilder(URI.create(endpoint() + path)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(path).isEqualTo(404);
    }
  }

  /** The exception carries exactly one ThrottlingReason, with this reason and resource. */
  private static void assertOnlyReason(
      ProvisionedThroughputExceededException e, String reason, String resource) {
    assertThat(e.throttlingReasons()).hasSize(1);
    assertThat(e.throttlingReasons().get(0).reason()).isEqualTo(reason);
    assertThat(e.throttlingReasons().get(0).resource()).isEqualTo(resource);
  }
}
