package io.stator.api;

/** DescribeBackup's answer. */
public record DescribeBackupResponse(
    BackupDescription backupDescription) {}
