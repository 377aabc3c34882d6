package io.stator.api;

/** The name and scalar type (S, N or B) of a key attribute. Null members are absent, as on the wire. */
public record AttributeDefinition(
    String attributeName,
    String attributeType) {

  /** A definition of the scalar type {@code attributeType}. */
  public AttributeDefinition(String attributeName, ScalarAttributeType attributeType) {
    this(attributeName, attributeType.name());
  }
}
