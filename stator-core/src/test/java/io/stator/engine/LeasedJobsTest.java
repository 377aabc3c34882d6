package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.get;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.IndexesTest.def;
import static io.stator.engine.IndexesTest.hash;
import static io.stator.engine.IndexesTest.indexScan;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.CreateGlobalSecondaryIndexAction;
import io.stator.api.DescribeTableRequest;
import io.stator.api.GlobalSecondaryIndexUpdate;
import io.stator.api.Projection;
import io.stator.api.TableDescription;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.capacity.ManualClock;
import io.stator.lease.Leases;
import io.stator.schema.Catalog;
import io.stator.storage.FaultyStorage;
import io.stator.storage.memory.MemoryStorage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one storage, as two servers of a shared store: the background jobs held by a
 * lease (the Time to Live sweep, the housekeeping, GSI backfills) run on one of them at a time,
 * and the other takes a job over when the holder stops.
 */
class LeasedJobsTest {
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(START);
  private final MemoryStorage storage = new MemoryStorage();
  // No background rounds: the test runs each round itself.
  private final EngineOptions options =
      EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO);
  private final FaultyStorage aStorage = new FaultyStorage(storage);
  private final Engine a = new Engine(aStorage, options);
  private final Engine b = new Engine(storage, options);

  @AfterEach
  void close() {
    aStorage.holdCommits(null, null);
    try {
      a.close();
    } finally {
      b.close();
    }
  }

  @Test
  void oneEngineSweepsAtATimeAndAnotherTakesTheSweepOverWhenTheHolderStops() {
    a.createTable(create("Sessions", "id", "S", null, null));
    a.updateTimeToLive(new UpdateTimeToLiveRequest(
        "Sessions", new TimeToLiveSpecification(true, "expiresAt")));
    long past = START.getEpochSecond() - 60;
    for (int i = 0; i < 5; i++) {
      put(b, "Sessions", item("id", "s" + i, "expiresAt", past));
    }
    assertThat(a.backgroundSweepNow()).isEqualTo(5);
    assertThat(b.backgroundSweepNow()).isEqualTo(-1); // A holds the sweep: B skips its round

    // A stops renewing (as a server killed without giving its lease up): B waits out the term.
    for (int i = 5; i < 8; i++) {
      put(b, "Sessions", item("id", "s" + i, "expiresAt", past));
    }
    clock.advance(Duration.ofSeconds(9));
    assertThat(b.backgroundSweepNow()).isEqualTo(-1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(b.backgroundSweepNow()).isEqualTo(3); // taken over, and the sweep completes
    assertThat(a.getItem(get("Sessions", item("id", "s7"))).item()).isNull();
    assertThat(a.backgroundSweepNow()).isEqualTo(-1);
  }

  @Test
  void anEngineStartedBeforeAnyTableHadTimeToLiveStartsItsSweeperOnceOneHas() {
    // Rounds every hour: none is due during the test, only whether they run at all is asked.
    EngineOptions sweeping = options.withTimeToLiveSweepInterval(Duration.ofHours(1));
    MemoryStorage shared = new MemoryStorage();
    Engine first = new Engine(shared, sweeping);
    Engine second = new Engine(shared, sweeping);
    try {
      assertThat(second.sweeperRunning()).isFalse();
      first.createTable(create("Sessions", "id", "S", null, null));
      first.updateTimeToLive(new UpdateTimeToLiveRequest(
          "Sessions", new TimeToLiveSpecification(true, "expiresAt")));
      assertThat(first.sweeperRunning()).isTrue();
      assertThat(second.sweeperRunning()).isFalse(); // told nothing by the other engine
      // Its own chores run at each housekeeping tick, whoever holds the housekeeping lease, so
      // it can take the sweep over when the first engine stops.
      second.housekeepNow();
      assertThat(second.sweeperRunning()).isTrue();
    } finally {
      first.close();
      second.close();
    }
  }

  @Test
  void anEngineThatClosesGivesItsLeasesUpAtOnce() {
    a.createTable(create("Sessions", "id", "S", null, null));
    a.updateTimeToLive(new UpdateTimeToLiveRequest(
        "Sessions", new TimeToLiveSpecification(true, "expiresAt")));
    assertThat(a.backgroundSweepNow()).isZero();
    assertThat(a.housekeepNow()).isTrue();
    assertThat(b.backgroundSweepNow()).isEqualTo(-1);
    assertThat(b.housekeepNow()).isFalse();
    a.close();
    assertThat(b.backgroundSweepNow()).isZero(); // no wait for the term
    assertThat(b.housekeepNow()).isTrue();
  }

  @Test
  void theBackfillHolderReadsTheCatalogOnlyWhenToldOfANewIndex() throws Exception {
    a.createTable(create("Orders", "id", "S", null, null));
    for (int i = 0; i < 20; i++) {
      put(a, "Orders", item("id", "o" + i, "status", "new"));
    }
    assertThat(a.resumeBackfillsNow()).isTrue(); // A holds the lease, and has looked
    // were A's next check to read the catalog, the read would fail
    aStorage.onlyReads(space -> space.equals(Catalog.SPACE)).failReads(Integer.MAX_VALUE);
    assertThat(a.checkBackfills()).isTrue();
    assertThat(aStorage.injected()).isZero();
    aStorage.failReads(0);

    // B, which does not hold the lease, adds an index: it tells A, whose next check starts it
    b.updateTable(new UpdateTableRequest("Orders", List.of(def("status", "S")), null, null,
        List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction("ByStatus",
            List.of(hash("status")), new Projection("ALL", null), null), null, null)),
        null, null, null));
    assertThat(a.checkBackfills()).isTrue();
    assertThat(a.awaitIndexes(Duration.ofSeconds(30))).isTrue();
    TableDescription orders = a.describeTable(new DescribeTableRequest("Orders")).table();
    assertThat(orders.globalSecondaryIndexes().get(0).indexStatus()).isEqualTo("ACTIVE");
    assertThat(a.scan(indexScan("Orders", "ByStatus", null, null)).items()).hasSize(20);
  }

  @Test
  void aBackfillWhoseHolderStopsIsTakenOverAndCompletes() throws Exception {
    a.createTable(create("Orders", "id", "S", null, null));
    for (int i = 0; i < 20; i++) {
      put(a, "Orders", item("id", "o" + i, "status", "new"));
    }
    // A, the first engine, holds the backfill lease. Its backfill of the new index is held in
    // its first commit, and then A renews the lease no more: a server that hangs or dies.
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch released = new CountDownLatch(1);
    aStorage.onlyCommits(space -> space.startsWith("index.")).holdCommits(entered, released);
    try {
      a.updateTable(new UpdateTableRequest("Orders", List.of(def("status", "S")), null, null,
          List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction("ByStatus",
              List.of(hash("status")), new Projection("ALL", null), null), null, null)),
          null, null, null));
      assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
      aStorage.onlyCommits(space -> space.startsWith("index.") || space.equals(Leases.SPACE));

      assertThat(b.resumeBackfillsNow()).isFalse(); // A's lease has not expired
      clock.advance(Duration.ofSeconds(10));
      assertThat(b.resumeBackfillsNow()).isTrue();
      assertThat(b.awaitIndexes(Duration.ofSeconds(30))).isTrue();
      TableDescription orders = b.describeTable(new DescribeTableRequest("Orders")).table();
      assertThat(orders.globalSecondaryIndexes().get(0).indexStatus()).isEqualTo("ACTIVE");
      assertThat(b.scan(indexScan("Orders", "ByStatus", null, null)).items()).hasSize(20);
    } finally {
      released.countDown();
    }
  }
}
