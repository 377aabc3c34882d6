package io.stator.api;

import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.Map;

/** The body of a stream record; images are null when the view type leaves them out. */
public record StreamRecord(
    Instant approximateCreationDateTime, Map<String, AttributeValue> keys,
    Map<String, AttributeValue> newImage, Map<String, AttributeValue> oldImage,
    String sequenceNumber, Long sizeBytes, String streamViewType) {}
