package io.stator.api;

/** A shard of a stream; {@code parentShardId} null for the first shard. */
public record Shard(
    String shardId, SequenceNumberRange sequenceNumberRange, String parentShardId) {}
