package io.stator;

import java.time.Clock;

/**
 * Settings of an engine: the region and account id that appear in ARNs, and the clock that
 * timestamps tables (tests may pass a fixed one).
 */
public record EngineOptions(String region, String accountId, Clock clock) {
  public static EngineOptions defaults() {
    return new EngineOptions("us-east-1", "000000000000", Clock.systemUTC());
  }

  public EngineOptions withRegion(String region) {
    return new EngineOptions(region, accountId, clock);
  }
}
