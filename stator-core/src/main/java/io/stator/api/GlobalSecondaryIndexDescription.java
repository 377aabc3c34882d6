package io.stator.api;

import java.util.List;

/** A global secondary index as DescribeTable reports it. Null members are absent, as on the wire. */
public record GlobalSecondaryIndexDescription(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection,
    String indexStatus,
    Boolean backfilling,
    ProvisionedThroughputDescription provisionedThroughput,
    Long indexSizeBytes,
    Long itemCount,
    String indexArn,
    OnDemandThroughput onDemandThroughput) {}
