package io.stator.api;

/** Capacity units consumed on one table or index. Null members are absent, as on the wire. */
public record Capacity(
    Double readCapacityUnits,
    Double writeCapacityUnits,
    Double capacityUnits) {}
