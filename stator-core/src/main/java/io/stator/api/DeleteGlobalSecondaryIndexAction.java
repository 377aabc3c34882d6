package io.stator.api;

/** UpdateTable: remove a global secondary index. Null members are absent, as on the wire. */
public record DeleteGlobalSecondaryIndexAction(
    String indexName) {}
