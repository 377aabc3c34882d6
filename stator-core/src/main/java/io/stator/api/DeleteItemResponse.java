package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** DeleteItem result. */
public record DeleteItemResponse(
    Map<String, AttributeValue> attributes,
    ConsumedCapacity consumedCapacity,
    ItemCollectionMetrics itemCollectionMetrics) {}
