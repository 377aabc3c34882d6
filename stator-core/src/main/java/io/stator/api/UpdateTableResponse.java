package io.stator.api;

/** UpdateTable result. */
public record UpdateTableResponse(
    TableDescription tableDescription) {}
