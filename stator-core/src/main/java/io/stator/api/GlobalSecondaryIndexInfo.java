package io.stator.api;

import java.util.List;

/** A global secondary index of a backed-up table. Null members are absent, as on the wire. */
public record GlobalSecondaryIndexInfo(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection,
    ProvisionedThroughput provisionedThroughput,
    OnDemandThroughput onDemandThroughput) {}
