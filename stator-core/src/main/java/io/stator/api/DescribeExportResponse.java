package io.stator.api;

public record DescribeExportResponse(ExportDescription exportDescription) {}
