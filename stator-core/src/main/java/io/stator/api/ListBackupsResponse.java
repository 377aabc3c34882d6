package io.stator.api;

import java.util.List;

/** ListBackups' page; {@code lastEvaluatedBackupArn} is present when more may follow. */
public record ListBackupsResponse(
    List<BackupSummary> backupSummaries,
    String lastEvaluatedBackupArn) {}
