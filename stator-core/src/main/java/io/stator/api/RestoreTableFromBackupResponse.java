package io.stator.api;

/** RestoreTableFromBackup's answer: the new table, CREATING while its items are restored. */
public record RestoreTableFromBackupResponse(
    TableDescription tableDescription) {}
