package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/** The size of the item collection a write touched (tables with local secondary indexes). Null members are absent, as on the wire. */
public record ItemCollectionMetrics(
    Map<String, AttributeValue> itemCollectionKey,
    List<Double> sizeEstimateRangeGB) {}
