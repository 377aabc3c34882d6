package io.stator.schema;

/** A key attribute of a table: its name and scalar type (S, N or B). */
public record KeyAttribute(String name, String type) {}
