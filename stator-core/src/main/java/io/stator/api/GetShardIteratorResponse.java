package io.stator.api;

/** GetShardIterator's answer: an opaque iterator, valid 15 minutes. */
public record GetShardIteratorResponse(
    String shardIterator) {}
