package io.stator.api;

/** DescribeBackup. */
public record DescribeBackupRequest(
    String backupArn) {}
