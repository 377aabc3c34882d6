package io.stator.expression;

/**
 * The right-hand side of a SET action: an operand, {@code a + b}, {@code a - b}, or one of the two
 * update functions {@code if_not_exists(path, operand)} and {@code list_append(a, b)}. All of it
 * is evaluated against the item as it was before the update.
 */
public sealed interface SetValue {

  /** A document path or a {@code :value} placeholder. */
  record Term(Operand operand) implements SetValue {}

  /** {@code left + right}: numbers only. */
  record Plus(SetValue left, SetValue right) implements SetValue {}

  /** {@code left - right}: numbers only. */
  record Minus(SetValue left, SetValue right) implements SetValue {}

  /** {@code if_not_exists(path, fallback)}: the value at path, or the fallback when it is absent. */
  record IfNotExists(Path path, SetValue fallback) implements SetValue {}

  /** {@code list_append(first, second)}: the elements of two lists, first's then second's. */
  record ListAppend(SetValue first, SetValue second) implements SetValue {}
}
