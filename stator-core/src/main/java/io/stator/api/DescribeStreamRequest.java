package io.stator.api;

/** DescribeStream. Null members are absent, as on the wire. */
public record DescribeStreamRequest(
    String streamArn, Integer limit, String exclusiveStartShardId, ShardFilter shardFilter) {}
