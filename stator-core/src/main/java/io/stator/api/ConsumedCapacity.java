package io.stator.api;

import java.util.Map;

/** Capacity units consumed by an operation (ReturnConsumedCapacity TOTAL or INDEXES). Null members are absent, as on the wire. */
public record ConsumedCapacity(
    String tableName,
    Double capacityUnits,
    Double readCapacityUnits,
    Double writeCapacityUnits,
    Capacity table,
    Map<String, Capacity> localSecondaryIndexes,
    Map<String, Capacity> globalSecondaryIndexes) {}
