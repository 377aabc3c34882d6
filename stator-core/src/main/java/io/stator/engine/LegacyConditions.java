package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.api.ExpectedAttributeValue;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ConditionExpression.Comparator;
import io.stator.expression.ConditionExpression.FunctionName;
import io.stator.expression.Expressions;
import io.stator.expression.Operand;
import io.stator.expression.Path;
import io.stator.schema.Constraints;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The legacy conditional parameters (Expected, QueryFilter, ScanFilter, KeyConditions with their
 * ComparisonOperator and ConditionalOperator), validated with DynamoDB's messages and translated
 * into the same {@link ConditionExpression} syntax tree that ConditionExpression and FilterExpression
 * produce, so one evaluator serves both generations of the API.
 *
 * <p>The translation, per attribute (a legacy attribute name is always a top-level name, never a
 * document path): EQ NE LT LE GT GE are comparisons, NOT_NULL and NULL are {@code
 * attribute_exists} and {@code attribute_not_exists}, CONTAINS and BEGINS_WITH the functions of
 * the same name, NOT_CONTAINS is {@code NOT contains(...)}, IN and BETWEEN the operators. In
 * Expected, a lone {@code Value} (with {@code Exists} absent or true) is EQ and {@code
 * Exists=false} is {@code attribute_not_exists}. The per-attribute conditions are joined with the
 * ConditionalOperator (AND by default) in the order the request gave them.
 */
final class LegacyConditions {
  /** DynamoDB's order for the ComparisonOperator enum in constraint messages. */
  static final String[] COMPARISON_OPERATORS = {
    "IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE", "LE",
    "BEGINS_WITH", "GE", "CONTAINS"
  };

  static final String[] CONDITIONAL_OPERATORS = {"OR", "AND"};

  private LegacyConditions() {}

  // ---- request-level constraints ---------------------------------------------------------

  /** Enum constraints of Expected (reported with the other request constraints). */
  static void expectedConstraints(Constraints c, Map<String, ExpectedAttributeValue> expected) {
    if (expected == null) {
      return;
    }
    expected.forEach(
        (name, e) -> {
          if (e != null) {
            c.oneOf("expected." + name + ".member.comparisonOperator", e.comparisonOperator(),
                COMPARISON_OPERATORS);
          }
        });
  }

  /**
   * Constraints of QueryFilter, ScanFilter or KeyConditions: ComparisonOperator is required and
   * one of DynamoDB's operators.
   *
   * @param parameter the request member, e.g. "queryFilter"
   */
  static void conditionConstraints(
      Constraints c, String parameter, Map<String, io.stator.api.Condition> conditions) {
    if (conditions == null) {
      return;
    }
    conditions.forEach(
        (name, condition) -> {
          String path = parameter + "." + name + ".member.comparisonOperator";
          String op = condition == null ? null : condition.comparisonOperator();
          c.notNull(path, op);
          c.oneOf(path, op, COMPARISON_OPERATORS);
        });
  }

  // ---- Expected ----------------------------------------------------------------------------

  /**
   * Validates Expected and returns its condition, or null when there is none. Checks each
   * attribute in request order, with DynamoDB's messages.
   */
  static ConditionExpression expected(
      Map<String, ExpectedAttributeValue> expected, String conditionalOperator) {
    if (expected == null || expected.isEmpty()) {
      return null;
    }
    List<ConditionExpression> terms = new ArrayList<>();
    for (Map.Entry<String, ExpectedAttributeValue> entry : expected.entrySet()) {
      String name = entry.getKey();
      ExpectedAttributeValue e = entry.getValue();
      if (e == null) {
        e = new ExpectedAttributeValue(null, null, null, null);
      }
      if (e.attributeValueList() != null && e.value() != null) {
        throw invalid(
            "Value and AttributeValueList cannot be used together for Attribute: " + name);
      }
      String op = e.comparisonOperator();
      if (op != null) {
        if (e.exists() != null) {
          throw invalid(
              "Exists and ComparisonOperator cannot be used together for Attribute: " + name);
        }
        if (!op.equals("NULL") && !op.equals("NOT_NULL")
            && e.attributeValueList() == null && e.value() == null) {
          throw invalid(
              "Value or AttributeValueList must be used with ComparisonOperator: " + op
                  + " for Attribute: " + name);
        }
        List<AttributeValue> values =
            e.attributeValueList() != null
                ? e.attributeValueList()
                : e.value() != null ? List.of(e.value()) : List.of();
        checkOperands(op, values);
        terms.add(term(name, op, values));
      } else if (e.attributeValueList() != null) {
        throw invalid(
            "AttributeValueList can only be used with a ComparisonOperator for Attribute: "
                + name);
      } else {
        boolean exists = e.exists() == null || e.exists();
        if (exists && e.value() == null) {
          throw invalid(
              "Value must be provided when Exists is " + (e.exists() == null ? "null" : "true")
                  + " for Attribute: " + name);
        }
        if (!exists && e.value() != null) {
          throw invalid("Value cannot be used when Exists is false for Attribute: " + name);
        }
        terms.add(
            exists
                ? term(name, "EQ", List.of(e.value()))
                : term(name, "NULL", List.of()));
      }
    }
    return join(terms, conditionalOperator);
  }

  // ---- QueryFilter, ScanFilter, KeyConditions ----------------------------------------------

  /** Validates the operands of QueryFilter, ScanFilter or KeyConditions, in request order. */
  static void checkConditions(Map<String, io.stator.api.Condition> conditions) {
    if (conditions == null) {
      return;
    }
    for (io.stator.api.Condition condition : conditions.values()) {
      checkOperands(condition.comparisonOperator(), values(condition));
    }
  }

  /** The condition of a QueryFilter or ScanFilter (checked by checkConditions), or null. */
  static ConditionExpression filter(
      Map<String, io.stator.api.Condition> conditions, String conditionalOperator) {
    if (conditions == null || conditions.isEmpty()) {
      return null;
    }
    List<ConditionExpression> terms = new ArrayList<>();
    conditions.forEach(
        (name, condition) ->
            terms.add(term(name, condition.comparisonOperator(), values(condition))));
    return join(terms, conditionalOperator);
  }

  private static List<AttributeValue> values(io.stator.api.Condition condition) {
    return condition.attributeValueList() == null ? List.of() : condition.attributeValueList();
  }

  // ---- shared ------------------------------------------------------------------------------

  /**
   * DynamoDB's operand rules for a ComparisonOperator: the number of values, one type for all of
   * them, the types the operator accepts, and an ordered BETWEEN range.
   */
  private static void checkOperands(String op, List<AttributeValue> values) {
    int n = values.size();
    boolean arity =
        switch (op) {
          case "NULL", "NOT_NULL" -> n == 0;
          case "IN" -> n >= 1;
          case "BETWEEN" -> n == 2;
          default -> n == 1;
        };
    if (!arity) {
      throw invalid("Invalid number of argument(s) for the " + op + " ComparisonOperator");
    }
    if (n == 0) {
      return;
    }
    String type = values.get(0).type();
    for (AttributeValue v : values) {
      if (!v.type().equals(type)) {
        throw invalid("AttributeValues inside AttributeValueList must be of same type");
      }
    }
    // EQ and NE take every type, lists, maps, booleans and nulls included (DynamoDB's API
    // reference: "EQ is supported for all data types, including lists and maps").
    List<String> allowed =
        switch (op) {
          case "EQ", "NE" -> null;
          case "BEGINS_WITH" -> List.of("S", "B");
          default -> List.of("S", "N", "B");
        };
    if (allowed != null && !allowed.contains(type)) {
      throw invalid("ComparisonOperator " + op + " is not valid for " + type
          + " AttributeValue type");
    }
    if (op.equals("BETWEEN")) {
      ConditionExpression lowAboveHigh =
          new ConditionExpression.Comparison(Comparator.GT, value(values.get(0)), value(values.get(1)));
      if (Expressions.evaluate(lowAboveHigh, Map.of())) {
        throw DynamoDbException.validation(
            "The BETWEEN condition was provided a range where the lower bound is greater than"
                + " the upper bound");
      }
    }
  }

  /** The condition on one attribute (operands already checked). */
  private static ConditionExpression term(String attribute, String op, List<AttributeValue> values) {
    Operand path = new Operand.PathOperand(Path.of(attribute));
    return switch (op) {
      case "EQ" -> new ConditionExpression.Comparison(Comparator.EQ, path, value(values.get(0)));
      case "NE" -> new ConditionExpression.Comparison(Comparator.NE, path, value(values.get(0)));
      case "LT" -> new ConditionExpression.Comparison(Comparator.LT, path, value(values.get(0)));
      case "LE" -> new ConditionExpression.Comparison(Comparator.LE, path, value(values.get(0)));
      case "GT" -> new ConditionExpression.Comparison(Comparator.GT, path, value(values.get(0)));
      case "GE" -> new ConditionExpression.Comparison(Comparator.GE, path, value(values.get(0)));
      case "NOT_NULL" -> new ConditionExpression.Function(FunctionName.ATTRIBUTE_EXISTS, List.of(path));
      case "NULL" -> new ConditionExpression.Function(FunctionName.ATTRIBUTE_NOT_EXISTS, List.of(path));
      case "CONTAINS" ->
          new ConditionExpression.Function(FunctionName.CONTAINS, List.of(path, value(values.get(0))));
      case "NOT_CONTAINS" ->
          new ConditionExpression.Not(
              new ConditionExpression.Function(FunctionName.CONTAINS, List.of(path, value(values.get(0)))));
      case "BEGINS_WITH" ->
          new ConditionExpression.Function(FunctionName.BEGINS_WITH, List.of(path, value(values.get(0))));
      case "IN" -> new ConditionExpression.In(path, values.stream().map(LegacyConditions::value).toList());
      case "BETWEEN" ->
          new ConditionExpression.Between(path, value(values.get(0)), value(values.get(1)));
      default -> throw new IllegalArgumentException("unknown ComparisonOperator " + op);
    };
  }

  /** A literal operand; legacy parameters have no placeholders, so it carries none. */
  private static Operand value(AttributeValue v) {
    return new Operand.ValueOperand(null, v);
  }

  private static ConditionExpression join(List<ConditionExpression> terms, String conditionalOperator) {
    boolean or = "OR".equals(conditionalOperator);
    ConditionExpression out = terms.get(0);
    for (int i = 1; i < terms.size(); i++) {
      out = or ? new ConditionExpression.Or(out, terms.get(i)) : new ConditionExpression.And(out, terms.get(i));
    }
    return out;
  }

  private static DynamoDbException invalid(String detail) {
    return DynamoDbException.validation("One or more parameter values were invalid: " + detail);
  }
}
