package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/** Scan. Null members are absent, as on the wire. */
public record ScanRequest(
    String tableName,
    String indexName,
    String select,
    Integer limit,
    Boolean consistentRead,
    Map<String, AttributeValue> exclusiveStartKey,
    Integer segment,
    Integer totalSegments,
    String filterExpression,
    String projectionExpression,
    Map<String, String> expressionAttributeNames,
    Map<String, AttributeValue> expressionAttributeValues,
    String returnConsumedCapacity,
    List<String> attributesToGet,
    Map<String, Condition> scanFilter,
    String conditionalOperator) {}
