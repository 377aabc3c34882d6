package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;

/** One statement of an ExecuteTransaction. Null members are absent, as on the wire. */
public record ParameterizedStatement(
    String statement,
    List<AttributeValue> parameters,
    String returnValuesOnConditionCheckFailure) {}
