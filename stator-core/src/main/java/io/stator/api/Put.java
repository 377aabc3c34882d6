package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** A TransactWriteItems action that puts an item. */
public record Put(
    Map<String, AttributeValue> item,
    String tableName,
    String conditionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnValuesOnConditionCheckFailure) {}
