package io.stator.api;

import io.stator.value.AttributeValue;

/** Legacy update of one attribute (the AttributeUpdates parameter): PUT, ADD or DELETE. Null members are absent, as on the wire. */
public record AttributeValueUpdate(
    AttributeValue value,
    String action) {}
