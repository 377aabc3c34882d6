package io.stator.api;

/** DescribeEndpoints, which has no parameters. */
public record DescribeEndpointsRequest() {}
