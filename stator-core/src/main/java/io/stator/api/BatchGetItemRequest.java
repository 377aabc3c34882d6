package io.stator.api;

import java.util.Map;

/** BatchGetItem: up to 100 keys across tables. Null members are absent, as on the wire. */
public record BatchGetItemRequest(
    Map<String, KeysAndAttributes> requestItems, String returnConsumedCapacity) {}
