package io.stator.expression;

import java.util.List;

/**
 * The syntax tree of a condition: ConditionExpression, FilterExpression and
 * KeyConditionExpression share this grammar (a KeyConditionExpression allows only a subset, which
 * the engine checks against the key schema).
 */
public sealed interface Condition {

  enum Comparator {
    EQ("="),
    NE("<>"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    Comparator(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }
  }

  /** {@code left <op> right}. */
  record Comparison(Comparator comparator, Operand left, Operand right) implements Condition {}

  /** {@code value BETWEEN low AND high}. */
  record Between(Operand value, Operand low, Operand high) implements Condition {}

  /** {@code value IN (a, b, ...)}. */
  record In(Operand value, List<Operand> candidates) implements Condition {
    public In {
      candidates = List.copyOf(candidates);
    }
  }

  record And(Condition left, Condition right) implements Condition {}

  record Or(Condition left, Condition right) implements Condition {}

  record Not(Condition operand) implements Condition {}

  /**
   * A boolean function: {@code attribute_exists(path)}, {@code attribute_not_exists(path)}, {@code
   * attribute_type(path, :type)}, {@code begins_with(path, operand)}, {@code contains(path,
   * operand)}.
   */
  record Function(FunctionName name, List<Operand> arguments) implements Condition {
    public Function {
      arguments = List.copyOf(arguments);
    }
  }

  enum FunctionName {
    ATTRIBUTE_EXISTS("attribute_exists"),
    ATTRIBUTE_NOT_EXISTS("attribute_not_exists"),
    ATTRIBUTE_TYPE("attribute_type"),
    BEGINS_WITH("begins_with"),
    CONTAINS("contains");

    private final String text;

    FunctionName(String text) {
      this.text = text;
    }

    /** The name as written in an expression. */
    public String text() {
      return text;
    }
  }
}
