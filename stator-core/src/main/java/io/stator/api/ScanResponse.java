package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/** Scan result. */
public record ScanResponse(
    List<Map<String, AttributeValue>> items,
    int count,
    int scannedCount,
    Map<String, AttributeValue> lastEvaluatedKey,
    ConsumedCapacity consumedCapacity) {}
