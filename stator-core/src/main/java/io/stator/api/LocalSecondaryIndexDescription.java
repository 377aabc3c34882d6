package io.stator.api;

import java.util.List;

/** A local secondary index as DescribeTable reports it. Null members are absent, as on the wire. */
public record LocalSecondaryIndexDescription(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection,
    Long indexSizeBytes,
    Long itemCount,
    String indexArn) {}
