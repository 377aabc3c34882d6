package io.stator.api;

/** Provisioned read and write capacity units. Null members are absent, as on the wire. */
public record ProvisionedThroughput(
    Long readCapacityUnits,
    Long writeCapacityUnits) {}
