package io.stator.api;

/** One write of a BatchWriteItem: exactly one of a put and a delete. */
public record WriteRequest(PutRequest putRequest, DeleteRequest deleteRequest) {}
