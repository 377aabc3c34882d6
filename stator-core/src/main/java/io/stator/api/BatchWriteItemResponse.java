package io.stator.api;

import java.util.List;
import java.util.Map;

/**
 * BatchWriteItem's answer: the writes not applied (always present, empty when all were, as
 * DynamoDB answers).
 */
public record BatchWriteItemResponse(
    Map<String, List<WriteRequest>> unprocessedItems,
    Map<String, List<ItemCollectionMetrics>> itemCollectionMetrics,
    List<ConsumedCapacity> consumedCapacity) {}
