package io.stator;

import java.time.Clock;
import java.time.Duration;

/**
 * Settings of an engine: the region and account id that appear in ARNs, the clock that
 * timestamps tables and decides which items have expired (tests may pass their own), and how
 * often the Time to Live sweeper looks for expired items.
 *
 * @param timeToLiveSweepInterval the pause between two rounds of the background Time to Live
 *     sweeper; zero turns the background sweeper off (forced sweeps still work)
 */
public record EngineOptions(
    String region, String accountId, Clock clock, Duration timeToLiveSweepInterval) {

  /** One second: expired items disappear about as soon as a developer looks for them. */
  public static final Duration DEFAULT_TTL_SWEEP_INTERVAL = Duration.ofSeconds(1);

  public EngineOptions {
    if (timeToLiveSweepInterval == null) {
      timeToLiveSweepInterval = DEFAULT_TTL_SWEEP_INTERVAL;
    }
    if (timeToLiveSweepInterval.isNegative()) {
      throw new IllegalArgumentException("negative TTL sweep interval " + timeToLiveSweepInterval);
    }
  }

  public EngineOptions(String region, String accountId, Clock clock) {
    this(region, accountId, clock, DEFAULT_TTL_SWEEP_INTERVAL);
  }

  public static EngineOptions defaults() {
    return new EngineOptions("us-east-1", "000000000000", Clock.systemUTC());
  }

  public EngineOptions withRegion(String region) {
    return new EngineOptions(region, accountId, clock, timeToLiveSweepInterval);
  }

  public EngineOptions withClock(Clock clock) {
    return new EngineOptions(region, accountId, clock, timeToLiveSweepInterval);
  }

  public EngineOptions withTimeToLiveSweepInterval(Duration interval) {
    return new EngineOptions(region, accountId, clock, interval);
  }
}
