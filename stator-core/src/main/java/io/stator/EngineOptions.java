package io.stator;

import java.time.Clock;
import java.time.Duration;

/**
 * Settings of an engine: the region and account id that appear in ARNs, the clock that
 * timestamps tables (tests may pass a fixed one), and the lag with which global secondary
 * indexes follow their tables (zero: as fast as possible; more lets applications test against
 * DynamoDB's eventual consistency on purpose).
 */
public record EngineOptions(String region, String accountId, Clock clock, Duration gsiLag) {
  public EngineOptions(String region, String accountId, Clock clock) {
    this(region, accountId, clock, Duration.ZERO);
  }

  public static EngineOptions defaults() {
    return new EngineOptions("us-east-1", "000000000000", Clock.systemUTC(), Duration.ZERO);
  }

  public EngineOptions withRegion(String region) {
    return new EngineOptions(region, accountId, clock, gsiLag);
  }

  public EngineOptions withGsiLag(Duration lag) {
    return new EngineOptions(region, accountId, clock, lag);
  }
}
