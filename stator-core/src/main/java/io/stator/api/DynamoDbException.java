package io.stator.api;

import io.stator.value.AttributeValue;
import java.util.Map;

/**
 * A DynamoDB error: its {@link ErrorType} and the message a user can act on. Every client error
 * the engine raises is one of these; anything else reaching the wire is an internal fault.
 */
public class DynamoDbException extends RuntimeException {
  private final ErrorType type;
  private final Map<String, AttributeValue> item;

  public DynamoDbException(ErrorType type, String message) {
    this(type, message, null);
  }

  /** An error that carries an item, as ConditionalCheckFailedException does with ALL_OLD. */
  public DynamoDbException(ErrorType type, String message, Map<String, AttributeValue> item) {
    super(message, null, false, false);
    this.type = type;
    this.item = item;
  }

  public ErrorType type() {
    return type;
  }

  /** The item attached to the error (ReturnValuesOnConditionCheckFailure=ALL_OLD), or null. */
  public Map<String, AttributeValue> item() {
    return item;
  }

  public static DynamoDbException validation(String message) {
    return new DynamoDbException(ErrorType.ValidationException, message);
  }

  public static DynamoDbException serialization(String message) {
    return new DynamoDbException(ErrorType.SerializationException, message);
  }

  public static DynamoDbException resourceNotFound(String message) {
    return new DynamoDbException(ErrorType.ResourceNotFoundException, message);
  }

  public static DynamoDbException resourceInUse(String message) {
    return new DynamoDbException(ErrorType.ResourceInUseException, message);
  }

  public static DynamoDbException conditionalCheckFailed(Map<String, AttributeValue> item) {
    return new DynamoDbException(
        ErrorType.ConditionalCheckFailedException, "The conditional request failed", item);
  }
}
