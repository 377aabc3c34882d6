package io.stator.api;

import java.time.Instant;

/**
 * ListBackups: the backups of one table ({@code tableName}, which may be its ARN) or of all,
 * created in {@code [timeRangeLowerBound, timeRangeUpperBound)}, of a {@code backupType} (USER
 * when absent, or SYSTEM, AWS_BACKUP, ALL), a page of at most {@code limit} after {@code
 * exclusiveStartBackupArn}.
 */
public record ListBackupsRequest(
    String tableName,
    Integer limit,
    Instant timeRangeLowerBound,
    Instant timeRangeUpperBound,
    String exclusiveStartBackupArn,
    String backupType) {}
