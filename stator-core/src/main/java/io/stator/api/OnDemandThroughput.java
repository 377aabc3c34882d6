package io.stator.api;

/**
 * The most read and write request units per second an on-demand table or global secondary index
 * may serve. Null members are absent, as on the wire; {@code -1} in UpdateTable removes that
 * ceiling.
 */
public record OnDemandThroughput(Long maxReadRequestUnits, Long maxWriteRequestUnits) {}
