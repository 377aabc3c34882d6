package io.stator.api;

/** DeleteBackup. */
public record DeleteBackupRequest(
    String backupArn) {}
