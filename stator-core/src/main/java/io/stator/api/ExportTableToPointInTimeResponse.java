package io.stator.api;

public record ExportTableToPointInTimeResponse(ExportDescription exportDescription) {}
