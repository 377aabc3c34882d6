package io.stator.api;

/** One read of a TransactGetItems. */
public record TransactGetItem(Get get) {}
