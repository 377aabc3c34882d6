package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;

/** Legacy condition (KeyConditions, QueryFilter, ScanFilter). Null members are absent, as on the wire. */
public record Condition(
    List<AttributeValue> attributeValueList,
    String comparisonOperator) {}
