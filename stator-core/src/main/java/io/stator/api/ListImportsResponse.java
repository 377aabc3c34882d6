package io.stator.api;

import java.util.List;

public record ListImportsResponse(List<ImportSummary> importSummaryList, String nextToken) {}
