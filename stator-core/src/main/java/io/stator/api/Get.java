package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** The item a TransactGetItem reads, and which of its attributes. */
public record Get(
    Map<String, AttributeValue> key,
    String tableName,
    String projectionExpression,
    Map<String, String> expressionAttributeNames) {}
