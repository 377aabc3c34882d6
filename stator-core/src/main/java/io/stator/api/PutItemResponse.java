package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** PutItem result. */
public record PutItemResponse(
    Map<String, AttributeValue> attributes,
    ConsumedCapacity consumedCapacity,
    ItemCollectionMetrics itemCollectionMetrics) {}
