package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * DynamoDB Streams through the AWS SDK's {@link DynamoDbStreamsClient} on the same endpoint:
 * StreamSpecification on CreateTable and UpdateTable, every view type, event type and iterator
 * type, records of batches, transactions and Time to Live deletions, and the errors.
 *
 * <p>Shard rotation, iterator expiry and trimming need a clock the test moves: see {@link
 * StreamShardsTest}. Against an external endpoint the Time to Live test is skipped (no other
 * implementation can be told to sweep).
 */
class StreamsTest extends EndToEndTest {
  private DynamoDbStreamsClient streams;

  @BeforeEach
  void useStreams() {
    streams = endpoint.streamsClient();
  }

  @Test
  void everyViewTypeRecordsInsertModifyRemove() {
    for (StreamViewType viewType : List.of(StreamViewType.KEYS_ONLY, StreamViewType.NEW_IMAGE,
        StreamViewType.OLD_IMAGE, StreamViewType.NEW_AND_OLD_IMAGES)) {
      String table = createStreamTable("views", viewType);
      Instant before = Instant.now().minusSeconds(1);
      dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), "v", n("1"))));
      dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), "v", n("1")))); // unchanged
      dynamo.updateItem(r -> r.tableName(table).key(item("pk", s("a")))
          .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", n("2"))));
      dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("a"))));
      dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("a")))); // absent

      List<Record> records = consumer(table).readAll();
      assertThat(records).as(viewType.toString()).extracting(Record::eventName)
          .containsExactly(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE);
      boolean keepsNew = viewType.toString().contains("NEW");
      boolean keepsOld = viewType.toString().contains("OLD");
      Record modify = records.get(1);
      assertThat(modify.dynamodb().keys()).isEqualTo(item("pk", s("a")));
      assertThat(modify.dynamodb().hasNewImage()).isEqualTo(keepsNew);
      assertThat(modify.dynamodb().hasOldImage()).isEqualTo(keepsOld);
      if (keepsNew) {
        assertThat(modify.dynamodb().newImage()).isEqualTo(item("pk", s("a"), "v", n("2")));
        assertThat(records.get(0).dynamodb().newImage())
            .isEqualTo(item("pk", s("a"), "v", n("1")));
        assertThat(records.get(2).dynamodb().hasNewImage()).isFalse();
      }
      if (keepsOld) {
        assertThat(modify.dynamodb().oldImage()).isEqualTo(item("pk", s("a"), "v", n("1")));
        assertThat(records.get(0).dynamodb().hasOldImage()).isFalse();
        assertThat(records.get(2).dynamodb().oldImage())
            .isEqualTo(item("pk", s("a"), "v", n("2")));
      }
      for (Record r : records) {
        assertThat(r.eventSource()).isEqualTo("aws:dynamodb");
        assertThat(r.eventVersion()).isEqualTo("1.1");
        assertThat(r.awsRegion()).isEqualTo("us-east-1");
        assertThat(r.eventID()).isNotBlank();
        assertThat(r.userIdentity()).isNull();
        assertThat(r.dynamodb().streamViewType()).isEqualTo(viewType);
        assertThat(r.dynamodb().sizeBytes()).isPositive();
        assertThat(r.dynamodb().sequenceNumber()).hasSizeGreaterThanOrEqualTo(21)
            .containsOnlyDigits();
        assertThat(r.dynamodb().approximateCreationDateTime())
            .isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
      }
      assertThat(records).extracting(r -> new java.math.BigInteger(r.dynamodb().sequenceNumber()))
          .isSorted().doesNotHaveDuplicates();
    }
  }

  @Test
  void batchAndTransactionItemsAreRecordedEachOnce() {
    String table = createStreamTable("multi", StreamViewType.NEW_IMAGE);
    dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
        WriteRequest.builder().putRequest(PutRequest.builder()
            .item(item("pk", s("b1"))).build()).build(),
        WriteRequest.builder().putRequest(PutRequest.builder()
            .item(item("pk", s("b2"))).build()).build()))));
    dynamo.transactWriteItems(r -> r.transactItems(
        TransactWriteItem.builder().put(Put.builder().tableName(table)
            .item(item("pk", s("t1"), "x", n("1"))).build()).build(),
        TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", s("b1")))
            .updateExpression("SET y = :y")
            .expressionAttributeValues(Map.of(":y", s("z")))).build()));
    List<Record> records = consumer(table).readAll();
    assertThat(records).extracting(r -> r.eventName() + " " + r.dynamodb().keys().get("pk").s())
        .containsExactlyInAnyOrder("INSERT b1", "INSERT b2", "INSERT t1", "MODIFY b1");
    assertThat(records.stream().filter(r -> r.eventName() == OperationType.MODIFY).findFirst()
        .orElseThrow().dynamodb().newImage()).isEqualTo(item("pk", s("b1"), "y", s("z")));
  }

  /**
   * A write that leaves the item exactly as it was makes no stream record, whatever its path:
   * single item writes, batches and transactions alike. An UpdateItem that only REMOVEs from an
   * item that does not exist does not create it.
   */
  @Test
  void writesThatLeaveTheItemAsItWasAreNotRecorded() {
    String table = createStreamTable("noop", StreamViewType.NEW_AND_OLD_IMAGES);
    Map<String, AttributeValue> a = item("pk", s("a"), "v", n("5"), "tags", ss("x", "y"));
    dynamo.putItem(r -> r.tableName(table).item(a));
    dynamo.updateItem(r -> r.tableName(table).key(item("pk", s("a")))
        .updateExpression("REMOVE gone"));
    dynamo.updateItem(r -> r.tableName(table).key(item("pk", s("ghost")))
        .updateExpression("REMOVE gone"));
    dynamo.updateItem(r -> r.tableName(table).key(item("pk", s("a")))
        .updateExpression("SET v = :v, tags = :t")
        .expressionAttributeValues(Map.of(":v", n("5.00"), ":t", ss("y", "x"))));
    dynamo.updateItem(r -> r.tableName(table).key(item("pk", s("a")))
        .updateExpression("ADD v :zero").expressionAttributeValues(Map.of(":zero", n("0"))));
    dynamo.putItem(r -> r.tableName(table).item(a));
    dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("absent"))));
    dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
        WriteRequest.builder().putRequest(PutRequest.builder().item(a).build()).build(),
        WriteRequest.builder().deleteRequest(d -> d.key(item("pk", s("absent")))).build()))));
    dynamo.transactWriteItems(r -> r.transactItems(
        TransactWriteItem.builder().put(Put.builder().tableName(table).item(a).build()).build(),
        TransactWriteItem.builder().update(u -> u.tableName(table).key(item("pk", s("ghost")))
            .updateExpression("REMOVE gone")).build(),
        TransactWriteItem.builder().delete(d -> d.tableName(table)
            .key(item("pk", s("absent")))).build()));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("ghost")))).hasItem())
        .as("a REMOVE does not create the item").isFalse();
    dynamo.updateItem(r -> r.tableName(table).key(item("pk", s("a")))
        .updateExpression("ADD v :one").expressionAttributeValues(Map.of(":one", n("1"))));

    List<Record> records = consumer(table).readAll();
    assertThat(records).extracting(r -> r.eventName() + " " + r.dynamodb().keys().get("pk").s())
        .containsExactly("INSERT a", "MODIFY a");
    assertThat(records.get(1).dynamodb().oldImage()).isEqualTo(a);
    assertThat(records.get(1).dynamodb().newImage().get("v")).isEqualTo(n("6"));
  }

  @Test
  void timeToLiveDeletionsCarryTheServiceIdentity() throws Exception {
    assumeThat(target).isNotEqualTo(Target.EXTERNAL);
    String table = createStreamTable("ttl", StreamViewType.OLD_IMAGE);
    dynamo.updateTimeToLive(r -> r.tableName(table)
        .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires")));
    long past = Instant.now().getEpochSecond() - 60;
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("old"), "expires",
        n(Long.toString(past)))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("keep"))));
    dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("keep"))));
    assertThat(sweep().statusCode()).isEqualTo(200);
    // The background sweeper may have been first; either way the deletion is recorded once.
    List<Record> records = consumer(table).readAll();
    assertThat(records).extracting(r -> r.eventName() + " " + r.dynamodb().keys().get("pk").s())
        .containsExactlyInAnyOrder("INSERT old", "INSERT keep", "REMOVE keep", "REMOVE old");
    for (Record r : records) {
      boolean expired = r.eventName() == OperationType.REMOVE
          && r.dynamodb().keys().get("pk").s().equals("old");
      if (expired) {
        assertThat(r.userIdentity()).isNotNull();
        assertThat(r.userIdentity().type()).isEqualTo("Service");
        assertThat(r.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
        assertThat(r.dynamodb().oldImage().get("expires").n()).isEqualTo(Long.toString(past));
      } else {
        assertThat(r.userIdentity()).isNull();
      }
    }
  }

  @Test
  void iteratorTypesAndPaging() {
    String table = createStreamTable("iterators", StreamViewType.KEYS_ONLY);
    for (int i = 0; i < 5; i++) {
      int k = i;
      dynamo.putItem(r -> r.tableName(table).item(item("pk", s("k" + k))));
    }
    String arn = streamArn(table);
    String shard = consumer(table).shards().get(0).shardId();
    List<Record> all = records(iterator(arn, shard, ShardIteratorType.TRIM_HORIZON, null), null)
        .records();
    assertThat(keys(all)).containsExactly("k0", "k1", "k2", "k3", "k4");
    String third = all.get(2).dynamodb().sequenceNumber();
    assertThat(keys(records(iterator(arn, shard, ShardIteratorType.AT_SEQUENCE_NUMBER, third),
        null).records())).containsExactly("k2", "k3", "k4");
    assertThat(keys(records(iterator(arn, shard, ShardIteratorType.AFTER_SEQUENCE_NUMBER, third),
        null).records())).containsExactly("k3", "k4");

    String latest = iterator(arn, shard, ShardIteratorType.LATEST, null);
    GetRecordsResponse nothingYet = records(latest, null);
    assertThat(nothingYet.records()).isEmpty();
    assertThat(nothingYet.nextShardIterator()).isNotNull(); // the shard is open
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("k5"))));
    // Readable as soon as the write is acknowledged.
    assertThat(keys(records(nothingYet.nextShardIterator(), null).records()))
        .containsExactly("k5");

    GetRecordsResponse page = records(iterator(arn, shard, ShardIteratorType.TRIM_HORIZON, null),
        4);
    assertThat(keys(page.records())).containsExactly("k0", "k1", "k2", "k3");
    assertThat(keys(records(page.nextShardIterator(), 4).records())).containsExactly("k4", "k5");
  }

  @Test
  void updateTableEnablesAndDisablesStreams() {
    String table = createTable("enable", "pk", ScalarAttributeType.S);
    TableDescription plain = dynamo.describeTable(r -> r.tableName(table)).table();
    assertThat(plain.streamSpecification()).isNull();
    assertThat(plain.latestStreamArn()).isNull();
    assertValidationContaining("does not have an enabled stream",
        () -> updateStream(table, false, null));
    assertValidation(
        "1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed"
            + " to satisfy constraint: Member must not be null",
        () -> dynamo.updateTable(r -> r.tableName(table)
            .streamSpecification(StreamSpecification.builder()
                .streamViewType(StreamViewType.KEYS_ONLY).build())));

    TableDescription enabled = updateStream(table, true, StreamViewType.NEW_AND_OLD_IMAGES);
    assertThat(enabled.streamSpecification().streamEnabled()).isTrue();
    assertThat(enabled.streamSpecification().streamViewType())
        .isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
    String firstArn = enabled.latestStreamArn();
    assertThat(firstArn).startsWith("arn:aws:dynamodb:us-east-1:")
        .contains(":table/" + table + "/stream/" + enabled.latestStreamLabel());
    assertThat(enabled.latestStreamLabel())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}");
    assertThat(dynamo.describeTable(r -> r.tableName(table)).table().latestStreamArn())
        .isEqualTo(firstArn);
    assertValidation("Table already has an enabled stream: TableName: " + table,
        () -> updateStream(table, true, StreamViewType.KEYS_ONLY));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("during"))));

    StreamDescription open = streams.describeStream(r -> r.streamArn(firstArn))
        .streamDescription();
    assertThat(open.streamStatus()).isEqualTo(StreamStatus.ENABLED);
    assertThat(open.streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
    assertThat(open.tableName()).isEqualTo(table);
    assertThat(open.keySchema()).containsExactly(key("pk", KeyType.HASH));
    assertThat(open.streamLabel()).isEqualTo(enabled.latestStreamLabel());
    assertThat(open.creationRequestDateTime()).isNotNull();
    assertThat(open.shards()).isNotEmpty().allSatisfy(shard -> { // one per partition
      assertThat(shard.shardId()).matches("shardId-\\d{20}-[0-9a-f]{8}");
      assertThat(shard.parentShardId()).isNull();
      assertThat(shard.sequenceNumberRange().startingSequenceNumber()).isNotNull();
      assertThat(shard.sequenceNumberRange().endingSequenceNumber()).isNull();
    });

    TableDescription disabled = updateStream(table, false, null);
    assertThat(disabled.streamSpecification()).isNull();
    assertThat(disabled.latestStreamArn()).isEqualTo(firstArn);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("after"))));
    StreamDescription closed = streams.describeStream(r -> r.streamArn(firstArn))
        .streamDescription();
    assertThat(closed.streamStatus()).isEqualTo(StreamStatus.DISABLED);
    assertThat(closed.shards()).allSatisfy(shard ->
        assertThat(shard.sequenceNumberRange().endingSequenceNumber()).isNotNull());
    List<Record> kept = new StreamConsumer(streams, firstArn).readAll();
    assertThat(keys(kept)).containsExactly("during");

    TableDescription again = updateStream(table, true, StreamViewType.KEYS_ONLY);
    assertThat(again.latestStreamArn()).isNotEqualTo(firstArn);
    var listed = streams.listStreams(r -> r.tableName(table)).streams();
    assertThat(listed).extracting(s -> s.streamArn())
        .containsExactly(firstArn, again.latestStreamArn());
    assertThat(listed).extracting(s -> s.tableName()).containsOnly(table);
    var firstPage = streams.listStreams(r -> r.tableName(table).limit(1));
    assertThat(firstPage.streams()).extracting(s -> s.streamArn()).containsExactly(firstArn);
    assertThat(firstPage.lastEvaluatedStreamArn()).isEqualTo(firstArn);
    var secondPage = streams.listStreams(r -> r.tableName(table).limit(1)
        .exclusiveStartStreamArn(firstArn));
    assertThat(secondPage.streams()).extracting(s -> s.streamArn())
        .containsExactly(again.latestStreamArn());
    assertThat(secondPage.lastEvaluatedStreamArn()).isNull();
  }

  @Test
  void createTableWithADisabledStreamHasNone() {
    String table = uniqueTableName("disabled");
    dynamo.createTable(r -> r.tableName(table)
        .keySchema(key("pk", KeyType.HASH))
        .attributeDefinitions(attribute("pk", ScalarAttributeType.S))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .streamSpecification(s -> s.streamEnabled(false)));
    awaitActive(table);
    assertThat(dynamo.describeTable(r -> r.tableName(table)).table().latestStreamArn()).isNull();
    assertThat(streams.listStreams(r -> r.tableName(table)).streams()).isEmpty();
  }

  @Test
  void describeStreamPagesItsShardsInAscendingShardIdOrder() {
    // On demand, a new table has several partitions, so its stream several shards.
    String table = uniqueTableName("stream-shard-pages");
    dynamo.createTable(r -> r.tableName(table).keySchema(key("pk", KeyType.HASH))
        .attributeDefinitions(attribute("pk", ScalarAttributeType.S))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .streamSpecification(sp -> sp.streamEnabled(true)
            .streamViewType(StreamViewType.KEYS_ONLY)));
    awaitActive(table);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"))));
    String arn = streamArn(table);
    var all = streams.describeStream(r -> r.streamArn(arn)).streamDescription();
    List<String> ids = all.shards().stream().map(sh -> sh.shardId()).toList();
    assertThat(ids).hasSizeGreaterThan(1).isSorted().doesNotHaveDuplicates();
    assertThat(all.lastEvaluatedShardId()).isNull();
    // One shard a page: each page goes on after the last, and the last page says it is last.
    List<String> paged = new ArrayList<>();
    String from = null;
    do {
      String start = from;
      var page = streams.describeStream(r -> r.streamArn(arn).limit(1)
          .exclusiveStartShardId(start)).streamDescription();
      assertThat(page.shards()).hasSize(1);
      paged.add(page.shards().get(0).shardId());
      from = page.lastEvaluatedShardId();
      if (from != null) {
        assertThat(from).isEqualTo(page.shards().get(0).shardId());
      }
    } while (from != null);
    assertThat(paged).isEqualTo(ids);
    // A page that takes the rest has no LastEvaluatedShardId; after the last shard, none.
    var rest = streams.describeStream(r -> r.streamArn(arn).limit(ids.size())
        .exclusiveStartShardId(ids.get(0))).streamDescription();
    assertThat(rest.shards()).extracting(sh -> sh.shardId())
        .isEqualTo(ids.subList(1, ids.size()));
    assertThat(rest.lastEvaluatedShardId()).isNull();
    var after = streams.describeStream(r -> r.streamArn(arn)
        .exclusiveStartShardId(ids.get(ids.size() - 1))).streamDescription();
    assertThat(after.shards()).isEmpty();
    assertThat(after.lastEvaluatedShardId()).isNull();
  }

  @Test
  void errors() {
    String table = createStreamTable("errors", StreamViewType.KEYS_ONLY);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"))));
    String arn = streamArn(table);
    String shard = consumer(table).shards().get(0).shardId();
    String missing = arn.replace(":table/" + table + "/", ":table/" + table + "-gone/");
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Stream: " + missing + " not found",
        () -> streams.describeStream(r -> r.streamArn(missing)));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Shard does not exist",
        () -> iterator(arn, "shardId-00000000000000000001-00000000",
            ShardIteratorType.TRIM_HORIZON, null));
    assertValidation("SequenceNumber is required when ShardIteratorType is AFTER_SEQUENCE_NUMBER",
        () -> iterator(arn, shard, ShardIteratorType.AFTER_SEQUENCE_NUMBER, null));
    assertValidation("Invalid ShardIterator", () -> records("not-an-iterator", null));
    assertError(LimitExceededException.class, "LimitExceededException",
        "Limit must be less than or equal to 1000, but was 1001",
        () -> records(iterator(arn, shard, ShardIteratorType.TRIM_HORIZON, null), 1001));
    assertValidation(
        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member"
            + " must have value greater than or equal to 1",
        () -> streams.listStreams(r -> r.limit(0)));
    assertError(DynamoDbException.class, "ValidationException",
        "1 validation error detected: Value 'short' at 'streamArn' failed to satisfy constraint:"
            + " Member must have length greater than or equal to 37",
        () -> streams.describeStream(r -> r.streamArn("short")));
  }

  @Test
  void streamsSurviveARestart() {
    assumeThat(target.isDurable()).isTrue();
    String table = createStreamTable("restart", StreamViewType.NEW_IMAGE);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("before"))));
    String arn = streamArn(table);
    endpoint.restart();
    dynamo = endpoint.client();
    streams = endpoint.streamsClient();
    assertThat(streamArn(table)).isEqualTo(arn);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("after"))));
    List<Record> records = consumer(table).readAll();
    assertThat(keys(records)).containsExactly("before", "after");
    assertThat(new java.math.BigInteger(records.get(1).dynamodb().sequenceNumber()))
        .isGreaterThan(new java.math.BigInteger(records.get(0).dynamodb().sequenceNumber()));
  }

  // ---- helpers -------------------------------------------------------------------------------

  /**
   * A table with a stream, provisioned with little throughput: one partition, so one open shard
   * holds every record in order (shards follow partitions, see {@code StreamShardsTest}).
   */
  private String createStreamTable(String purpose, StreamViewType viewType) {
    String name = uniqueTableName("stream-" + purpose);
    TableDescription created = dynamo.createTable(r -> r.tableName(name)
        .keySchema(key("pk", KeyType.HASH))
        .attributeDefinitions(attribute("pk", ScalarAttributeType.S))
        .billingMode(BillingMode.PROVISIONED)
        .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L))
        .streamSpecification(s -> s.streamEnabled(true).streamViewType(viewType)))
        .tableDescription();
    assertThat(created.latestStreamArn()).isNotNull();
    awaitActive(name);
    return name;
  }

  private TableDescription updateStream(String table, boolean enabled, StreamViewType viewType) {
    return dynamo.updateTable(r -> r.tableName(table).streamSpecification(
        StreamSpecification.builder().streamEnabled(enabled).streamViewType(viewType).build()))
        .tableDescription();
  }

  private String streamArn(String table) {
    return dynamo.describeTable(r -> r.tableName(table)).table().latestStreamArn();
  }

  private StreamConsumer consumer(String table) {
    return new StreamConsumer(streams, streamArn(table));
  }

  private String iterator(String arn, String shard, ShardIteratorType type, String sequence) {
    return streams.getShardIterator(r -> r.streamArn(arn).shardId(shard).shardIteratorType(type)
        .sequenceNumber(sequence)).shardIterator();
  }

  private GetRecordsResponse records(String iterator, Integer limit) {
    return streams.getRecords(r -> r.shardIterator(iterator).limit(limit));
  }

  private static List<String> keys(List<Record> records) {
    return records.stream().map(r -> r.dynamodb().keys().get("pk").s()).toList();
  }

  private HttpResponse<String> sweep() throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(endpoint.uri() + "/stator/ttl/sweep"))
            .POST(HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(30))
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }
}
