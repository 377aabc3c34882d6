package io.stator.api;

/** DeleteTable result. */
public record DeleteTableResponse(
    TableDescription tableDescription) {}
