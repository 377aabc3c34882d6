package io.stator.api;

import java.util.List;

public record ListExportsResponse(List<ExportSummary> exportSummaries, String nextToken) {}
