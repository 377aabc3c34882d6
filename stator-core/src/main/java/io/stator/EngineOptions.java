package io.stator;

import io.stator.capacity.CapacityMode;
import io.stator.capacity.CapacitySettings;
import java.time.Clock;

/**
 * Settings of an engine: the region and account id that appear in ARNs, the clock that
 * timestamps tables and drives the capacity model (tests may pass a fixed or hand-moved one),
 * and the capacity model's settings (observe or enforce, and its figures).
 */
public record EngineOptions(String region, String accountId, Clock clock,
    CapacitySettings capacity) {

  public EngineOptions(String region, String accountId, Clock clock) {
    this(region, accountId, clock, CapacitySettings.defaults());
  }

  public static EngineOptions defaults() {
    return new EngineOptions("us-east-1", "000000000000", Clock.systemUTC());
  }

  public EngineOptions withRegion(String region) {
    return new EngineOptions(region, accountId, clock, capacity);
  }

  public EngineOptions withClock(Clock newClock) {
    return new EngineOptions(region, accountId, newClock, capacity);
  }

  public EngineOptions withCapacity(CapacitySettings settings) {
    return new EngineOptions(region, accountId, clock, settings);
  }

  public EngineOptions withCapacityMode(CapacityMode mode) {
    return withCapacity(capacity.withMode(mode));
  }
}
