package io.stator.api;

/** A backup, the table it was taken of, and that table's features at the time. */
public record BackupDescription(
    BackupDetails backupDetails,
    SourceTableDetails sourceTableDetails,
    SourceTableFeatureDetails sourceTableFeatureDetails) {}
