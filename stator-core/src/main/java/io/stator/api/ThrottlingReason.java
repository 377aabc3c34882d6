package io.stator.api;

/**
 * Why a request was throttled: {@code reason} is ResourceType + OperationType + LimitType (e.g.
 * {@code TableWriteKeyRangeThroughputExceeded}), {@code resource} the ARN of the table or index.
 */
public record ThrottlingReason(String reason, String resource) {}
