package io.stator.api;

import java.time.Instant;

/** The changes an incremental export holds: those from one time to another. */
public record IncrementalExportSpecification(
    Instant exportFromTime, Instant exportToTime, String exportViewType) {}
