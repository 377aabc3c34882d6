package io.stator.stream;

import static io.stator.stream.StreamsTest.create;
import static io.stator.stream.StreamsTest.item;
import static io.stator.stream.StreamsTest.onlyShardIterator;
import static io.stator.stream.StreamsTest.readUntil;
import static io.stator.stream.StreamsTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.PutItemRequest;
import io.stator.api.StreamSpecification;
import io.stator.engine.EngineOptions;
import io.stator.storage.FaultyStorage;
import io.stator.storage.memory.MemoryStorage;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one storage, as two servers of a shared store; A, whose clock is behind B's,
 * stops publishing its watermark as a paused process does (the test holds its publications),
 * for longer than B waits for a silent engine, so B's stream reader passes A's watermark. A
 * record A numbers when it resumes must come after the point B's reader passed, or a consumer
 * reading on from there never sees it: numbered by A's clock and its last reading of B's
 * watermark, from before the pause, it would fall below that point.
 */
class PausedEngineTest {
  private final MemoryStorage storage = new MemoryStorage();
  private final FaultyStorage aStorage = new FaultyStorage(storage);
  private final EngineOptions options =
      EngineOptions.defaults().withTimeToLiveSweepInterval(Duration.ZERO);
  @AutoClose
  private final Database a = Stator.open(aStorage,
      options.withClock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-3))));
  @AutoClose
  private final Database b = Stator.open(storage, options);
  private final CountDownLatch resume = new CountDownLatch(1);

  /** Before the engines close (@AutoClose): A's held publications must go through. */
  @AfterEach
  void release() {
    resume.countDown();
  }

  @Test
  void aRecordNumberedAfterAPauseComesAfterWhatReadersPassedMeanwhile() throws Exception {
    b.createTable(create("tbl", new StreamSpecification(true, "NEW_IMAGE")));
    aStorage.holdWatermarks(resume);
    put(b, "during");
    // B's reader waits for A's watermark, then takes A for dead and passes it
    assertThat(readUntil(b, onlyShardIterator(b, "tbl", "TRIM_HORIZON"), 1))
        .extracting(r -> text(r.dynamodb().keys())).containsExactly("during");
    // a consumer starting now, at B's read point, past A's watermark
    String latest = onlyShardIterator(b, "tbl", "LATEST");

    CompletableFuture<Void> write = CompletableFuture.runAsync(() -> put(a, "after"));
    resume.countDown();
    write.get(30, TimeUnit.SECONDS);
    assertThat(readUntil(b, latest, 1)).extracting(r -> text(r.dynamodb().keys()))
        .containsExactly("after");
  }

  private static void put(Database db, String pk) {
    db.putItem(new PutItemRequest(
        "tbl", item("pk", pk), null, null, null, null, null, null, null, null, null));
  }
}
