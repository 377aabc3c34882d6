package io.stator.api;

/** DescribeTable. Null members are absent, as on the wire. */
public record DescribeTableRequest(
    String tableName) implements TableRequest {}
