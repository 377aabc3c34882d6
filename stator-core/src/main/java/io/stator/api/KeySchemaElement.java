package io.stator.api;

/** One attribute of a key schema: its name and key type (HASH or RANGE). Null members are absent, as on the wire. */
public record KeySchemaElement(
    String attributeName,
    String keyType) {}
