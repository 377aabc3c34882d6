package io.stator.storage;

/** A stored value with its key and version. */
public record StoredRecord(StorageKey key, long version, byte[] value) {}
