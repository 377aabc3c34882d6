package io.stator.api;

import java.util.List;

/** ExecuteTransaction. Null members are absent, as on the wire. */
public record ExecuteTransactionRequest(
    List<ParameterizedStatement> transactStatements,
    String clientRequestToken,
    String returnConsumedCapacity) {}
