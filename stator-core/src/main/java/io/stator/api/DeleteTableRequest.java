package io.stator.api;

/** DeleteTable. Null members are absent, as on the wire. */
public record DeleteTableRequest(
    String tableName) implements TableRequest {}
