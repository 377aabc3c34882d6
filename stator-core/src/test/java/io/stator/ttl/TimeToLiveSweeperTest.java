package io.stator.ttl;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.PutItemRequest;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.engine.EngineOptions;
import io.stator.engine.InterceptingStorage;
import io.stator.expression.ConditionExpression;
import io.stator.expression.Expressions;
import io.stator.lease.Leases;
import io.stator.schema.Catalog;
import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The sweeper's walk: pages, rounds, the background thread, and concurrent writes. */
class TimeToLiveSweeperTest {
  private static final int WRITES_WHILE_HELD = 50;
  static final Instant START = Instant.parse("2026-03-01T12:00:00Z");
  static final long PAST = START.getEpochSecond() - 10;
  static final long FUTURE = START.getEpochSecond() + 3600;

  final MutableClock clock = new MutableClock(START);
  final MemoryStorage storage = new MemoryStorage();

  Database open(Duration interval) {
    return Stator.open(
        storage, EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(interval));
  }

  @Test
  void theConditionOfTheDeleteAgreesWithTheSweeper() {
    ConditionExpression stillExpired = Expiry.stillExpired("exp", START);
    for (AttributeValue v :
        List.of(
            AttributeValue.n(Long.toString(PAST)),
            AttributeValue.n(Long.toString(FUTURE)),
            AttributeValue.n(Long.toString(START.getEpochSecond())),
            AttributeValue.n(Long.toString(START.getEpochSecond() - 6L * 365 * 86400)),
            AttributeValue.s(Long.toString(PAST)),
            new AttributeValue.Bool(true))) {
      assertThat(Expressions.evaluate(stillExpired, Map.of("exp", v)))
          .as("%s", v)
          .isEqualTo(Expiry.isExpired(v, START));
    }
    assertThat(Expressions.evaluate(stillExpired, Map.of())).isFalse();
    assertThat(Expiry.isExpired(null, START)).isFalse();
  }

  @Test
  void aRoundIsBoundedAndTheNextResumesWhereItStopped() {
    Database db = open(Duration.ZERO);
    createWithTtl(db, "Big");
    createWithTtl(db, "Small");
    int perRound = TimeToLiveSweeper.PAGE_SIZE * TimeToLiveSweeper.PAGES_PER_TABLE;
    for (int i = 0; i < perRound + 1000; i++) {
      put(db, "Big", "k" + i, PAST);
    }
    for (int i = 0; i < 10; i++) {
      put(db, "Small", "k" + i, PAST);
    }
    AtomicLong deletes = new AtomicLong();
    TimeToLiveSweeper sweeper =
        new TimeToLiveSweeper(
            storage, new Catalog(storage), clock, Duration.ZERO,
            (table, key, condition) -> {
              deletes.incrementAndGet();
              storage.commit(new Commit().delete(table.space(), key));
              return true;
            },
            new Leases(storage, clock));
    // a huge table does not starve a small one, and each round stops after a bounded walk
    assertThat(sweeper.round()).isEqualTo(perRound + 10);
    assertThat(sweeper.round()).isEqualTo(1000);
    assertThat(sweeper.round()).isZero();
    assertThat(deletes.get()).isEqualTo(perRound + 1010);
  }

  @Test
  void theBackgroundSweeperRunsWithoutBeingAsked() throws Exception {
    try (Database db = open(Duration.ofMillis(20))) {
      createWithTtl(db, "Sessions");
      put(db, "Sessions", "old", PAST);
      put(db, "Sessions", "new", FUTURE);
      // A background thread on a busy machine: a generous deadline, met at once when all is well.
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (exists(db, "Sessions", "old") && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(exists(db, "Sessions", "old")).isFalse();
      assertThat(exists(db, "Sessions", "new")).isTrue();
      // later expiries are found by later rounds
      clock.advance(Duration.ofHours(2));
      while (exists(db, "Sessions", "new") && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(exists(db, "Sessions", "new")).isFalse();
    }
  }

  @Test
  void aSweepNeitherBlocksNorLosesConcurrentWrites() throws Exception {
    // The sweep stops at its second page until the writer below has made WRITES_WHILE_HELD
    // writes: they happen while it is surely mid-walk, however the two threads are scheduled. A
    // sweep that held writes back would keep them waiting, and its own wait would run out.
    CountDownLatch writesWhileHeld = new CountDownLatch(WRITES_WHILE_HELD);
    AtomicBoolean writesWentThrough = new AtomicBoolean();
    AtomicInteger pagesRead = new AtomicInteger();
    Storage holding =
        new InterceptingStorage(storage) {
          @Override
          protected void beforeCommit(Commit commit) {}

          @Override
          public List<StoredRecord> scan(
              String space, byte[] from, byte[] to, StorageKey startAfter, int limit) {
            if (Thread.currentThread().getName().equals("sweep")
                && pagesRead.incrementAndGet() == 2) {
              try {
                writesWentThrough.set(writesWhileHeld.await(60, TimeUnit.SECONDS));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return super.scan(space, from, to, startAfter, limit);
          }
        };
    try (Database db =
        Stator.open(holding, EngineOptions.defaults().withClock(clock)
            .withTimeToLiveSweepInterval(Duration.ZERO))) {
      createWithTtl(db, "Sessions");
      int count = 10_000;
      for (int i = 0; i < count; i++) {
        put(db, "Sessions", "k" + i, PAST);
      }
      AtomicLong swept = new AtomicLong();
      Thread sweep = new Thread(() -> swept.set(sweep(db)), "sweep");
      sweep.start();
      // While the sweep runs, give items at the end of the walk a future expiry: each such write
      // must go through without waiting for the sweep, and must survive it.
      List<String> renewed = new ArrayList<>();
      for (int i = count - 1; i >= 0 && sweep.isAlive(); i--) {
        put(db, "Sessions", "k" + i, FUTURE);
        renewed.add("k" + i);
        writesWhileHeld.countDown();
      }
      sweep.join();
      assertThat(pagesRead.get()).as("pages the sweep read").isGreaterThan(2);
      assertThat(writesWentThrough).as("writes made while the sweep was mid-walk").isTrue();
      for (String id : renewed) {
        assertThat(exists(db, "Sessions", id)).as(id).isTrue();
      }
      assertThat(swept.get()).isBetween((long) count - renewed.size(), (long) count);
      assertThat(sweep(db)).isZero();
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  static void createWithTtl(Database db, String name) {
    db.createTable(new CreateTableRequest(
        name, List.of(new AttributeDefinition("id", "S")),
        List.of(new KeySchemaElement("id", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
        null, null, null, null, null, null));
    db.updateTimeToLive(
        new UpdateTimeToLiveRequest(name, new TimeToLiveSpecification(true, "expiresAt")));
  }

  static void put(Database db, String table, String id, long expiresAt) {
    db.putItem(new PutItemRequest(
        table,
        Map.of("id", AttributeValue.s(id), "expiresAt", AttributeValue.n(Long.toString(expiresAt))),
        null, null, null, null, null, null, null, null, null));
  }

  static boolean exists(Database db, String table, String id) {
    return db.getItem(new GetItemRequest(table, Map.of("id", AttributeValue.s(id)), null, null,
            null, null, null))
        .item() != null;
  }

  static long sweep(Database db) {
    return ((ExpiredItemSweep) db).sweepExpiredItems();
  }
}
