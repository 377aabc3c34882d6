package io.stator.api;

public record DescribeImportRequest(String importArn) {}
