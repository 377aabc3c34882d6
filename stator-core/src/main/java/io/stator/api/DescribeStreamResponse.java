package io.stator.api;

/** DescribeStream's answer. */
public record DescribeStreamResponse(
    StreamDescription streamDescription) {}
