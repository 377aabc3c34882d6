package io.stator.api;

/** Server-side encryption settings. Null members are absent, as on the wire. */
public record SSESpecification(
    Boolean enabled,
    String sseType,
    String kmsMasterKeyId) {}
