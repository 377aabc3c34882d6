package io.stator.api;

import java.util.List;
import java.util.Map;

/** TransactWriteItems' answer. Null members are absent, as on the wire. */
public record TransactWriteItemsResponse(
    List<ConsumedCapacity> consumedCapacity,
    Map<String, List<ItemCollectionMetrics>> itemCollectionMetrics) {}
