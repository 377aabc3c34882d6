package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** PutItem. Null members are absent, as on the wire. */
public record PutItemRequest(
    String tableName,
    Map<String, AttributeValue> item,
    String conditionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnValues,
    String returnConsumedCapacity,
    String returnItemCollectionMetrics,
    String returnValuesOnConditionCheckFailure,
    Map<String, ExpectedAttributeValue> expected,
    String conditionalOperator) implements TableRequest {}
