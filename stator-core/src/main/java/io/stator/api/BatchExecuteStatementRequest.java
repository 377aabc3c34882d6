package io.stator.api;

import java.util.List;

/** BatchExecuteStatement. Null members are absent, as on the wire. */
public record BatchExecuteStatementRequest(
    List<BatchStatementRequest> statements, String returnConsumedCapacity) {}
