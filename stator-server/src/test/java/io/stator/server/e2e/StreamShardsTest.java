package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.capacity.ManualClock;
import io.stator.engine.EngineOptions;
import io.stator.server.StatorServer;
import io.stator.storage.memory.MemoryStorage;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardFilterType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Streams across time, through the AWS SDK, on a server whose engine runs on a clock the test
 * moves: shards close every four hours and children open, a consumer following parent/child
 * order from TRIM_HORIZON sees exactly the changes made (single writes, batch items,
 * transaction items and Time to Live deletions), iterators expire after 15 minutes and records
 * are trimmed after 24 hours.
 */
class StreamShardsTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private StatorServer server;
  private DynamoDbClient dynamo;
  private DynamoDbStreamsClient streams;

  @BeforeEach
  void start() {
    server = StatorServer.start("127.0.0.1", 0, Stator.open(new MemoryStorage(),
        EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO)));
    URI uri = DynamoDbEndpoint.uri(server);
    dynamo = DynamoDbEndpoint.client(uri);
    streams = DynamoDbEndpoint.streamsClient(uri);
  }

  @AfterEach
  void stop() {
    dynamo.close();
    streams.close();
    server.close();
  }

  @Test
  void aConsumerFollowingShardsSeesEveryChangeInOrderAcrossRotations() throws Exception {
    String arn = createTable("orders");
    dynamo.updateTimeToLive(r -> r.tableName("orders")
        .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires")));
    List<String> expected = new ArrayList<>();
    put("orders", "a", null);
    expected.add("INSERT a");
    put("orders", "a", "1");
    expected.add("MODIFY a");
    clock.advance(Duration.ofHours(4).plusMinutes(1)); // shard 0 closes, shard 1 opens
    dynamo.batchWriteItem(r -> r.requestItems(Map.of("orders", List.of(
        WriteRequest.builder().putRequest(PutRequest.builder()
            .item(Map.of("pk", s("b"))).build()).build(),
        WriteRequest.builder().deleteRequest(d -> d.key(Map.of("pk", s("a")))).build()))));
    List<String> batch = List.of("INSERT b", "REMOVE a");
    dynamo.transactWriteItems(r -> r.transactItems(
        TransactWriteItem.builder().put(Put.builder().tableName("orders")
            .item(Map.of("pk", s("c"), "expires",
                AttributeValue.fromN(Long.toString(clock.instant().getEpochSecond() + 60))))
            .build()).build(),
        TransactWriteItem.builder().update(u -> u.tableName("orders").key(Map.of("pk", s("b")))
            .updateExpression("SET v = :v")
            .expressionAttributeValues(Map.of(":v", s("x")))).build()));
    List<String> transaction = List.of("INSERT c", "MODIFY b");
    clock.advance(Duration.ofHours(4)); // shard 1 closes, shard 2 opens; c has expired
    sweep();
    List<String> afterTransaction = List.of("REMOVE c");

    List<Shard> shards = new StreamConsumer(streams, arn).shards();
    assertThat(shards).hasSize(3);
    assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
    assertThat(shards.get(2).parentShardId()).isEqualTo(shards.get(1).shardId());
    assertThat(shards.subList(0, 2)).allSatisfy(s ->
        assertThat(s.sequenceNumberRange().endingSequenceNumber()).isNotNull());
    assertThat(shards.get(2).sequenceNumberRange().endingSequenceNumber()).isNull();
    assertThat(streams.describeStream(r -> r.streamArn(arn).shardFilter(f -> f
        .type(ShardFilterType.CHILD_SHARDS).shardId(shards.get(0).shardId())))
        .streamDescription().shards()).containsExactly(shards.get(1));
    var page = streams.describeStream(r -> r.streamArn(arn).limit(1)).streamDescription();
    assertThat(page.shards()).containsExactly(shards.get(0));
    assertThat(page.lastEvaluatedShardId()).isEqualTo(shards.get(0).shardId());

    List<Record> records = new StreamConsumer(streams, arn).readAll();
    List<String> seen = records.stream()
        .map(r -> r.eventName() + " " + r.dynamodb().keys().get("pk").s()).toList();
    assertThat(seen.subList(0, 2)).containsExactlyElementsOf(expected);
    assertThat(seen.subList(2, 4)).containsExactlyInAnyOrderElementsOf(batch);
    assertThat(seen.subList(4, 6)).containsExactlyInAnyOrderElementsOf(transaction);
    assertThat(seen.subList(6, 7)).containsExactlyElementsOf(afterTransaction);
    assertThat(seen).hasSize(7);
    Record expiry = records.get(6);
    assertThat(expiry.eventName()).isEqualTo(OperationType.REMOVE);
    assertThat(expiry.userIdentity().type()).isEqualTo("Service");
    assertThat(expiry.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
    assertThat(records.subList(0, 6)).allSatisfy(r -> assertThat(r.userIdentity()).isNull());
    assertThat(records.get(0).dynamodb().approximateCreationDateTime())
        .isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    // The closed shards' last records end their ranges.
    assertThat(shards.get(0).sequenceNumberRange().endingSequenceNumber())
        .isEqualTo(records.get(1).dynamodb().sequenceNumber());
  }

  @Test
  void iteratorsExpireAfterFifteenMinutesAndRecordsAreTrimmedAfterADay() {
    String arn = createTable("trimmed");
    put("trimmed", "a", null);
    Shard first = new StreamConsumer(streams, arn).shards().get(0);
    Instant issued = clock.instant();
    String iterator = iterator(arn, first.shardId(), ShardIteratorType.TRIM_HORIZON, null);
    clock.advance(Duration.ofMinutes(16));
    ExpiredIteratorException expired = catchThrowableOfType(ExpiredIteratorException.class,
        () -> streams.getRecords(r -> r.shardIterator(iterator)));
    assertThat(expired).isNotNull();
    assertThat(expired.awsErrorDetails().errorCode()).isEqualTo("ExpiredIteratorException");
    DateTimeFormatter time = DateTimeFormatter
        .ofPattern("EEE MMM dd HH:mm:ss 'UTC' yyyy", Locale.ROOT).withZone(ZoneOffset.UTC);
    assertThat(expired.awsErrorDetails().errorMessage()).isEqualTo("Iterator expired. The"
        + " iterator was created at time " + time.format(issued) + " while right now it is "
        + time.format(clock.instant()) + " which is further in the future than the tolerated"
        + " delay of 900000 milliseconds.");

    String sequenceNumber = new StreamConsumer(streams, arn).readAll().get(0).dynamodb()
        .sequenceNumber();
    clock.advance(Duration.ofHours(24));
    TrimmedDataAccessException trimmed = catchThrowableOfType(TrimmedDataAccessException.class,
        () -> iterator(arn, first.shardId(), ShardIteratorType.AT_SEQUENCE_NUMBER,
            sequenceNumber));
    assertThat(trimmed).isNotNull();
    assertThat(trimmed.awsErrorDetails().errorMessage())
        .isEqualTo("The data you are trying to access has been trimmed.");
    assertThat(new StreamConsumer(streams, arn).readAll()).isEmpty();
    put("trimmed", "b", null);
    assertThat(new StreamConsumer(streams, arn).readAll())
        .extracting(r -> r.dynamodb().keys().get("pk").s()).containsExactly("b");
  }

  @Test
  void aConsumerFollowingShardsSeesEveryChangeInOrderAcrossAPartitionSplit() {
    String arn = createTable("split");
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      put("split", "k" + i, "1");
      made.add("INSERT k" + i + " 1");
    }
    assertThat(new StreamConsumer(streams, arn).shards()).hasSize(1);
    // Raising the write throughput past one partition's 1,000 WCU splits the partition (the
    // next request finds the capacity model split it); the stream's shard closes, children open.
    dynamo.updateTable(r -> r.tableName("split")
        .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(1500L)));
    clock.advance(Duration.ofSeconds(1));
    for (int i = 0; i < 12; i++) {
      put("split", "k" + i, "2");
      made.add("MODIFY k" + i + " 2");
      if (i % 3 == 0) {
        int k = i;
        dynamo.deleteItem(r -> r.tableName("split").key(Map.of("pk", s("k" + k))));
        made.add("REMOVE k" + i + " -");
      }
    }
    put("split", "k1", "3");
    made.add("MODIFY k1 3");

    List<Shard> shards = new StreamConsumer(streams, arn).shards();
    assertThat(shards).hasSize(3);
    Shard parent = shards.get(0);
    assertThat(parent.sequenceNumberRange().endingSequenceNumber()).isNotNull();
    assertThat(shards.subList(1, 3)).allSatisfy(child -> {
      assertThat(child.parentShardId()).isEqualTo(parent.shardId());
      assertThat(child.sequenceNumberRange().endingSequenceNumber()).isNull();
    });
    assertThat(streams.describeStream(r -> r.streamArn(arn).shardFilter(f -> f
        .type(ShardFilterType.CHILD_SHARDS).shardId(parent.shardId())))
        .streamDescription().shards()).containsExactlyElementsOf(shards.subList(1, 3));

    List<Record> records = new StreamConsumer(streams, arn).readAll();
    // Exactly the changes made, each once; per item in the order made (items in different
    // shards interleave as the consumer reads the children one after the other).
    List<String> seen = records.stream().map(StreamShardsTest::describe).toList();
    assertThat(seen).containsExactlyInAnyOrderElementsOf(made);
    for (int i = 0; i < 12; i++) {
      String key = " k" + i + " ";
      assertThat(seen.stream().filter(c -> c.contains(key)).toList())
          .containsExactlyElementsOf(made.stream().filter(c -> c.contains(key)).toList());
    }
    assertThat(seen.subList(0, 12)).containsExactlyElementsOf(made.subList(0, 12));
  }

  @Test
  void theStreamOfADeletedTableStaysReadableForADay() {
    String arn = createTable("deleted");
    put("deleted", "a", "1");
    put("deleted", "a", "2");
    dynamo.deleteTable(r -> r.tableName("deleted"));

    assertThat(streams.listStreams(r -> r.tableName("deleted")).streams())
        .extracting(s -> s.streamArn()).containsExactly(arn);
    var description = streams.describeStream(r -> r.streamArn(arn)).streamDescription();
    assertThat(description.streamStatus()).isEqualTo(StreamStatus.DISABLED);
    assertThat(description.shards()).allSatisfy(shard ->
        assertThat(shard.sequenceNumberRange().endingSequenceNumber()).isNotNull());
    assertThat(new StreamConsumer(streams, arn).readAll()).extracting(StreamShardsTest::describe)
        .containsExactly("INSERT a 1", "MODIFY a 2");

    clock.advance(Duration.ofHours(24).plusMinutes(1));
    assertThat(streams.listStreams(r -> r.limit(100)).streams()).isEmpty();
    ResourceNotFoundException gone = catchThrowableOfType(ResourceNotFoundException.class,
        () -> streams.describeStream(r -> r.streamArn(arn)));
    assertThat(gone).isNotNull();
    assertThat(gone.awsErrorDetails().errorMessage())
        .isEqualTo("Requested resource not found: Stream: " + arn + " not found");
  }

  private static String describe(Record r) {
    var image = r.dynamodb().newImage();
    String v = image == null || !image.containsKey("v") ? "-" : image.get("v").s();
    return r.eventName() + " " + r.dynamodb().keys().get("pk").s() + " " + v;
  }

  /** A table provisioned with little throughput: one partition, so one open shard. */
  private String createTable(String name) {
    return dynamo.createTable(r -> r.tableName(name)
        .keySchema(KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
        .attributeDefinitions(AttributeDefinition.builder().attributeName("pk")
            .attributeType(ScalarAttributeType.S).build())
        .billingMode(BillingMode.PROVISIONED)
        .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L))
        .streamSpecification(s -> s.streamEnabled(true)
            .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)))
        .tableDescription().latestStreamArn();
  }

  private void put(String table, String pk, String v) {
    Map<String, AttributeValue> item = v == null ? Map.of("pk", s(pk))
        : Map.of("pk", s(pk), "v", s(v));
    dynamo.putItem(r -> r.tableName(table).item(item));
  }

  private String iterator(String arn, String shard, ShardIteratorType type, String sequence) {
    return streams.getShardIterator(r -> r.streamArn(arn).shardId(shard).shardIteratorType(type)
        .sequenceNumber(sequence)).shardIterator();
  }

  private void sweep() throws Exception {
    var request = java.net.http.HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.port() + "/stator/ttl/sweep"))
        .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build();
    var response = java.net.http.HttpClient.newHttpClient()
        .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(response.body()).isEqualTo("{\"DeletedItems\":1}");
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }
}
