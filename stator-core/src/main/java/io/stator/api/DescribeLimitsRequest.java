package io.stator.api;

/** DescribeLimits, which has no parameters. */
public record DescribeLimitsRequest() {}
