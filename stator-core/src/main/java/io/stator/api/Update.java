package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** A TransactWriteItems action that updates an item with an UpdateExpression. */
public record Update(
    Map<String, AttributeValue> key,
    String updateExpression,
    String tableName,
    String conditionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnValuesOnConditionCheckFailure) {}
