package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * BatchGetItem's answer: the items found, by table, and the keys not read this time (always
 * present, empty when every key was read, as DynamoDB answers).
 */
public record BatchGetItemResponse(
    Map<String, List<Map<String, AttributeValue>>> responses,
    Map<String, KeysAndAttributes> unprocessedKeys,
    List<ConsumedCapacity> consumedCapacity) {}
