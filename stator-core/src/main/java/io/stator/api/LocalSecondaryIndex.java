package io.stator.api;

import java.util.List;

/** A local secondary index, as given to CreateTable. Null members are absent, as on the wire. */
public record LocalSecondaryIndex(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection) {}
