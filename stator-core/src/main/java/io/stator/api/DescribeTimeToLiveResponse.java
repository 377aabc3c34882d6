package io.stator.api;

/** DescribeTimeToLive result. */
public record DescribeTimeToLiveResponse(
    TimeToLiveDescription timeToLiveDescription) {}
