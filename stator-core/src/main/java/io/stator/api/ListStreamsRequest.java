package io.stator.api;

/** ListStreams. Null members are absent, as on the wire. */
public record ListStreamsRequest(
    String tableName, Integer limit, String exclusiveStartStreamArn) {}
