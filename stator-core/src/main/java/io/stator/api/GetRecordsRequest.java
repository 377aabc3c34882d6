package io.stator.api;

/** GetRecords. Null members are absent, as on the wire. */
public record GetRecordsRequest(
    String shardIterator, Integer limit) {}
