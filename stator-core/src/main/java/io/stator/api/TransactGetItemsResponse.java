package io.stator.api;

import java.util.List;

/**
 * TransactGetItems' answer: one response per Get, in request order (an empty ItemResponse for
 * an item that does not exist).
 */
public record TransactGetItemsResponse(
    List<ConsumedCapacity> consumedCapacity, List<ItemResponse> responses) {}
