package io.stator.api;

/** DeleteBackup's answer: the backup deleted, its status DELETED. */
public record DeleteBackupResponse(
    BackupDescription backupDescription) {}
