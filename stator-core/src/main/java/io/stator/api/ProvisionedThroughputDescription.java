package io.stator.api;

import java.time.Instant;

/** The provisioned throughput of a table or index, with its change history. Null members are absent, as on the wire. */
public record ProvisionedThroughputDescription(
    Instant lastIncreaseDateTime,
    Instant lastDecreaseDateTime,
    Long numberOfDecreasesToday,
    Long readCapacityUnits,
    Long writeCapacityUnits) {}
