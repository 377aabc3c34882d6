package io.stator.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.capacity.ManualClock;
import io.stator.storage.memory.MemoryStorage;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Two engines' leases on one storage: one holds a job at a time, and a silent holder expires. */
class LeasesTest {
  private static final Duration TERM = Duration.ofSeconds(10);
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private final MemoryStorage storage = new MemoryStorage();
  private final Leases a = new Leases(storage, clock);
  private final Leases b = new Leases(storage, clock);

  @Test
  void oneHolderAtATimeWhileItRenews() {
    assertThat(a.hold("job", TERM)).isTrue();
    assertThat(b.hold("job", TERM)).isFalse();
    clock.advance(TERM.minusSeconds(1));
    assertThat(a.hold("job", TERM)).isTrue(); // renewed for another term from now
    clock.advance(TERM.minusSeconds(1));
    assertThat(b.hold("job", TERM)).isFalse();
    assertThat(a.read("job").orElseThrow().holder()).isEqualTo(a.holder());
    assertThat(b.hold("other job", TERM)).isTrue(); // each job has a lease of its own
    assertThat(a.hold("other job", TERM)).isFalse();
  }

  @Test
  void aHolderThatStopsRenewingIsTakenOverAtTheEndOfItsTerm() {
    assertThat(a.hold("job", TERM)).isTrue();
    clock.advance(TERM.minusMillis(1));
    assertThat(b.hold("job", TERM)).isFalse();
    clock.advance(Duration.ofMillis(1));
    assertThat(b.hold("job", TERM)).isTrue();
    assertThat(a.hold("job", TERM)).isFalse(); // the old holder, back, finds it taken
    assertThat(a.read("job").orElseThrow().holder()).isEqualTo(b.holder());
  }

  @Test
  void aReleasedLeaseIsTakenAtOnceAndAReleaseByANonHolderChangesNothing() {
    assertThat(a.hold("job", TERM)).isTrue();
    b.release("job");
    assertThat(b.hold("job", TERM)).isFalse();
    a.release("job");
    assertThat(a.read("job")).isEmpty();
    assertThat(b.hold("job", TERM)).isTrue();
  }

  @Test
  void aRenewalExpectsTheLeaseAsWrittenSoALeaseTakenOverIsNotTakenBack() {
    Leases.Lease held = a.take("job", TERM).orElseThrow();
    clock.advance(TERM.minusSeconds(1));
    Leases.Lease renewed = a.renew("job", TERM, held).orElseThrow();
    assertThat(renewed.expiresAtMillis()).isGreaterThan(held.expiresAtMillis());
    assertThat(a.renew("job", TERM, held)).isEmpty(); // not the lease as last written
    assertThat(a.lasts(renewed, TERM.minusMillis(1))).isTrue();
    assertThat(a.lasts(renewed, TERM)).isFalse();

    clock.advance(TERM); // a pauses past its term; b takes the job over, ends it, gives it up
    assertThat(b.hold("job", TERM)).isTrue();
    assertThat(a.renew("job", TERM, renewed)).isEmpty();
    b.release("job");
    assertThat(a.renew("job", TERM, renewed)).isEmpty(); // absent: not a's any more either
    assertThat(a.read("job")).isEmpty();
    assertThat(a.hold("job", TERM)).isTrue(); // while taking it anew is what hold does
  }
}
