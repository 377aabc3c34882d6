package io.stator.api;

/** RestoreTableToPointInTime's answer: the new table, CREATING while its items are restored. */
public record RestoreTableToPointInTimeResponse(
    TableDescription tableDescription) {}
