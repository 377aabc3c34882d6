package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/** The keys to read from one table in a BatchGetItem, and how to read them. */
public record KeysAndAttributes(
    List<Map<String, AttributeValue>> keys,
    List<String> attributesToGet,
    Boolean consistentRead,
    String projectionExpression,
    Map<String, String> expressionAttributeNames) {}
