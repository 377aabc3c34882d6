package io.stator.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.Delete;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DescribeStreamRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.DynamoDbStreams;
import io.stator.api.ErrorType;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetRecordsResponse;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.PutRequest;
import io.stator.api.Record;
import io.stator.api.Shard;
import io.stator.api.ShardFilter;
import io.stator.api.StreamDescription;
import io.stator.api.StreamSpecification;
import io.stator.api.TableDescription;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.api.WriteRequest;
import io.stator.capacity.ManualClock;
import io.stator.engine.EngineOptions;
import io.stator.schema.StreamDefinition;
import io.stator.storage.memory.MemoryStorage;
import io.stator.ttl.ExpiredItemSweep;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Streams on the embedded engine, with a clock the tests move. */
class StreamsTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryStorage storage = new MemoryStorage();
  private final Database db =
      Stator.open(storage,
          EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO));
  private final DynamoDbStreams streams = (DynamoDbStreams) db;

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void recordsEveryChangeOnceWithEventNamesAndImages() {
    String arn = createTable("tbl", "NEW_AND_OLD_IMAGES");
    put("tbl", item("pk", "a", "v", "1"));
    put("tbl", item("pk", "a", "v", "2"));
    put("tbl", item("pk", "a", "v", "2")); // no change: no record
    update("tbl", "a", "SET w = :w", Map.of(":w", AttributeValue.s("x")));
    update("tbl", "a", "SET w = :w", Map.of(":w", AttributeValue.s("x"))); // no change
    delete("tbl", "a");
    delete("tbl", "a"); // absent: no record

    List<Record> records = readAll(arn);
    assertThat(records).extracting(Record::eventName)
        .containsExactly("INSERT", "MODIFY", "MODIFY", "REMOVE");
    Record insert = records.get(0);
    assertThat(insert.eventSource()).isEqualTo("aws:dynamodb");
    assertThat(insert.eventVersion()).isEqualTo("1.1");
    assertThat(insert.awsRegion()).isEqualTo("us-east-1");
    assertThat(insert.eventID()).hasSize(32);
    assertThat(insert.userIdentity()).isNull();
    assertThat(insert.dynamodb().keys()).isEqualTo(item("pk", "a"));
    assertThat(insert.dynamodb().oldImage()).isNull();
    assertThat(insert.dynamodb().newImage()).isEqualTo(item("pk", "a", "v", "1"));
    assertThat(insert.dynamodb().streamViewType()).isEqualTo("NEW_AND_OLD_IMAGES");
    assertThat(insert.dynamodb().approximateCreationDateTime()).isEqualTo(clock.instant());
    assertThat(insert.dynamodb().sizeBytes()).isEqualTo(3 + 5); // keys (pk, a) + new image (pk, a, v, 1)
    assertThat(records.get(1).dynamodb().oldImage()).isEqualTo(item("pk", "a", "v", "1"));
    assertThat(records.get(1).dynamodb().newImage()).isEqualTo(item("pk", "a", "v", "2"));
    assertThat(records.get(3).dynamodb().oldImage()).isEqualTo(item("pk", "a", "v", "2", "w", "x"));
    assertThat(records.get(3).dynamodb().newImage()).isNull();
    List<String> numbers = records.stream().map(r -> r.dynamodb().sequenceNumber()).toList();
    assertThat(numbers).allSatisfy(n -> assertThat(n).hasSize(21).containsOnlyDigits());
    assertThat(numbers).isSorted().doesNotHaveDuplicates();
    assertThat(records).extracting(Record::eventID).doesNotHaveDuplicates();
  }

  @ParameterizedTest
  @ValueSource(strings = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"})
  void imagesFollowTheViewType(String viewType) {
    String arn = createTable("tbl", viewType);
    put("tbl", item("pk", "a", "v", "1"));
    put("tbl", item("pk", "a", "v", "2"));
    Record modify = readAll(arn).get(1);
    boolean keepsNew = viewType.contains("NEW");
    boolean keepsOld = viewType.contains("OLD");
    assertThat(modify.dynamodb().newImage())
        .isEqualTo(keepsNew ? item("pk", "a", "v", "2") : null);
    assertThat(modify.dynamodb().oldImage())
        .isEqualTo(keepsOld ? item("pk", "a", "v", "1") : null);
    assertThat(modify.dynamodb().keys()).isEqualTo(item("pk", "a"));
    assertThat(modify.dynamodb().streamViewType()).isEqualTo(viewType);
  }

  @Test
  void batchTransactionAndTimeToLiveChangesAreRecorded() {
    String arn = createTable("tbl", "KEYS_ONLY");
    db.batchWriteItem(new BatchWriteItemRequest(
        Map.of("tbl", List.of(
            new WriteRequest(new PutRequest(item("pk", "b1")), null),
            new WriteRequest(new PutRequest(item("pk", "b2")), null))),
        null, null));
    db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(item("pk", "t1"), "tbl", null, null, null, null), null,
            null),
        new TransactWriteItem(null, null,
            new Delete(item("pk", "b1"), "tbl", null, null, null, null), null)),
        null, null, null));
    db.updateTimeToLive(
        new UpdateTimeToLiveRequest("tbl", new TimeToLiveSpecification(true, "expires")));
    long past = clock.instant().getEpochSecond() - 10;
    put("tbl", item("pk", "gone", "expires", AttributeValue.n(Long.toString(past))));
    assertThat(((ExpiredItemSweep) db).sweepExpiredItems()).isEqualTo(1);

    List<Record> records = readAll(arn);
    assertThat(records).extracting(r -> r.eventName() + " " + text(r.dynamodb().keys()))
        .containsExactlyInAnyOrder(
            "INSERT b1", "INSERT b2", "INSERT t1", "REMOVE b1", "INSERT gone", "REMOVE gone");
    assertThat(records.subList(4, 6)).extracting(r -> r.eventName() + " " + text(r.dynamodb().keys()))
        .containsExactly("INSERT gone", "REMOVE gone");
    Record ttl = records.get(5);
    assertThat(ttl.userIdentity()).isNotNull();
    assertThat(ttl.userIdentity().type()).isEqualTo("Service");
    assertThat(ttl.userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
    assertThat(records.subList(0, 5)).allSatisfy(r -> assertThat(r.userIdentity()).isNull());
  }

  @Test
  void describeTableShowsTheStreamAndUpdateTableEnablesAndDisables() {
    db.createTable(create("tbl", null));
    TableDescription none = describe("tbl");
    assertThat(none.streamSpecification()).isNull();
    assertThat(none.latestStreamArn()).isNull();
    assertError(ErrorType.ValidationException,
        "Table does not have an enabled stream to disable: TableName: tbl",
        () -> updateStream("tbl", false, null));
    assertError(ErrorType.ValidationException,
        "One or more parameter values were invalid: StreamViewType is required when"
            + " StreamEnabled is true",
        () -> updateStream("tbl", true, null));
    assertError(ErrorType.ValidationException,
        "1 validation error detected: Value 'ALL' at 'streamSpecification.streamViewType' failed"
            + " to satisfy constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY,"
            + " NEW_AND_OLD_IMAGES, NEW_IMAGE]",
        () -> updateStream("tbl", true, "ALL"));
    assertError(ErrorType.ValidationException,
        "1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed"
            + " to satisfy constraint: Member must not be null",
        () -> updateStream("tbl", null, "KEYS_ONLY"));

    updateStream("tbl", true, "NEW_IMAGE");
    TableDescription enabled = describe("tbl");
    assertThat(enabled.streamSpecification()).isEqualTo(new StreamSpecification(true, "NEW_IMAGE"));
    assertThat(enabled.latestStreamLabel()).isEqualTo("2026-03-01T10:00:00.000");
    assertThat(enabled.latestStreamArn()).isEqualTo(
        "arn:aws:dynamodb:us-east-1:000000000000:table/tbl/stream/2026-03-01T10:00:00.000");
    assertError(ErrorType.ValidationException, "Table already has an enabled stream: TableName: tbl",
        () -> updateStream("tbl", true, "KEYS_ONLY"));
    put("tbl", item("pk", "a"));

    updateStream("tbl", false, null);
    TableDescription disabled = describe("tbl");
    assertThat(disabled.streamSpecification()).isNull();
    assertThat(disabled.latestStreamArn()).isEqualTo(enabled.latestStreamArn());
    put("tbl", item("pk", "b")); // not recorded: the stream is disabled
    StreamDescription closed = describeStream(enabled.latestStreamArn());
    assertThat(closed.streamStatus()).isEqualTo("DISABLED");
    assertThat(closed.shards()).hasSize(1);
    assertThat(closed.shards().get(0).sequenceNumberRange().endingSequenceNumber()).isNotNull();
    assertThat(readAll(enabled.latestStreamArn())).hasSize(1);

    updateStream("tbl", true, "KEYS_ONLY");
    TableDescription again = describe("tbl");
    assertThat(again.latestStreamArn()).isNotEqualTo(enabled.latestStreamArn());
    assertThat(streams.listStreams(new ListStreamsRequest("tbl", null, null)).streams())
        .extracting(s -> s.streamArn())
        .containsExactly(enabled.latestStreamArn(), again.latestStreamArn());
    put("tbl", item("pk", "c"));
    assertThat(readAll(again.latestStreamArn())).extracting(r -> text(r.dynamodb().keys()))
        .containsExactly("c");

    // 24 hours after it was disabled, the old stream is gone.
    clock.advance(Duration.ofHours(25));
    assertThat(streams.listStreams(new ListStreamsRequest("tbl", null, null)).streams())
        .extracting(s -> s.streamArn()).containsExactly(again.latestStreamArn());
    assertError(ErrorType.ResourceNotFoundException,
        "Requested resource not found: Stream: " + enabled.latestStreamArn() + " not found",
        () -> describeStream(enabled.latestStreamArn()));
  }

  @Test
  void shardsRotateEveryFourHoursAndAConsumerFollowsThem() {
    String arn = createTable("tbl", "KEYS_ONLY");
    put("tbl", item("pk", "1"));
    clock.advance(Duration.ofHours(4).plusMinutes(1));
    put("tbl", item("pk", "2"));
    clock.advance(Duration.ofHours(4));
    put("tbl", item("pk", "3"));

    List<Shard> shards = describeStream(arn).shards();
    assertThat(shards).hasSize(3);
    assertThat(shards.get(0).parentShardId()).isNull();
    assertThat(shards.get(1).parentShardId()).isEqualTo(shards.get(0).shardId());
    assertThat(shards.get(2).parentShardId()).isEqualTo(shards.get(1).shardId());
    assertThat(shards.get(0).sequenceNumberRange().endingSequenceNumber()).isNotNull();
    assertThat(shards.get(2).sequenceNumberRange().endingSequenceNumber()).isNull();
    assertThat(shards).allSatisfy(s -> assertThat(s.shardId()).matches("shardId-\\d{20}-[0-9a-f]{8}"));
    assertThat(streams.describeStream(new DescribeStreamRequest(arn, null, null,
        new ShardFilter("CHILD_SHARDS", shards.get(0).shardId()))).streamDescription().shards())
        .containsExactly(shards.get(1));
    var page = streams.describeStream(new DescribeStreamRequest(arn, 2, null, null))
        .streamDescription();
    assertThat(page.shards()).hasSize(2);
    assertThat(page.lastEvaluatedShardId()).isEqualTo(shards.get(1).shardId());
    var rest = streams.describeStream(
        new DescribeStreamRequest(arn, 2, page.lastEvaluatedShardId(), null)).streamDescription();
    assertThat(rest.shards()).containsExactly(shards.get(2));
    assertThat(rest.lastEvaluatedShardId()).isNull();

    // A closed shard read to its end gives no next iterator; the open one always does.
    GetRecordsResponse first = streams.getRecords(new GetRecordsRequest(
        iterator(arn, shards.get(0).shardId(), "TRIM_HORIZON", null), null));
    assertThat(first.records()).hasSize(1);
    assertThat(first.nextShardIterator()).isNull();
    GetRecordsResponse open = streams.getRecords(new GetRecordsRequest(
        iterator(arn, shards.get(2).shardId(), "TRIM_HORIZON", null), null));
    assertThat(open.nextShardIterator()).isNotNull();
    assertThat(readAll(arn)).extracting(r -> text(r.dynamodb().keys()))
        .containsExactly("1", "2", "3");
  }

  @Test
  void iteratorTypesAndLimits() {
    String arn = createTable("tbl", "KEYS_ONLY");
    for (int i = 0; i < 5; i++) {
      put("tbl", item("pk", "k" + i));
    }
    String shard = describeStream(arn).shards().get(0).shardId();
    List<Record> all = streams.getRecords(new GetRecordsRequest(
        iterator(arn, shard, "TRIM_HORIZON", null), null)).records();
    assertThat(all).hasSize(5);
    String third = all.get(2).dynamodb().sequenceNumber();
    assertThat(keysOf(streams.getRecords(new GetRecordsRequest(
        iterator(arn, shard, "AT_SEQUENCE_NUMBER", third), null)).records()))
        .containsExactly("k2", "k3", "k4");
    assertThat(keysOf(streams.getRecords(new GetRecordsRequest(
        iterator(arn, shard, "AFTER_SEQUENCE_NUMBER", third), null)).records()))
        .containsExactly("k3", "k4");
    String latest = iterator(arn, shard, "LATEST", null);
    put("tbl", item("pk", "k5"));
    GetRecordsResponse afterLatest = streams.getRecords(new GetRecordsRequest(latest, null));
    assertThat(keysOf(afterLatest.records())).containsExactly("k5");
    assertThat(streams.getRecords(new GetRecordsRequest(afterLatest.nextShardIterator(), null))
        .records()).isEmpty();
    GetRecordsResponse limited = streams.getRecords(new GetRecordsRequest(
        iterator(arn, shard, "TRIM_HORIZON", null), 2));
    assertThat(keysOf(limited.records())).containsExactly("k0", "k1");
    assertThat(keysOf(streams.getRecords(new GetRecordsRequest(limited.nextShardIterator(), 2))
        .records())).containsExactly("k2", "k3");
  }

  @Test
  void errors() {
    String arn = createTable("tbl", "KEYS_ONLY");
    put("tbl", item("pk", "a"));
    String shard = describeStream(arn).shards().get(0).shardId();
    String missing = arn.replace("table/tbl/", "table/nope/");
    assertError(ErrorType.ResourceNotFoundException,
        "Requested resource not found: Stream: " + missing + " not found",
        () -> describeStream(missing));
    assertError(ErrorType.ResourceNotFoundException,
        "Requested resource not found: Shard does not exist",
        () -> iterator(arn, "shardId-00000000000000000000-00000000", "LATEST", null));
    assertError(ErrorType.ValidationException,
        "SequenceNumber is required when ShardIteratorType is AT_SEQUENCE_NUMBER",
        () -> iterator(arn, shard, "AT_SEQUENCE_NUMBER", null));
    assertError(ErrorType.ValidationException, "Invalid ShardIterator",
        () -> streams.getRecords(new GetRecordsRequest("garbage", null)));
    assertError(ErrorType.LimitExceededException,
        "Limit must be less than or equal to 1000, but was 1001",
        () -> streams.getRecords(new GetRecordsRequest(
            iterator(arn, shard, "TRIM_HORIZON", null), 1001)));
    assertError(ErrorType.ResourceNotFoundException,
        "Requested resource not found: Table: nope not found",
        () -> streams.listStreams(new ListStreamsRequest("nope", null, null)));

    String old = iterator(arn, shard, "TRIM_HORIZON", null);
    clock.advance(Duration.ofMinutes(16));
    DynamoDbException expired = catchThrowableOfType(
        () -> streams.getRecords(new GetRecordsRequest(old, null)), DynamoDbException.class);
    assertThat(expired.type()).isEqualTo(ErrorType.ExpiredIteratorException);
    assertThat(expired.getMessage()).startsWith("Iterator expired. The iterator was created at"
        + " time ").endsWith(" which is further in the future than the tolerated delay of 900000"
        + " milliseconds.");

    String sequenceNumber = readAll(arn).get(0).dynamodb().sequenceNumber();
    // An iterator at a record that passes 24 hours of age before the iterator is used.
    clock.advance(Duration.ofHours(23).plusMinutes(35));
    String positioned = iterator(arn, shard, "AT_SEQUENCE_NUMBER", sequenceNumber);
    clock.advance(Duration.ofMinutes(10));
    assertError(ErrorType.TrimmedDataAccessException,
        "The data you are trying to access has been trimmed.",
        () -> streams.getRecords(new GetRecordsRequest(positioned, null)));
    // The first record is trimmed, but its shard (4 hours) is partly kept.
    assertError(ErrorType.TrimmedDataAccessException,
        "The data you are trying to access has been trimmed.",
        () -> iterator(arn, shard, "AT_SEQUENCE_NUMBER", sequenceNumber));
    assertThat(streams.getRecords(new GetRecordsRequest(
        iterator(arn, shard, "TRIM_HORIZON", null), null)).records()).isEmpty();
    // 29 hours later the whole first shard is gone.
    clock.advance(Duration.ofHours(5));
    put("tbl", item("pk", "b"));
    String current = describeStream(arn).shards().get(0).shardId();
    assertThat(current).isNotEqualTo(shard);
    assertError(ErrorType.ResourceNotFoundException,
        "Requested resource not found: Shard does not exist",
        () -> iterator(arn, shard, "AT_SEQUENCE_NUMBER", sequenceNumber));
    // The trimmed record is no longer returned from the trim horizon, nor kept in storage.
    assertThat(keysOf(readAll(arn))).containsExactly("b");
    assertThat(storage.stats(StreamDefinition.SHARED_SPACE).records()).isEqualTo(1);
  }

  @Test
  void readAfterAcknowledgedWriteUnderConcurrency() throws Exception {
    String arn = createTable("tbl", "KEYS_ONLY");
    int writers = 4;
    int each = 50;
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      Thread t = new Thread(() -> {
        for (int i = 0; i < each; i++) {
          put("tbl", item("pk", id + "-" + i));
        }
      });
      t.start();
      threads.add(t);
    }
    String shard = describeStream(arn).shards().get(0).shardId();
    String it = iterator(arn, shard, "TRIM_HORIZON", null);
    List<Record> seen = new ArrayList<>();
    while (seen.size() < writers * each) {
      GetRecordsResponse r = streams.getRecords(new GetRecordsRequest(it, null));
      seen.addAll(r.records());
      it = r.nextShardIterator();
    }
    for (Thread t : threads) {
      t.join();
    }
    seen.addAll(streams.getRecords(new GetRecordsRequest(it, null)).records());
    assertThat(seen).hasSize(writers * each);
    assertThat(keysOf(seen)).doesNotHaveDuplicates();
    for (int w = 0; w < writers; w++) {
      String prefix = w + "-";
      List<String> mine = keysOf(seen).stream().filter(k -> k.startsWith(prefix)).toList();
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < each; i++) {
        expected.add(prefix + i);
      }
      assertThat(mine).containsExactlyElementsOf(expected); // each writer's order
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private String createTable(String name, String viewType) {
    db.createTable(create(name, new StreamSpecification(true, viewType)));
    return describe(name).latestStreamArn();
  }

  /** A provisioned table with one partition, so its stream has one open shard at a time. */
  static CreateTableRequest create(String name, StreamSpecification stream) {
    return new CreateTableRequest(
        name, List.of(new AttributeDefinition("pk", "S")),
        List.of(new KeySchemaElement("pk", "HASH")), null, null, "PROVISIONED",
        new ProvisionedThroughput(5L, 5L), stream, null, null, null, null, null, null);
  }

  private TableDescription describe(String name) {
    return db.describeTable(new DescribeTableRequest(name)).table();
  }

  private void updateStream(String table, Boolean enabled, String viewType) {
    db.updateTable(new UpdateTableRequest(
        table, null, null, null, null, new StreamSpecification(enabled, viewType), null, null));
  }

  private StreamDescription describeStream(String arn) {
    return streams.describeStream(new DescribeStreamRequest(arn, null, null, null))
        .streamDescription();
  }

  private String iterator(String arn, String shard, String type, String sequenceNumber) {
    return streams.getShardIterator(new GetShardIteratorRequest(arn, shard, type, sequenceNumber))
        .shardIterator();
  }

  private List<Record> readAll(String arn) {
    return readAll(streams, arn);
  }

  /** Every record of every shard, following shards from the first, as a consumer does. */
  /**
   * An iterator of {@code type} (TRIM_HORIZON, LATEST) of the only shard of {@code table}'s
   * stream, through {@code db}.
   */
  static String onlyShardIterator(Database db, String table, String type) {
    String arn = db.describeTable(new DescribeTableRequest(table)).table().latestStreamArn();
    List<Shard> shards =
        db.describeStream(new DescribeStreamRequest(arn, null, null, null)).streamDescription()
            .shards();
    assertThat(shards).hasSize(1);
    return db.getShardIterator(
        new GetShardIteratorRequest(arn, shards.get(0).shardId(), type, null)).shardIterator();
  }

  /** The records read through {@code streams} from {@code iterator} on, once there are n. */
  static List<Record> readUntil(DynamoDbStreams streams, String iterator, int n) {
    List<Record> read = new ArrayList<>();
    String it = iterator;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (read.size() < n && System.nanoTime() < deadline) {
      GetRecordsResponse r = streams.getRecords(new GetRecordsRequest(it, null));
      read.addAll(r.records());
      it = r.nextShardIterator();
    }
    return read;
  }

  static List<Record> readAll(DynamoDbStreams streams, String arn) {
    List<Record> out = new ArrayList<>();
    StreamDescription stream =
        streams.describeStream(new DescribeStreamRequest(arn, null, null, null))
            .streamDescription();
    for (Shard shard : stream.shards()) {
      String it = streams.getShardIterator(
              new GetShardIteratorRequest(arn, shard.shardId(), "TRIM_HORIZON", null))
          .shardIterator();
      while (it != null) {
        GetRecordsResponse r = streams.getRecords(new GetRecordsRequest(it, null));
        out.addAll(r.records());
        if (r.records().isEmpty()) {
          break; // caught up with an open shard
        }
        it = r.nextShardIterator();
      }
    }
    return out;
  }

  private void put(String table, Map<String, AttributeValue> item) {
    db.putItem(new PutItemRequest(
        table, item, null, null, null, null, null, null, null, null, null));
  }

  private void update(String table, String pk, String expression,
      Map<String, AttributeValue> values) {
    db.updateItem(new UpdateItemRequest(table, item("pk", pk), expression, null, null, values,
        null, null, null, null, null, null, null));
  }

  private void delete(String table, String pk) {
    db.deleteItem(new DeleteItemRequest(
        table, item("pk", pk), null, null, null, null, null, null, null, null, null));
  }

  static Map<String, AttributeValue> item(Object... namesAndValues) {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      Object v = namesAndValues[i + 1];
      m.put((String) namesAndValues[i],
          v instanceof AttributeValue av ? av : AttributeValue.s((String) v));
    }
    return m;
  }

  static String text(Map<String, AttributeValue> keys) {
    return ((AttributeValue.S) keys.get("pk")).value();
  }

  private static List<String> keysOf(List<Record> records) {
    return records.stream().map(r -> text(r.dynamodb().keys())).toList();
  }

  private static void assertError(ErrorType type, String message, Runnable call) {
    DynamoDbException e = catchThrowableOfType(DynamoDbException.class, call::run);
    assertThat(e).as("expected %s", type).isNotNull();
    assertThat(e.type()).isEqualTo(type);
    assertThat(e.getMessage()).isEqualTo(message);
  }
}
