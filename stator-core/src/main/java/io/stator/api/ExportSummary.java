package io.stator.api;

/** One export in ListExports. */
public record ExportSummary(String exportArn, String exportStatus, String exportType) {}
