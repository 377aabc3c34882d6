package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/** The outcome of one statement of a batch: its error, or its table and the item it read. */
public record BatchStatementResponse(
    BatchStatementError error, String tableName, Map<String, AttributeValue> item) {}
