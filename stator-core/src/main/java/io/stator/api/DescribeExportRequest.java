package io.stator.api;

public record DescribeExportRequest(String exportArn) {}
