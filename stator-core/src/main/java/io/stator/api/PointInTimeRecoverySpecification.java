package io.stator.api;

/** Enables or disables point-in-time recovery. Null members are absent, as on the wire. */
public record PointInTimeRecoverySpecification(
    Boolean pointInTimeRecoveryEnabled,
    Integer recoveryPeriodInDays) {}
