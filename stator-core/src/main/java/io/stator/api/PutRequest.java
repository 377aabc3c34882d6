package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** A put in a BatchWriteItem. */
public record PutRequest(Map<String, AttributeValue> item) {}
