package io.stator.api;

import java.time.Instant;
import java.util.List;

/** Everything DescribeStream tells about a stream. Null members are absent. */
public record StreamDescription(
    String streamArn, String streamLabel, String streamStatus, String streamViewType,
    Instant creationRequestDateTime, String tableName, List<KeySchemaElement> keySchema,
    List<Shard> shards, String lastEvaluatedShardId) {}
