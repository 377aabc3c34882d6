package io.stator.api;

/** Continuous backups (always ENABLED) and the point-in-time recovery setting of a table. */
public record ContinuousBackupsDescription(
    String continuousBackupsStatus,
    PointInTimeRecoveryDescription pointInTimeRecoveryDescription) {}
