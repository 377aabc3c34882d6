package io.stator.api;

import java.util.List;

/** ExecuteTransaction's answer: for reads, one response per statement, in their order. */
public record ExecuteTransactionResponse(
    List<ItemResponse> responses, List<ConsumedCapacity> consumedCapacity) {}
