package io.stator.api;

import java.time.Instant;

/** The point-in-time recovery setting of a table. Null members are absent, as on the wire. */
public record PointInTimeRecoveryDescription(
    String pointInTimeRecoveryStatus,
    Integer recoveryPeriodInDays,
    Instant earliestRestorableDateTime,
    Instant latestRestorableDateTime) {}
