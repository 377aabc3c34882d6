package io.stator.api;

import java.util.List;

/** TransactWriteItems: up to 100 actions applied all together or not at all. */
public record TransactWriteItemsRequest(
    List<TransactWriteItem> transactItems,
    String returnConsumedCapacity,
    String returnItemCollectionMetrics,
    String clientRequestToken) {}
