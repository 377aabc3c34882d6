package io.stator.api;

/** DescribeTimeToLive. Null members are absent, as on the wire. */
public record DescribeTimeToLiveRequest(
    String tableName) implements TableRequest {}
