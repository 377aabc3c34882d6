package io.stator.expression;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The ExpressionAttributeNames and ExpressionAttributeValues of one request, shared by all of its
 * expressions. Parsing resolves {@code #name} and {@code :value} placeholders through this context
 * and records which were used, so that {@link #checkAllUsed()} can report unused ones as DynamoDB
 * does: a request whose maps hold a placeholder that none of its expressions use is rejected.
 *
 * <p>Not thread-safe: one context belongs to one request.
 */
public final class ExpressionContext {
  private final Map<String, String> names;
  private final Map<String, AttributeValue> values;
  private final Set<String> usedNames = new HashSet<>();
  private final Set<String> usedValues = new HashSet<>();

  /**
   * A context for one request. {@code null} means the map was not given. A map that is given but
   * empty, or whose keys are not placeholders ({@code #name}, {@code :value} made of letters,
   * digits and underscores), is a ValidationException, as in DynamoDB.
   */
  public ExpressionContext(Map<String, String> names, Map<String, AttributeValue> values) {
    if (names != null) {
      if (names.isEmpty()) {
        throw DynamoDbException.validation("ExpressionAttributeNames must not be empty");
      }
      for (String key : names.keySet()) {
        if (!isPlaceholder(key, '#')) {
          throw DynamoDbException.validation(
              "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
        }
      }
    }
    if (values != null) {
      if (values.isEmpty()) {
        throw DynamoDbException.validation("ExpressionAttributeValues must not be empty");
      }
      for (String key : values.keySet()) {
        if (!isPlaceholder(key, ':')) {
          throw DynamoDbException.validation(
              "ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key + "\"");
        }
      }
    }
    this.names = names == null ? Map.of() : names;
    this.values = values == null ? Map.of() : values;
  }

  /** A context for a request without ExpressionAttributeNames and ExpressionAttributeValues. */
  public static ExpressionContext empty() {
    return new ExpressionContext(null, null);
  }

  public Map<String, String> names() {
    return names;
  }

  public Map<String, AttributeValue> values() {
    return values;
  }

  /**
   * Resolves a {@code #name} placeholder and marks it used; null when it is not defined (the
   * parser turns that into DynamoDB's error once the whole expression is parsed).
   */
  String resolveName(String placeholder) {
    String name = names.get(placeholder);
    if (name != null) {
      usedNames.add(placeholder);
    }
    return name;
  }

  /** Resolves a {@code :value} placeholder and marks it used; null when it is not defined. */
  AttributeValue resolveValue(String placeholder) {
    AttributeValue value = values.get(placeholder);
    if (value != null) {
      usedValues.add(placeholder);
    }
    return value;
  }

  /** The placeholders used so far by the expressions parsed with this context. */
  public Set<String> usedNames() {
    return Set.copyOf(usedNames);
  }

  public Set<String> usedValues() {
    return Set.copyOf(usedValues);
  }

  /**
   * Throws DynamoDB's ValidationException when a name or value placeholder was given but no
   * expression used it. Call after all expressions of the request are parsed. Names are
   * reported before values, each in the order the request gave them.
   */
  public void checkAllUsed() {
    String unusedNames = unused(names.keySet(), usedNames);
    if (unusedNames != null) {
      throw DynamoDbException.validation(
          "Value provided in ExpressionAttributeNames unused in expressions: keys: "
              + unusedNames);
    }
    String unusedValues = unused(values.keySet(), usedValues);
    if (unusedValues != null) {
      throw DynamoDbException.validation(
          "Value provided in ExpressionAttributeValues unused in expressions: keys: "
              + unusedValues);
    }
  }

  private static String unused(Set<String> given, Set<String> used) {
    StringJoiner joiner = new StringJoiner(", ", "{", "}");
    boolean any = false;
    for (String key : given) {
      if (!used.contains(key)) {
        joiner.add(key);
        any = true;
      }
    }
    return any ? joiner.toString() : null;
  }

  /** {@code #name} / {@code :value}: the marker then one or more letters, digits or '_'. */
  private static boolean isPlaceholder(String key, char marker) {
    if (key == null || key.length() < 2 || key.charAt(0) != marker) {
      return false;
    }
    for (int i = 1; i < key.length(); i++) {
      if (!Lexer.isNameChar(key.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
