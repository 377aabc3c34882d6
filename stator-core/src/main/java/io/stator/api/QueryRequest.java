package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/** Query. Null members are absent, as on the wire. */
public record QueryRequest(
    String tableName,
    String indexName,
    String select,
    Integer limit,
    Boolean consistentRead,
    Boolean scanIndexForward,
    Map<String, AttributeValue> exclusiveStartKey,
    String keyConditionExpression,
    String filterExpression,
    String projectionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnConsumedCapacity,
    List<String> attributesToGet,
    Map<String, Condition> keyConditions,
    Map<String, Condition> queryFilter,
    String conditionalOperator) {}
