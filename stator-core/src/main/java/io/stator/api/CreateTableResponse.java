package io.stator.api;

/** CreateTable result. */
public record CreateTableResponse(
    TableDescription tableDescription) {}
