package io.stator.api.streams;

/** DescribeStream's answer. */
public record DescribeStreamResponse(
    StreamDescription streamDescription) {}
