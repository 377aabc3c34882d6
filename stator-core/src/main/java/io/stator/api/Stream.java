package io.stator.api;

/** A stream as ListStreams lists it. */
public record Stream(
    String streamArn, String tableName, String streamLabel) {}
