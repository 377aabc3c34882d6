package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;

/** One statement of a BatchExecuteStatement. Null members are absent, as on the wire. */
public record BatchStatementRequest(
    String statement,
    List<AttributeValue> parameters,
    Boolean consistentRead,
    String returnValuesOnConditionCheckFailure) {}
