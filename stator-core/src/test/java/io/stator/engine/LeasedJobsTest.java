package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.get;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.EngineOptions;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.capacity.ManualClock;
import io.stator.storage.memory.MemoryStorage;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one storage, as two servers of a shared store: the background jobs held by a
 * lease run on one of them at a time, and the other takes a job over when the holder stops.
 */
class LeasedJobsTest {
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(START);
  private final MemoryStorage storage = new MemoryStorage();
  // No background rounds: the test runs each round itself.
  private final EngineOptions options =
      EngineOptions.defaults().withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO);
  private final Engine a = new Engine(storage, options);
  private final Engine b = new Engine(storage, options);

  @AfterEach
  void close() {
    a.close();
    b.close();
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
}
