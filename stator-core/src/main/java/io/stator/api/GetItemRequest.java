package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/** GetItem. Null members are absent, as on the wire. */
public record GetItemRequest(
    String tableName,
    Map<String, AttributeValue> key,
    Boolean consistentRead,
    String projectionExpression,
    Map<String, String> expressionAttributeNames,
    List<String> attributesToGet,
    String returnConsumedCapacity) implements TableRequest {}
