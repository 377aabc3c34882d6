package io.stator.api;

import java.time.Instant;

/** One backup in ListBackups. Null members are absent, as on the wire. */
public record BackupSummary(
    String tableName,
    String tableId,
    String tableArn,
    String backupArn,
    String backupName,
    Instant backupCreationDateTime,
    Instant backupExpiryDateTime,
    String backupStatus,
    String backupType,
    Long backupSizeBytes) {}
