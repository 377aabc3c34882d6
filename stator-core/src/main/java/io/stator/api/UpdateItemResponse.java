package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** UpdateItem result. */
public record UpdateItemResponse(
    Map<String, AttributeValue> attributes,
    ConsumedCapacity consumedCapacity,
    ItemCollectionMetrics itemCollectionMetrics) {}
