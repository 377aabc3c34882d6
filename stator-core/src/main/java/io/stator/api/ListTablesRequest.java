package io.stator.api;

/** ListTables. Null members are absent, as on the wire. */
public record ListTablesRequest(
    String exclusiveStartTableName,
    Integer limit) {}
