package io.stator.api;

/** UpdateTable: change the throughput of a global secondary index. Null members are absent, as on the wire. */
public record UpdateGlobalSecondaryIndexAction(
    String indexName,
    ProvisionedThroughput provisionedThroughput,
    OnDemandThroughput onDemandThroughput) {}
