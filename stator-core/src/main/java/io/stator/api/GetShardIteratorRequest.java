package io.stator.api;

/** GetShardIterator. Null members are absent, as on the wire. */
public record GetShardIteratorRequest(
    String streamArn, String shardId, String shardIteratorType, String sequenceNumber) {}
