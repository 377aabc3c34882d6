package io.stator.api;

/** Enables or disables Time to Live on a table. Null members are absent, as on the wire. */
public record TimeToLiveSpecification(
    Boolean enabled,
    String attributeName) {}
