package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** One item of a TransactGetItems answer; {@code item} is null when the item does not exist. */
public record ItemResponse(Map<String, AttributeValue> item) {}
