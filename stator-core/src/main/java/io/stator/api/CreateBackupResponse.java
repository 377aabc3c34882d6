package io.stator.api;

/** CreateBackup's answer: the backup made. */
public record CreateBackupResponse(
    BackupDetails backupDetails) {}
