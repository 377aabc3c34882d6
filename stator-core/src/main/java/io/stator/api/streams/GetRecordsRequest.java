package io.stator.api.streams;

/** GetRecords. Null members are absent, as on the wire. */
public record GetRecordsRequest(
    String shardIterator, Integer limit) {}
