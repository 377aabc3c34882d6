package io.stator.storage;

/** Size figures of a space. */
public record SpaceStats(long records, long bytes) {}
