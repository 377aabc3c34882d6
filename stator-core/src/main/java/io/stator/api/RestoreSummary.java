package io.stator.api;

import java.time.Instant;

/** How a table was restored: from which backup of which table, when, and whether it goes on. */
public record RestoreSummary(
    String sourceBackupArn,
    String sourceTableArn,
    Instant restoreDateTime,
    Boolean restoreInProgress) {}
