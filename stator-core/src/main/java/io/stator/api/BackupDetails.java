package io.stator.api;

import java.time.Instant;

/**
 * A backup as DynamoDB details it: status CREATING, AVAILABLE or DELETED, type USER (on-demand),
 * SYSTEM or AWS_BACKUP. Null members are absent, as on the wire.
 */
public record BackupDetails(
    String backupArn,
    String backupName,
    Long backupSizeBytes,
    String backupStatus,
    String backupType,
    Instant backupCreationDateTime,
    Instant backupExpiryDateTime) {}
