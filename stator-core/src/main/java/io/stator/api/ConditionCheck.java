package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** A TransactWriteItems action that only checks a condition on an item. */
public record ConditionCheck(
    Map<String, AttributeValue> key,
    String tableName,
    String conditionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnValuesOnConditionCheckFailure) {}
