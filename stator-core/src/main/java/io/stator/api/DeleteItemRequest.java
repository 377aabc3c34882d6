package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** DeleteItem. Null members are absent, as on the wire. */
public record DeleteItemRequest(
    String tableName,
    Map<String, AttributeValue> key,
    String conditionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnValues,
    String returnConsumedCapacity,
    String returnItemCollectionMetrics,
    String returnValuesOnConditionCheckFailure,
    Map<String, ExpectedAttributeValue> expected,
    String conditionalOperator) implements TableRequest {}
