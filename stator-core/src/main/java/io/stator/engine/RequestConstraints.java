package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.expression.ExpressionContext;
import io.stator.expression.Expressions;
import io.stator.expression.Path;
import io.stator.schema.Constraints;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Request checks shared by the item operations, with DynamoDB's messages. */
final class RequestConstraints {
  private RequestConstraints() {}

  /**
   * A table name: present, then a name's pattern and length (into the returned constraints,
   * reported with the request's others). The model lets the item operations take a name or an
   * ARN of 1 to 1,024 characters; a name is a table's, 3 to 255 of its characters.
   */
  static Constraints tableName(String tableName) {
    return new Constraints().notNull("tableName", tableName).name("tableName", tableName);
  }

  /**
   * DynamoDB's rules for mixing expression and legacy parameters, checked before any expression
   * is parsed.
   *
   * @param expressions the expression parameters of the operation, by name (null when absent)
   * @param legacy the legacy (non-expression) parameters of the operation, by name
   */
  static void expressionParameters(
      Map<String, Object> expressions,
      Map<String, Object> legacy,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    List<String> given = present(expressions);
    if (!given.isEmpty()) {
      Map<String, Object> nonExpressions = new LinkedHashMap<>(legacy);
      // KeyConditions may come with the other expressions when KeyConditionExpression is absent.
      if (legacy.get("KeyConditions") != null && expressions.get("KeyConditionExpression") == null) {
        nonExpressions.remove("KeyConditions");
      }
      List<String> mixed = present(nonExpressions);
      if (!mixed.isEmpty()) {
        throw DynamoDbException.validation(
            "Can not use both expression and non-expression parameters in the same request:"
                + " Non-expression parameters: {" + String.join(", ", mixed) + "} Expression"
                + " parameters: {" + String.join(", ", given) + "}");
      }
    }
    if (names != null && given.isEmpty()) {
      throw DynamoDbException.validation(
          "ExpressionAttributeNames can only be specified when using expressions");
    }
    List<String> valueExpressions = new ArrayList<>(expressions.keySet());
    valueExpressions.remove("ProjectionExpression");
    if (values != null && !valueExpressions.isEmpty()) {
      boolean none = valueExpressions.stream().allMatch(e -> expressions.get(e) == null);
      if (none) {
        throw DynamoDbException.validation(
            "ExpressionAttributeValues can only be specified when using expressions: "
                + String.join(" and ", valueExpressions)
                + (valueExpressions.size() > 1 ? " are" : " is") + " null");
      }
    }
  }

  /**
   * The paths to return: from a ProjectionExpression, or from legacy AttributesToGet (top-level
   * names), or null for the whole item.
   */
  static List<Path> projection(
      String projectionExpression, List<String> attributesToGet, ExpressionContext context) {
    if (projectionExpression != null) {
      return Expressions.parseProjection(projectionExpression, context);
    }
    if (attributesToGet != null) {
      Set<String> seen = new HashSet<>();
      List<Path> paths = new ArrayList<>();
      for (String name : attributesToGet) {
        if (!seen.add(name)) {
          throw DynamoDbException.validation(
              "One or more parameter values were invalid: Duplicate value in attribute name: "
                  + name);
        }
        paths.add(Path.of(name));
      }
      return paths;
    }
    return null;
  }

  static void attributesToGetLength(Constraints c, List<String> attributesToGet) {
    if (attributesToGet != null) {
      c.lengthAtLeast("attributesToGet", attributesToGet, attributesToGet.size(), 1);
    }
  }

  static Map<String, AttributeValue> project(Map<String, AttributeValue> item, List<Path> paths) {
    return paths == null ? item : Expressions.project(item, paths);
  }

  private static List<String> present(Map<String, Object> parameters) {
    List<String> out = new ArrayList<>();
    parameters.forEach(
        (name, value) -> {
          if (value != null) {
            out.add(name);
          }
        });
    return out;
  }

  /** An insertion-ordered map of parameter names to values (values may be null). */
  static Map<String, Object> params(Object... nameValuePairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      m.put((String) nameValuePairs[i], nameValuePairs[i + 1]);
    }
    return m;
  }
}
