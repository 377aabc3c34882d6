package io.stator.api;

/** A tag on a resource. Null members are absent, as on the wire. */
public record Tag(
    String key,
    String value) {}
