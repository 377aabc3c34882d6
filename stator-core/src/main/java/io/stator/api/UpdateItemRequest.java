package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** UpdateItem. Null members are absent, as on the wire. */
public record UpdateItemRequest(
    String tableName,
    Map<String, AttributeValue> key,
    String updateExpression,
    String conditionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnValues,
    String returnConsumedCapacity,
    String returnItemCollectionMetrics,
    String returnValuesOnConditionCheckFailure,
    Map<String, AttributeValueUpdate> attributeUpdates,
    Map<String, ExpectedAttributeValue> expected,
    String conditionalOperator) implements TableRequest {}
