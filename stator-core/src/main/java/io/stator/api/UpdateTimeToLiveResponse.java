package io.stator.api;

/** UpdateTimeToLive result: the specification as applied. */
public record UpdateTimeToLiveResponse(
    TimeToLiveSpecification timeToLiveSpecification) {}
