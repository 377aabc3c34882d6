package io.stator.value;

/**
 * A value that breaks DynamoDB's rules for attribute values: a number it cannot store, an empty
 * set, a set with duplicates. The message is DynamoDB's; whoever read the value from a client
 * (the wire, PartiQL, an import file) reports it as a ValidationException.
 */
public final class InvalidValueException extends RuntimeException {
  public InvalidValueException(String message) {
    super(message, null, false, false);
  }
}
