package io.stator.api;

import java.util.List;

/** A local secondary index of a backed-up table. */
public record LocalSecondaryIndexInfo(
    String indexName,
    List<KeySchemaElement> keySchema,
    Projection projection) {}
