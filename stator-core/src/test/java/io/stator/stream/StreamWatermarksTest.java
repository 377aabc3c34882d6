package io.stator.stream;

import static io.stator.stream.StreamsTest.create;
import static io.stator.stream.StreamsTest.item;
import static io.stator.stream.StreamsTest.onlyShardIterator;
import static io.stator.stream.StreamsTest.readUntil;
import static io.stator.stream.StreamsTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.DescribeTableRequest;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetRecordsResponse;
import io.stator.api.PutItemRequest;
import io.stator.api.Record;
import io.stator.api.StreamSpecification;
import io.stator.engine.EngineOptions;
import io.stator.storage.Commit;
import io.stator.storage.FaultyStorage;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one storage, as two servers of a shared store, and a consumer reading the
 * stream through B while a write through A has taken its sequence number and is still
 * committing (its commit held, as a commit stalls while a node of the cluster dies): B's reader
 * must not pass that number, or the consumer, positioned after B's later record, would never
 * see A's.
 */
class StreamWatermarksTest {
  private final MemoryStorage storage = new MemoryStorage();
  private final FaultyStorage aStorage = new FaultyStorage(storage);
  private final EngineOptions options =
      EngineOptions.defaults().withTimeToLiveSweepInterval(Duration.ZERO);
  @AutoClose
  private final Database a = Stator.open(aStorage, options);
  @AutoClose
  private final Database b = Stator.open(storage, options);
  private final CountDownLatch release = new CountDownLatch(1);

  /** Before the engines close (@AutoClose): A's held commit must go through. */
  @AfterEach
  void release() {
    release.countDown();
  }

  @Test
  void aReaderDoesNotPassAnotherEnginesRecordStillCommitting() throws Exception {
    a.createTable(create("tbl", new StreamSpecification(true, "NEW_IMAGE")));
    String iterator = onlyShardIterator(b, "tbl", "TRIM_HORIZON");

    CountDownLatch entered = new CountDownLatch(1);
    aStorage.onlyCommits(space -> space.startsWith("table.")).holdCommits(entered, release);
    CompletableFuture<Void> first = CompletableFuture.runAsync(() -> put(a, "first"));
    assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(5); // B's clock moves past the millisecond of A's number
    put(b, "second");

    // A's write holds the number below B's: B answers nothing past it, however long it waits
    GetRecordsResponse held = b.getRecords(new GetRecordsRequest(iterator, null));
    assertThat(held.records()).isEmpty();
    assertThat(held.nextShardIterator()).isNotNull();

    release.countDown();
    first.get(30, TimeUnit.SECONDS);
    List<Record> read = readUntil(b, held.nextShardIterator(), 2);
    assertThat(read).extracting(r -> text(r.dynamodb().keys()))
        .containsExactly(text(item("pk", "first")), text(item("pk", "second")));
  }

  @Test
  void anEngineThatClosedIsNotWaitedFor() {
    a.createTable(create("tbl", new StreamSpecification(true, "NEW_IMAGE")));
    String arn = b.describeTable(new DescribeTableRequest("tbl")).table().latestStreamArn();
    put(a, "x");
    a.close();
    put(b, "y");
    // A withdrew its watermark: held at A's last one, B's reader would not return y
    assertThat(StreamsTest.readAll(b, arn)).extracting(r -> text(r.dynamodb().keys()))
        .containsExactly(text(item("pk", "x")), text(item("pk", "y")));
  }

  @Test
  void anEngineWhoseWatermarkStopsMovingIsWaitedForThenPassed() throws Exception {
    a.createTable(create("tbl", new StreamSpecification(true, "NEW_IMAGE")));
    String iterator = onlyShardIterator(b, "tbl", "TRIM_HORIZON");
    // the watermark of an engine that died just after publishing: far behind, never moving
    storage.commit(new Commit().put(WriterIds.SPACE, Watermarks.key(StreamSequencer.WRITERS - 1),
        ByteBuffer.allocate(Long.BYTES).putLong(1).array()));
    put(a, "x");
    // held below it, without waiting for it (it never moved), until B has published 50 times
    GetRecordsResponse held = b.getRecords(new GetRecordsRequest(iterator, null));
    assertThat(held.records()).isEmpty();
    assertThat(readUntil(b, held.nextShardIterator(), 1)).extracting(r -> text(r.dynamodb().keys()))
        .containsExactly(text(item("pk", "x")));
  }

  @Test
  void onAStorageOfOneProcessTheWatermarksOfEndedProcessesAreForgottenAtStart() {
    MemoryStorage restarted = new MemoryStorage();
    restarted.createSpace(WriterIds.SPACE);
    // the watermark a crashed process left, far behind: memory is one process's at a time
    restarted.commit(new Commit().put(WriterIds.SPACE, Watermarks.key(StreamSequencer.WRITERS - 1),
        ByteBuffer.allocate(2 * Long.BYTES).putLong(1).putLong(42).array()));
    try (Database c = Stator.open(restarted, options)) {
      c.createTable(create("tbl", new StreamSpecification(true, "NEW_IMAGE")));
      put(c, "x");
      String arn = c.describeTable(new DescribeTableRequest("tbl")).table().latestStreamArn();
      assertThat(StreamsTest.readAll(c, arn)).extracting(r -> text(r.dynamodb().keys()))
          .containsExactly(text(item("pk", "x")));
    }
  }

  private static void put(Database db, String pk) {
    Map<String, AttributeValue> item = item("pk", pk);
    db.putItem(new PutItemRequest(
        "tbl", item, null, null, null, null, null, null, null, null, null));
  }
}
