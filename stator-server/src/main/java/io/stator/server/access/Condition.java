package io.stator.server.access;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One condition of a statement: an operator, optionally qualified for a key of several values
 * ({@code ForAllValues:}, {@code ForAnyValue:}), a condition key and the values it is compared
 * with, in which {@code ${aws:username}} stands for the signing user's name.
 *
 * <p>IAM's rules, for the keys of a DynamoDB request: a key the request does not have matches no
 * positive operator and every negated one; {@code ForAllValues} holds when every value of the
 * request matches (so also when it has none), {@code ForAnyValue} when one does. An operator
 * ending in {@code IfExists} also holds when the request has no value of the key.
 */
record Condition(String operator, Qualifier qualifier, String key, List<String> values,
    boolean ifExists) {
  enum Qualifier { NONE, FOR_ALL_VALUES, FOR_ANY_VALUE }

  /** The keys Stator evaluates, lower case, and whether each may have several values. */
  static final Map<String, Boolean> KEYS = Map.of(
      "dynamodb:leadingkeys", true,
      "dynamodb:attributes", true,
      "dynamodb:select", false,
      "dynamodb:returnvalues", false);

  private static final Set<String> OPERATORS = Set.of(
      "StringEquals", "StringNotEquals", "StringEqualsIgnoreCase", "StringNotEqualsIgnoreCase",
      "StringLike", "StringNotLike");

  /** The condition {@code operator: {key: values}}, or IllegalArgumentException. */
  static Condition of(String qualifiedOperator, String key, List<String> values, String where) {
    Qualifier qualifier = Qualifier.NONE;
    String operator = qualifiedOperator;
    if (operator.startsWith("ForAllValues:")) {
      qualifier = Qualifier.FOR_ALL_VALUES;
      operator = operator.substring("ForAllValues:".length());
    } else if (operator.startsWith("ForAnyValue:")) {
      qualifier = Qualifier.FOR_ANY_VALUE;
      operator = operator.substring("ForAnyValue:".length());
    }
    boolean ifExists = operator.endsWith("IfExists");
    if (ifExists) {
      operator = operator.substring(0, operator.length() - "IfExists".length());
    }
    if (!OPERATORS.contains(operator)) {
      throw new IllegalArgumentException(where + ": the condition operator " + qualifiedOperator
          + " is not supported (" + String.join(", ", OPERATORS.stream().sorted().toList())
          + ", with ForAllValues: or ForAnyValue:, and IfExists)");
    }
    String lower = key.toLowerCase(Locale.ROOT);
    Boolean multiValued = KEYS.get(lower);
    if (multiValued == null) {
      throw new IllegalArgumentException(where + ": the condition key " + key
          + " is not supported (dynamodb:LeadingKeys, dynamodb:Attributes, dynamodb:Select,"
          + " dynamodb:ReturnValues)");
    }
    if (multiValued && qualifier == Qualifier.NONE) {
      throw new IllegalArgumentException(where + ": " + key + " has several values: use"
          + " ForAllValues:" + operator + " or ForAnyValue:" + operator);
    }
    return new Condition(operator, qualifier, lower, List.copyOf(values), ifExists);
  }

  /** Whether the condition holds, or null when the request's values of its key are unknown. */
  Boolean holds(RequestContext context, Principal principal) {
    List<String> actual = context.values(key);
    if (actual == RequestContext.UNKNOWN) {
      return null;
    }
    if (ifExists && actual == null) {
      return true;
    }
    boolean negated = operator.contains("Not");
    switch (qualifier) {
      case FOR_ALL_VALUES:
        if (actual != null) {
          for (String v : actual) {
            if (matchesAny(v, principal) == negated) {
              return false;
            }
          }
        }
        return true;
      case FOR_ANY_VALUE:
        if (actual != null) {
          for (String v : actual) {
            if (matchesAny(v, principal) != negated) {
              return true;
            }
          }
        }
        return false;
      default:
        if (actual == null || actual.isEmpty()) {
          return negated;
        }
        return matchesAny(actual.get(0), principal) != negated;
    }
  }

  /** Whether {@code value} matches one of the condition's values (ignoring the negation). */
  private boolean matchesAny(String value, Principal principal) {
    for (String v : values) {
      String expected = v.replace("${aws:username}", principal.userName());
      boolean match = switch (operator) {
        case "StringEquals", "StringNotEquals" -> expected.equals(value);
        case "StringEqualsIgnoreCase", "StringNotEqualsIgnoreCase" ->
            expected.equalsIgnoreCase(value);
        default -> Wildcard.matches(expected, value, false);
      };
      if (match) {
        return true;
      }
    }
    return false;
  }
}
