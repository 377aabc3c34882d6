package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.capacity.ManualClock;
import io.stator.storage.FaultyStorage;
import io.stator.storage.memory.MemoryStorage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Two engines on one memory storage, as two servers of a shared store, for the tests of the jobs
 * each holds by a lease: A's storage can hold its jobs mid-way (latches opened by {@link
 * #release}), and each engine's storage can fail what a test aims at; both read one manual
 * clock, so a lease's term passes when a test says. A has made the table Orders, point-in-time
 * recovery on, with {@link #ITEMS} items; B is started by the test.
 */
final class TwoEngines implements AutoCloseable {
  static final int ITEMS = 30;
  final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  final MemoryStorage storage = new MemoryStorage();
  final FaultyStorage aStorage = new FaultyStorage(storage);
  final FaultyStorage bStorage = new FaultyStorage(storage);
  final CountDownLatch release = new CountDownLatch(1);
  final EngineOptions options;
  final Engine a;
  private Engine b;

  /** @param exportDirectory where exports and imports go; null for none */
  TwoEngines(Path exportDirectory) {
    // No background sweep rounds: they are no part of what is tested.
    EngineOptions o =
        EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO);
    options = exportDirectory == null ? o : o.withExportDirectory(exportDirectory);
    a = new Engine(aStorage, options);
    a.createTable(create("Orders", "id", "S", null, null));
    a.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders",
        new PointInTimeRecoverySpecification(true, null)));
    clock.advanceSeconds(1);
    for (int i = 0; i < ITEMS; i++) {
      put(a, "Orders", item("id", "o" + i));
    }
    clock.advanceSeconds(1);
  }

  /** Starts engine B on the storage A shares. */
  Engine startB() {
    b = new Engine(bStorage, options);
    return b;
  }

  /** Opens what A's storage holds, then closes both engines. */
  @Override
  public void close() {
    release.countDown();
    try {
      a.close();
    } finally {
      if (b != null) {
        b.close();
      }
    }
  }

  /** What {@code read} answers once {@code done} accepts it, within a minute. */
  static <T> T await(Supplier<T> read, Predicate<T> done) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      T t = read.get();
      if (done.test(t)) {
        return t;
      }
      assertThat(System.nanoTime()).as("waiting").isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
