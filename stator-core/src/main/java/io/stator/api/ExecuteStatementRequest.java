package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;

/** ExecuteStatement: one PartiQL statement. Null members are absent, as on the wire. */
public record ExecuteStatementRequest(
    String statement,
    List<AttributeValue> parameters,
    Boolean consistentRead,
    String nextToken,
    String returnConsumedCapacity,
    Integer limit,
    String returnValuesOnConditionCheckFailure) {}
