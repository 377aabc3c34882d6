package io.stator.api;

/** The sequence numbers of a shard; {@code endingSequenceNumber} null while it is open. */
public record SequenceNumberRange(
    String startingSequenceNumber, String endingSequenceNumber) {}
