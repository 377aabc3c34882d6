package io.stator.api;

/** DescribeTable result. */
public record DescribeTableResponse(
    TableDescription table) {}
