package io.stator.api;

import java.util.List;

/**
 * BatchExecuteStatement's answer: one response per statement, and (when asked) the capacity of
 * each statement, both in the order of the statements.
 */
public record BatchExecuteStatementResponse(
    List<BatchStatementResponse> responses, List<ConsumedCapacity> consumedCapacity) {}
