package io.stator.api;

/** UpdateTimeToLive. Null members are absent, as on the wire. */
public record UpdateTimeToLiveRequest(
    String tableName,
    TimeToLiveSpecification timeToLiveSpecification) implements TableRequest {}
