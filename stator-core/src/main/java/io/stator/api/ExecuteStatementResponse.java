package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/** ExecuteStatement's answer: the items read or returned, empty for a write without RETURNING. */
public record ExecuteStatementResponse(
    List<Map<String, AttributeValue>> items,
    String nextToken,
    ConsumedCapacity consumedCapacity,
    Map<String, AttributeValue> lastEvaluatedKey) {}
