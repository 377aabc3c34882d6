package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** A delete in a BatchWriteItem. */
public record DeleteRequest(Map<String, AttributeValue> key) {}
