package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;

/** Legacy condition on one attribute (the Expected parameter). Null members are absent, as on the wire. */
public record ExpectedAttributeValue(
    AttributeValue value,
    Boolean exists,
    String comparisonOperator,
    List<AttributeValue> attributeValueList) {}
