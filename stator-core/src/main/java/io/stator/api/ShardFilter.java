package io.stator.api;

/** DescribeStream's filter: {@code CHILD_SHARDS} of the shard {@code shardId}. */
public record ShardFilter(
    String type, String shardId) {}
