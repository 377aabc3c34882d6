package io.stator.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.ConditionCheck;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteTableRequest;
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
import io.stator.api.Record;
import io.stator.api.Shard;
import io.stator.api.StreamDescription;
import io.stator.api.StreamSpecification;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactionCanceledException;
import io.stator.api.UpdateTableRequest;
import io.stator.capacity.ManualClock;
import io.stator.engine.EngineOptions;
import io.stator.key.KeyCodec;
import io.stator.schema.StreamDefinition;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Shards that follow the table's partitions: one per partition, children when the capacity
 * model splits one, the same shards after a restart, and the streams of a deleted table.
 */
class StreamPartitionsTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final MemoryStorage storage = new MemoryStorage();
  private Database db = open();
  private DynamoDbStreams streams = (DynamoDbStreams) db;

  private Database open() {
    return Stator.open(storage,
        EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO));
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void anOnDemandTableHasOneShardPerPartitionAndRecordsGoByKeyHash() {
    String arn = createTable("tbl", "PAY_PER_REQUEST", null);
    for (int i = 0; i < 40; i++) {
      put("tbl", "k" + i, "v");
    }
    List<Shard> shards = describeStream(arn).shards();
    assertThat(shards).hasSize(4); // a new on-demand table's four partitions
    assertThat(shards).allSatisfy(s -> {
      assertThat(s.parentShardId()).isNull();
      assertThat(s.sequenceNumberRange().endingSequenceNumber()).isNull();
    });
    assertThat(shards).extracting(Shard::shardId).doesNotHaveDuplicates();
    // Each shard holds the keys whose hash falls in one quarter of the hash range, its own.
    java.util.Set<Long> quarters = new java.util.HashSet<>();
    for (Shard shard : shards) {
      List<Long> of = keysOf(readShard(arn, shard.shardId())).stream()
          .map(k -> Long.divideUnsigned(hash(k), Long.divideUnsigned(-1L, 4) + 1))
          .distinct().toList();
      assertThat(of).hasSize(1);
      quarters.add(of.get(0));
    }
    assertThat(quarters).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
    assertThat(keysOf(new Consumer(arn).readAll())).hasSize(40).doesNotHaveDuplicates();
  }

  @Test
  void aSplitClosesTheShardAndItsChildrenFollowWithEachItemsChangesInOrder() {
    String arn = createTable("tbl", "PROVISIONED", new ProvisionedThroughput(5L, 5L));
    Map<String, List<String>> made = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      put("tbl", "k" + i, "1");
      made.computeIfAbsent("k" + i, k -> new ArrayList<>()).add("INSERT 1");
    }
    List<Shard> before = describeStream(arn).shards();
    assertThat(before).hasSize(1);

    // Raising the write throughput past one partition's 1,000 WCU splits the partition
    // (2,000 WCU need two, plus reads: three), as DynamoDB does.
    db.updateTable(new UpdateTableRequest(
        "tbl", null, null, new ProvisionedThroughput(5L, 2500L), null, null, null, null));
    for (int i = 0; i < 20; i++) {
      put("tbl", "k" + i, "2");
      made.get("k" + i).add("MODIFY 2");
      if (i % 2 == 0) {
        delete("tbl", "k" + i);
        made.get("k" + i).add("REMOVE -");
      }
    }
    List<Shard> shards = describeStream(arn).shards();
    assertThat(shards).extracting(Shard::shardId).isSorted();
    Shard parent = shards.stream()
        .filter(k -> k.shardId().equals(before.get(0).shardId())).findFirst().orElseThrow();
    assertThat(parent.sequenceNumberRange().endingSequenceNumber()).isNotNull();
    List<Shard> children = shards.stream()
        .filter(s -> parent.shardId().equals(s.parentShardId())).toList();
    assertThat(children).hasSize(2);
    // Every split divides one shard in two; the open shards are the table's three partitions.
    assertThat(shards).hasSize(5);
    assertThat(shards.stream()
        .filter(s -> s.sequenceNumberRange().endingSequenceNumber() == null)).hasSize(3);
    // The parent's range ends with its last record; the children start after it.
    List<Record> parentRecords = readShard(arn, parent.shardId());
    assertThat(parentRecords).hasSize(20);
    assertThat(parent.sequenceNumberRange().endingSequenceNumber())
        .isEqualTo(parentRecords.get(19).dynamodb().sequenceNumber());
    assertThat(children).allSatisfy(c ->
        assertThat(c.sequenceNumberRange().startingSequenceNumber())
            .isGreaterThan(parent.sequenceNumberRange().endingSequenceNumber()));

    assertThat(perItem(new Consumer(arn).readAll())).isEqualTo(made);
  }

  @Test
  void theFirstWriteAfterASplitRecordsItBeforeItsAttemptAndTakesTheNextNumber() {
    String arn = createTable("tbl", "PROVISIONED", new ProvisionedThroughput(5L, 5L));
    put("tbl", "a", "1");
    db.updateTable(new UpdateTableRequest(
        "tbl", null, null, new ProvisionedThroughput(5L, 2500L), null, null, null, null));
    put("tbl", "b", "1"); // finds the split and records it in the catalog

    long lastSplit = describeStream(arn).shards().stream()
        .filter(s -> s.parentShardId() != null)
        .mapToLong(s -> Long.parseLong(s.sequenceNumberRange().startingSequenceNumber()))
        .max().orElseThrow();
    // The clock stands still, so the engine's numbers are consecutive (a step of WRITERS apart,
    // the low digits being its id): the write's record has the number after the split's. Had its attempt recorded the split itself, that attempt would have
    // failed on the catalog version it read, after taking a number of its own.
    assertThat(sequenceOf(new Consumer(arn).readAll(), "b")).isEqualTo(lastSplit + StreamSequencer.WRITERS);
  }

  @Test
  void aTransactionCancelledAfterStagingAWriteTakesNoSequenceNumber() {
    String arn = createTable("tbl", "PAY_PER_REQUEST", null);
    put("tbl", "a", "1");
    // The Put is staged (its stream record made) before the ConditionCheck fails.
    TransactWriteItemsRequest cancelled = new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(
            Map.of("pk", AttributeValue.s("b"), "v", AttributeValue.s("1")), "tbl",
            null, null, null, null), null, null),
        new TransactWriteItem(new ConditionCheck(Map.of("pk", AttributeValue.s("c")), "tbl",
            "attribute_exists(pk)", null, null, null), null, null, null)),
        null, null, null);
    catchThrowableOfType(
        () -> db.transactWriteItems(cancelled), TransactionCanceledException.class);
    put("tbl", "d", "1");

    List<Record> records = new Consumer(arn).readAll();
    assertThat(keysOf(records)).containsExactlyInAnyOrder("a", "d");
    // The clock stands still: consecutive numbers of the engine (a step of WRITERS apart), none
    // taken by the cancelled attempt.
    assertThat(sequenceOf(records, "d"))
        .isEqualTo(sequenceOf(records, "a") + StreamSequencer.WRITERS);
  }

  @Test
  void concurrentWritersAcrossASplitKeepOrderAndNoRecordLandsInAClosedShardReadToItsEnd()
      throws Exception {
    String arn = createTable("tbl", "PROVISIONED", new ProvisionedThroughput(5L, 5L));
    int writers = 4;
    int each = 150;
    AtomicInteger progress = new AtomicInteger();
    AtomicBoolean updated = new AtomicBoolean();
    Map<String, Integer> written = new ConcurrentHashMap<>();
    Map<String, Integer> readToEnd = new ConcurrentHashMap<>();
    List<Thread> threads = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (int w = 0; w < writers; w++) {
      String key = "item" + w;
      Thread t = new Thread(() -> {
        // At least `each` changes, and at least `each` after the UpdateTable that splits; then
        // on (for a minute at most, not a count of writes that a poller kept from running could
        // miss) until the poller has read a closed shard to its end, so that writes still land
        // after it did, however the threads are scheduled.
        int i = 0;
        int until = Integer.MAX_VALUE;
        while (i < until || (readToEnd.isEmpty() && System.nanoTime() - deadline < 0)) {
          if (until == Integer.MAX_VALUE && updated.get()) {
            until = Math.max(each, i + each);
          }
          put("tbl", key, Integer.toString(i++));
          progress.incrementAndGet();
        }
        written.put(key, i);
      });
      threads.add(t);
    }
    // A consumer polling meanwhile: whenever it finds a shard closed, it reads it to its end
    // and remembers how many records it had; the shard must never receive more.
    AtomicBoolean writing = new AtomicBoolean(true);
    Thread poller = new Thread(() -> {
      while (writing.get()) {
        for (Shard s : describeStream(arn).shards()) {
          if (s.sequenceNumberRange().endingSequenceNumber() != null
              && !readToEnd.containsKey(s.shardId())) {
            readToEnd.put(s.shardId(), readShard(arn, s.shardId()).size());
          }
        }
      }
    });
    threads.forEach(Thread::start);
    poller.start();
    while (progress.get() < writers * each / 3) {
      Thread.onSpinWait();
    }
    db.updateTable(new UpdateTableRequest(
        "tbl", null, null, new ProvisionedThroughput(5L, 3500L), null, null, null, null));
    updated.set(true);
    for (Thread t : threads) {
      t.join();
    }
    writing.set(false);
    poller.join();

    List<Shard> shards = describeStream(arn).shards();
    assertThat(shards.size()).isGreaterThan(1);
    assertThat(readToEnd).isNotEmpty();
    readToEnd.forEach((shard, count) ->
        assertThat(readShard(arn, shard)).as("records of %s", shard).hasSize(count));
    Map<String, List<String>> seen = perItem(new Consumer(arn).readAll());
    for (int w = 0; w < writers; w++) {
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < written.get("item" + w); i++) {
        expected.add((i == 0 ? "INSERT " : "MODIFY ") + i);
      }
      assertThat(seen.get("item" + w)).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void aRestartFindsTheSameShardsAndKeepsTheRecordedSplits() {
    String arn = createTable("tbl", "PROVISIONED", new ProvisionedThroughput(5L, 5L));
    put("tbl", "a", "1");
    db.updateTable(new UpdateTableRequest(
        "tbl", null, null, new ProvisionedThroughput(5L, 2500L), null, null, null, null));
    put("tbl", "a", "2");
    List<Shard> shards = describeStream(arn).shards();
    assertThat(shards).hasSize(5);

    db.close();
    db = open();
    streams = (DynamoDbStreams) db;
    assertThat(describeStream(arn).shards()).isEqualTo(shards);
    put("tbl", "a", "3");
    put("tbl", "b", "1");
    // The model rebuilt its partitions evenly (three thirds); the stream keeps its own.
    assertThat(describeStream(arn).shards()).isEqualTo(shards);
    assertThat(perItem(new Consumer(arn).readAll()))
        .containsEntry("a", List.of("INSERT 1", "MODIFY 2", "MODIFY 3"))
        .containsEntry("b", List.of("INSERT 1"));
  }

  /** DescribeStream lists shards in ascending ShardId order and pages through them so. */
  @Test
  void shardsAreListedAndPagedInShardIdOrder() {
    String arn = rotatedOnce();
    List<String> all = describeStream(arn).shards().stream().map(Shard::shardId).toList();
    assertThat(all).hasSize(8).isSorted();

    List<String> paged = new ArrayList<>();
    String after = null;
    do {
      StreamDescription page = streams.describeStream(
          new DescribeStreamRequest(arn, 3, after, null)).streamDescription();
      page.shards().forEach(s -> paged.add(s.shardId()));
      after = page.lastEvaluatedShardId();
    } while (after != null);
    assertThat(paged).isEqualTo(all);

    // After the last shard, or after an id past every shard, none.
    for (String last : List.of(all.get(7), "shardId-99999999999999999999-ffffffff")) {
      StreamDescription none = streams.describeStream(
          new DescribeStreamRequest(arn, null, last, null)).streamDescription();
      assertThat(none.shards()).isEmpty();
      assertThat(none.lastEvaluatedShardId()).isNull();
    }
    // After an id before every shard (a trimmed one, say), all of them.
    assertThat(streams.describeStream(new DescribeStreamRequest(arn, null,
        "shardId-00000000000000000000-00000000", null)).streamDescription().shards())
        .extracting(Shard::shardId).isEqualTo(all);
  }

  @Test
  void shardsRotateAfterFourHoursPerPartition() {
    String arn = rotatedOnce();
    List<Shard> shards = describeStream(arn).shards();
    assertThat(shards).hasSize(8);
    // In ShardId order: the four closed shards first (their ids begin with their earlier start),
    // then their four children, one each.
    for (int i = 0; i < 4; i++) {
      assertThat(shards.get(i).sequenceNumberRange().endingSequenceNumber()).isNotNull();
      assertThat(shards.get(4 + i).sequenceNumberRange().endingSequenceNumber()).isNull();
    }
    assertThat(shards.subList(4, 8)).extracting(Shard::parentShardId)
        .containsExactlyInAnyOrderElementsOf(
            shards.subList(0, 4).stream().map(Shard::shardId).toList());
    assertThat(perItem(new Consumer(arn).readAll()))
        .containsEntry("a", List.of("INSERT 1", "MODIFY 2"));
  }

  @Test
  void theStreamOfADeletedTableStaysReadableForADayDisabled() {
    String arn = createTable("tbl", "PROVISIONED", new ProvisionedThroughput(5L, 5L));
    put("tbl", "a", "1");
    put("tbl", "b", "1");
    String shard = describeStream(arn).shards().get(0).shardId();
    String open = iterator(arn, shard, "TRIM_HORIZON");
    db.deleteTable(new DeleteTableRequest("tbl"));

    assertThat(streams.listStreams(new ListStreamsRequest(null, null, null)).streams())
        .extracting(s -> s.streamArn()).containsExactly(arn);
    assertThat(streams.listStreams(new ListStreamsRequest("tbl", null, null)).streams())
        .hasSize(1);
    StreamDescription d = describeStream(arn);
    assertThat(d.streamStatus()).isEqualTo("DISABLED");
    assertThat(d.tableName()).isEqualTo("tbl");
    assertThat(d.shards()).hasSize(1);
    assertThat(d.shards().get(0).sequenceNumberRange().endingSequenceNumber()).isNotNull();
    // An iterator taken before the deletion still reads, to the closed shard's end.
    GetRecordsResponse r = streams.getRecords(new GetRecordsRequest(open, null));
    assertThat(keysOf(r.records())).containsExactly("a", "b");
    assertThat(r.nextShardIterator()).isNull();

    // A table of the same name, with a stream of its own: both streams are listed.
    clock.advance(Duration.ofHours(1));
    String again = createTable("tbl", "PROVISIONED", new ProvisionedThroughput(5L, 5L));
    put("tbl", "c", "1");
    assertThat(streams.listStreams(new ListStreamsRequest("tbl", null, null)).streams())
        .extracting(s -> s.streamArn()).containsExactly(arn, again);
    assertThat(keysOf(new Consumer(arn).readAll())).containsExactly("a", "b");
    assertThat(keysOf(new Consumer(again).readAll())).containsExactly("c");

    clock.advance(Duration.ofHours(24));
    assertThat(streams.listStreams(new ListStreamsRequest(null, null, null)).streams())
        .extracting(s -> s.streamArn()).containsExactly(again);
    DynamoDbException gone = catchThrowableOfType(DynamoDbException.class,
        () -> describeStream(arn));
    assertThat(gone.type()).isEqualTo(ErrorType.ResourceNotFoundException);
    // The forgotten stream's records are gone from the shared space; the new stream's stay.
    assertThat(storage.stats(StreamDefinition.SHARED_SPACE).records()).isEqualTo(1);
  }

  @Test
  void aTableDeletedWithoutAStreamLeavesNothingBehind() {
    db.createTable(new CreateTableRequest("plain", List.of(new AttributeDefinition("pk", "S")),
        List.of(new KeySchemaElement("pk", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
        null, null, null, null, null, null));
    db.deleteTable(new DeleteTableRequest("plain"));
    assertThat(streams.listStreams(new ListStreamsRequest(null, null, null)).streams()).isEmpty();
    DynamoDbException e = catchThrowableOfType(DynamoDbException.class,
        () -> streams.listStreams(new ListStreamsRequest("plain", null, null)));
    assertThat(e.getMessage()).isEqualTo("Requested resource not found: Table: plain not found");
  }

  // ---- helpers -------------------------------------------------------------------------------

  /**
   * A consumer as written for DynamoDB: it reads a shard only after its parent, each shard from
   * TRIM_HORIZON to its end (closed) or until caught up (open).
   */
  private final class Consumer {
    private final String arn;

    Consumer(String arn) {
      this.arn = arn;
    }

    List<Record> readAll() {
      List<Shard> shards = describeStream(arn).shards();
      Set<String> ids = new HashSet<>();
      shards.forEach(s -> ids.add(s.shardId()));
      Set<String> done = new HashSet<>();
      List<Record> out = new ArrayList<>();
      while (done.size() < shards.size()) {
        for (Shard s : shards) {
          boolean ready = s.parentShardId() == null || !ids.contains(s.parentShardId())
              || done.contains(s.parentShardId());
          if (ready && done.add(s.shardId())) {
            out.addAll(readShard(arn, s.shardId()));
          }
        }
      }
      return out;
    }
  }

  private List<Record> readShard(String arn, String shardId) {
    String it = iterator(arn, shardId, "TRIM_HORIZON");
    List<Record> out = new ArrayList<>();
    while (it != null) {
      GetRecordsResponse r = streams.getRecords(new GetRecordsRequest(it, null));
      out.addAll(r.records());
      if (r.records().isEmpty()) {
        break; // caught up (an open shard), or a closed shard at its end
      }
      it = r.nextShardIterator();
    }
    return out;
  }

  private String iterator(String arn, String shard, String type) {
    return streams.getShardIterator(new GetShardIteratorRequest(arn, shard, type, null))
        .shardIterator();
  }

  private static Map<String, List<String>> perItem(List<Record> records) {
    Map<String, List<String>> out = new HashMap<>();
    for (Record r : records) {
      Map<String, AttributeValue> image = r.dynamodb().newImage();
      String v = image == null ? "-" : ((AttributeValue.S) image.get("v")).value();
      out.computeIfAbsent(text(r.dynamodb().keys()), k -> new ArrayList<>())
          .add(r.eventName() + " " + v);
    }
    return out;
  }

  /**
   * An on-demand table's stream whose four shards rotated once: written before and after four
   * hours, it has eight, the first four closed.
   */
  private String rotatedOnce() {
    String arn = createTable("tbl", "PAY_PER_REQUEST", null);
    put("tbl", "a", "1");
    clock.advance(Duration.ofHours(4).plusMinutes(1));
    put("tbl", "a", "2");
    return arn;
  }

  private String createTable(String name, String billing, ProvisionedThroughput throughput) {
    db.createTable(new CreateTableRequest(name, List.of(new AttributeDefinition("pk", "S")),
        List.of(new KeySchemaElement("pk", "HASH")), null, null, billing, throughput,
        new StreamSpecification(true, "NEW_IMAGE"), null, null, null, null, null, null));
    return db.describeTable(new DescribeTableRequest(name)).table().latestStreamArn();
  }

  private StreamDescription describeStream(String arn) {
    return streams.describeStream(new DescribeStreamRequest(arn, null, null, null))
        .streamDescription();
  }

  private void put(String table, String pk, String v) {
    db.putItem(new PutItemRequest(table,
        Map.of("pk", AttributeValue.s(pk), "v", AttributeValue.s(v)),
        null, null, null, null, null, null, null, null, null));
  }

  private void delete(String table, String pk) {
    db.deleteItem(new DeleteItemRequest(
        table, Map.of("pk", AttributeValue.s(pk)), null, null, null, null, null, null, null,
        null, null));
  }

  private static long hash(String pk) {
    return KeyCodec.hashOf(KeyCodec.partition(AttributeValue.s(pk)));
  }

  private static String text(Map<String, AttributeValue> keys) {
    return ((AttributeValue.S) keys.get("pk")).value();
  }

  private static long sequenceOf(List<Record> records, String pk) {
    return records.stream().filter(r -> text(r.dynamodb().keys()).equals(pk))
        .mapToLong(r -> Long.parseLong(r.dynamodb().sequenceNumber())).max().orElseThrow();
  }

  private static List<String> keysOf(List<Record> records) {
    return records.stream().map(r -> text(r.dynamodb().keys())).toList();
  }
}
