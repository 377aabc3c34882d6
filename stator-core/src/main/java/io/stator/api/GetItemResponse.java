package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** GetItem result; item is null when there is no such item. */
public record GetItemResponse(
    Map<String, AttributeValue> item,
    ConsumedCapacity consumedCapacity) {}
