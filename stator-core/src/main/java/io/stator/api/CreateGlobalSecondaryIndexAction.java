package io.stator.api;

import java.util.List;

/** UpdateTable: add a global secondary index. Null members are absent, as on the wire. */
public record CreateGlobalSecondaryIndexAction(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection,
    ProvisionedThroughput provisionedThroughput) {}
