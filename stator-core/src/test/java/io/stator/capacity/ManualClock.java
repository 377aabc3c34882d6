package io.stator.capacity;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that moves only when told to: give it to {@code EngineOptions} to run the capacity
 * model (burst, refill, heat) deterministically in tests and simulations, with no sleeping.
 */
public final class ManualClock extends Clock {
  private volatile long millis;

  public ManualClock(Instant start) {
    this.millis = start.toEpochMilli();
  }

  public synchronized void advance(Duration d) {
    millis += d.toMillis();
  }

  public void advanceSeconds(long seconds) {
    advance(Duration.ofSeconds(seconds));
  }

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
