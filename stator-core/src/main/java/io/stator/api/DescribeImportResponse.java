package io.stator.api;

public record DescribeImportResponse(ImportTableDescription importTableDescription) {}
