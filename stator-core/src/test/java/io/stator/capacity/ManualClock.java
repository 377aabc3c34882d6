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
  private final long tick;

  public ManualClock(Instant start) {
    this(start, 0);
  }

  private ManualClock(Instant start, long tick) {
    this.millis = start.toEpochMilli();
    this.tick = tick;
  }

  /** A clock a millisecond later at each reading: the clock turning at any point of a call. */
  public static ManualClock ticking(Instant start) {
    return new ManualClock(start, 1);
  }

  public synchronized void advance(Duration d) {
    millis += d.toMillis();
  }

  public void advanceSeconds(long seconds) {
    advance(Duration.ofSeconds(seconds));
  }

  @Override
  public long millis() {
    if (tick != 0) {
      advance(Duration.ofMillis(tick));
    }
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
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
