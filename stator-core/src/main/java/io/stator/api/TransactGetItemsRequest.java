package io.stator.api;

import java.util.List;

/** TransactGetItems: up to 100 reads from one serializable snapshot. */
public record TransactGetItemsRequest(
    List<TransactGetItem> transactItems, String returnConsumedCapacity) {}
