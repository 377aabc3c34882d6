package io.stator.expression;

import io.stator.value.AttributeValue;

/** A value-producing term of a condition: a path, a {@code :value}, or {@code size(path)}. */
public sealed interface Operand {

  /** The value at a document path of the item (absent when the path does not resolve). */
  record PathOperand(Path path) implements Operand {}

  /** An ExpressionAttributeValues placeholder, resolved to its value. */
  record ValueOperand(String placeholder, AttributeValue value) implements Operand {}

  /** {@code size(path)}: a number, or absent when the path does not resolve or has no size. */
  record Size(Path path) implements Operand {}
}
