package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/**
 * Why one statement of a batch failed: DynamoDB's BatchStatementErrorCodeEnum ({@code
 * ConditionalCheckFailed}, {@code DuplicateItem}, {@code ValidationError}, ...), the message,
 * and the item where ReturnValuesOnConditionCheckFailure asked for it.
 */
public record BatchStatementError(String code, String message, Map<String, AttributeValue> item) {}
