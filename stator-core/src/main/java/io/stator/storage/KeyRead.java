package io.stator.storage;

/** One key of one space, for {@link Storage#getAll}. */
public record KeyRead(String space, StorageKey key) {}
