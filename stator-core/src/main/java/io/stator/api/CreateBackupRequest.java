package io.stator.api;

/** CreateBackup: an on-demand backup of a table; {@code tableName} may be the table's ARN. */
public record CreateBackupRequest(
    String tableName,
    String backupName) {}
