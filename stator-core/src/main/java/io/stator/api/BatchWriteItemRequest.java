package io.stator.api;

import java.util.List;
import java.util.Map;

/** BatchWriteItem: up to 25 puts and deletes across tables. */
public record BatchWriteItemRequest(
    Map<String, List<WriteRequest>> requestItems,
    String returnConsumedCapacity,
    String returnItemCollectionMetrics) {}
