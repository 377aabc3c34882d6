package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** A TransactWriteItems action that deletes an item. */
public record Delete(
    Map<String, AttributeValue> key,
    String tableName,
    String conditionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnValuesOnConditionCheckFailure) {}
