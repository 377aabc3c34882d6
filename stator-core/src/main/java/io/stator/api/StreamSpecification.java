package io.stator.api;

/** Whether a table has a stream, and what its records hold. Null members are absent, as on the wire. */
public record StreamSpecification(
    Boolean streamEnabled,
    String streamViewType) {}
