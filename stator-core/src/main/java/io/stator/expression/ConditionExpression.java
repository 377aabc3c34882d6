package io.stator.expression;

import java.util.List;

/**
 * The syntax tree of a condition: ConditionExpression, FilterExpression and
 * KeyConditionExpression share this grammar (a KeyConditionExpression allows only a subset, which
 * the engine checks against the key schema).
 */
public sealed interface ConditionExpression {

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
  record Comparison(Comparator comparator, Operand left, Operand right) implements ConditionExpression {}

  /** {@code value BETWEEN low AND high}. */
  record Between(Operand value, Operand low, Operand high) implements ConditionExpression {}

  /** {@code value IN (a, b, ...)}. */
  record In(Operand value, List<Operand> candidates) implements ConditionExpression {
    public In {
      candidates = List.copyOf(candidates);
    }
  }

  record And(ConditionExpression left, ConditionExpression right) implements ConditionExpression {}

  record Or(ConditionExpression left, ConditionExpression right) implements ConditionExpression {}

  record Not(ConditionExpression operand) implements ConditionExpression {}

  /**
   * A boolean function: {@code attribute_exists(path)}, {@code attribute_not_exists(path)}, {@code
   * attribute_type(path, :type)}, {@code begins_with(path, operand)}, {@code contains(path,
   * operand)}.
   */
  record Function(FunctionName name, List<Operand> arguments) implements ConditionExpression {
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
