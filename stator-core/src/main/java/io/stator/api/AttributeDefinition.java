package io.stator.api;

/** The name and scalar type (S, N or B) of a key attribute. Null members are absent, as on the wire. */
public record AttributeDefinition(
    String attributeName,
    String attributeType) {}
