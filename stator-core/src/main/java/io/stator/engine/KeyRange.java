package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.expression.ConditionExpression;
import io.stator.expression.ConditionExpression.Comparator;
import io.stator.expression.Operand;
import io.stator.expression.Path;
import io.stator.key.KeyCodec;
import io.stator.schema.KeyAttribute;
import io.stator.schema.TableDefinition;
import io.stator.storage.Bound;
import io.stator.value.AttributeValue;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Query reads: one partition key value and, optionally, a condition on the sort key,
 * derived from a KeyConditionExpression's syntax tree (or legacy KeyConditions) and checked
 * against the table's key schema with DynamoDB's messages.
 *
 * @param sortOperator null when there is no sort key condition, else EQ, LT, LE, GT, GE, BETWEEN
 *     or BEGINS_WITH
 */
record KeyRange(
    AttributeValue partition, String sortOperator, List<AttributeValue> sortValues) {

  /** Analyses a parsed KeyConditionExpression. */
  static KeyRange fromExpression(ConditionExpression condition, TableDefinition table) {
    return fromExpression(condition, table.hashKey(), table.rangeKey());
  }

  /** Analyses a parsed KeyConditionExpression against a key schema (a table's or an index's). */
  static KeyRange fromExpression(ConditionExpression condition, KeyAttribute hash, KeyAttribute range) {
    return fromTerms(terms(condition), hash, range);
  }

  /** The conditions of a KeyConditionExpression, one per attribute, checked for shape. */
  static Map<String, Term> terms(ConditionExpression condition) {
    Map<String, Term> terms = new LinkedHashMap<>();
    collect(condition, terms);
    return terms;
  }

  /** Analyses the legacy KeyConditions parameter. */
  static KeyRange fromKeyConditions(
      Map<String, io.stator.api.Condition> conditions, TableDefinition table) {
    return fromKeyConditions(conditions, table.hashKey(), table.rangeKey());
  }

  /** Analyses the legacy KeyConditions parameter against a key schema. */
  static KeyRange fromKeyConditions(
      Map<String, io.stator.api.Condition> conditions, KeyAttribute hashKey,
      KeyAttribute rangeKey) {
    if (conditions.size() != 1 && conditions.size() != 2) {
      throw DynamoDbException.validation("Conditions can be of length 1 or 2 only");
    }
    return fromTerms(terms(conditions), hashKey, rangeKey);
  }

  /** The conditions of the legacy KeyConditions parameter, checked for shape. */
  static Map<String, Term> terms(Map<String, io.stator.api.Condition> conditions) {
    Map<String, Term> terms = new LinkedHashMap<>();
    for (Map.Entry<String, io.stator.api.Condition> e : conditions.entrySet()) {
      String op = e.getValue().comparisonOperator();
      List<AttributeValue> values =
          e.getValue().attributeValueList() == null ? List.of() : e.getValue().attributeValueList();
      int expected = "BETWEEN".equals(op) ? 2 : 1;
      if (List.of("NULL", "NOT_NULL", "NE", "CONTAINS", "NOT_CONTAINS", "IN").contains(op)) {
        throw DynamoDbException.validation(
            "Attempted conditional constraint is not an indexable operation");
      }
      if (values.size() != expected) {
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: Invalid number of argument(s) for the "
                + op + " ComparisonOperator");
      }
      terms.put(e.getKey(), new Term(op, values));
    }
    return terms;
  }

  /** The lower sort bound of the range, or null. */
  Bound lower() {
    if (sortOperator == null) {
      return null;
    }
    byte[] first = KeyCodec.sort(sortValues.get(0));
    return switch (sortOperator) {
      case "EQ", "GE", "BETWEEN", "BEGINS_WITH" -> Bound.inclusive(first);
      case "GT" -> Bound.exclusive(first);
      default -> null;
    };
  }

  /** The upper sort bound of the range, or null. */
  Bound upper() {
    if (sortOperator == null) {
      return null;
    }
    byte[] first = KeyCodec.sort(sortValues.get(0));
    return switch (sortOperator) {
      case "EQ", "LE" -> Bound.inclusive(first);
      case "LT" -> Bound.exclusive(first);
      case "BETWEEN" -> Bound.inclusive(KeyCodec.sort(sortValues.get(1)));
      case "BEGINS_WITH" -> Bound.pastPrefix(first);
      default -> null;
    };
  }

  /** True when {@code sortValue} satisfies the sort key condition (for ExclusiveStartKey). */
  boolean matchesSort(AttributeValue sortValue) {
    if (sortOperator == null) {
      return true;
    }
    byte[] s = KeyCodec.sort(sortValue);
    return Bound.within(s, lower(), upper());
  }

  // ---- analysis ---------------------------------------------------------------------------

  /** One condition on one key attribute, in the legacy operator names. */
  record Term(String operator, List<AttributeValue> values) {}

  static KeyRange fromTerms(
      Map<String, Term> terms, KeyAttribute hash, KeyAttribute range) {
    if (range == null && terms.size() > 1) {
      throw DynamoDbException.validation("Query key condition not supported");
    }
    Term hashTerm = terms.get(hash.name());
    if (hashTerm == null) {
      throw DynamoDbException.validation(
          "Query condition missed key schema element: " + hash.name());
    }
    checkTypes(hashTerm, hash);
    if (!hashTerm.operator().equals("EQ")) {
      throw DynamoDbException.validation("Query key condition not supported");
    }
    Term rangeTerm = range == null ? null : terms.get(range.name());
    if (terms.size() > 1 && rangeTerm == null) {
      throw DynamoDbException.validation(
          "Query condition missed key schema element: " + range.name());
    }
    checkEmpty(hashTerm, hash);
    if (rangeTerm != null) {
      checkSortTerm(rangeTerm, range);
    }
    return new KeyRange(
        hashTerm.values().get(0),
        rangeTerm == null ? null : rangeTerm.operator(),
        rangeTerm == null ? List.of() : rangeTerm.values());
  }

  /** The checks of a condition on a sort key attribute: type, emptiness, operator, bounds. */
  static void checkSortTerm(Term rangeTerm, KeyAttribute range) {
    checkTypes(rangeTerm, range);
    checkEmpty(rangeTerm, range);
    if (rangeTerm.operator().equals("BEGINS_WITH") && range.type().equals("N")) {
      throw DynamoDbException.validation(
          "Invalid KeyConditionExpression: Incorrect operand type for operator or function;"
              + " operator or function: begins_with, operand type: N");
    }
    if (rangeTerm.operator().equals("BETWEEN")) {
      AttributeValue low = rangeTerm.values().get(0);
      AttributeValue high = rangeTerm.values().get(1);
      if (Arrays.compareUnsigned(KeyCodec.sort(low), KeyCodec.sort(high)) > 0) {
        throw DynamoDbException.validation(
            "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be"
                + " greater than or equal to lower bound; lower bound operand: AttributeValue: {"
                + low.type() + ":" + AttributeValue.keyText(low)
                + "}, upper bound operand: AttributeValue: {"
                + high.type() + ":" + AttributeValue.keyText(high) + "}");
      }
    }
  }

  static void checkTypes(Term term, KeyAttribute key) {
    for (AttributeValue v : term.values()) {
      if (!v.type().equals(key.type())) {
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: Condition parameter type does not match"
                + " schema type");
      }
    }
  }

  static void checkEmpty(Term term, KeyAttribute key) {
    for (AttributeValue v : term.values()) {
      if (ItemKeys.isEmpty(v)) {
        throw DynamoDbException.validation(
            "One or more parameter values are not valid. The AttributeValue for a key attribute"
                + " cannot contain an empty " + (v instanceof AttributeValue.B ? "binary" : "string")
                + " value. Key: " + key.name());
      }
    }
  }


  /**
   * Walks the condition tree the way DynamoDB checks a KeyConditionExpression: only AND of
   * comparisons, BETWEEN and begins_with, each on one top-level key attribute, one condition per
   * attribute.
   */
  private static void collect(ConditionExpression c, Map<String, Term> terms) {
    if (c instanceof ConditionExpression.And and) {
      collect(and.left(), terms);
      collect(and.right(), terms);
    } else if (c instanceof ConditionExpression.Or) {
      throw invalidOperator("OR");
    } else if (c instanceof ConditionExpression.Not) {
      throw invalidOperator("NOT");
    } else if (c instanceof ConditionExpression.In) {
      throw invalidOperator("IN");
    } else if (c instanceof ConditionExpression.Comparison cmp) {
      if (cmp.comparator() == Comparator.NE) {
        throw invalidOperator("<>");
      }
      checkNoSize(cmp.left());
      checkNoSize(cmp.right());
      Path left = pathOf(cmp.left());
      Path right = pathOf(cmp.right());
      if (left != null && right != null) {
        throw multipleNames();
      }
      if (left == null && right == null) {
        throw noKeyAttribute();
      }
      Comparator comparator = cmp.comparator();
      Path path = left;
      Operand value = cmp.right();
      if (left == null) { // ":v < key" reads as "key > :v"
        path = right;
        value = cmp.left();
        comparator = flip(comparator);
      }
      put(terms, path, new Term(comparator.name(), List.of(valueOf(value))));
    } else if (c instanceof ConditionExpression.Between between) {
      checkNoSize(between.value());
      checkNoSize(between.low());
      checkNoSize(between.high());
      Path path = pathOf(between.value());
      if (path == null) {
        throw DynamoDbException.validation(
            "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key"
                + " attribute as its first operand");
      }
      if (pathOf(between.low()) != null || pathOf(between.high()) != null) {
        throw multipleNames();
      }
      put(terms, path,
          new Term("BETWEEN", List.of(valueOf(between.low()), valueOf(between.high()))));
    } else if (c instanceof ConditionExpression.Function f) {
      if (f.name() != ConditionExpression.FunctionName.BEGINS_WITH) {
        throw invalidOperator(f.name().text());
      }
      f.arguments().forEach(KeyRange::checkNoSize);
      Path path = pathOf(f.arguments().get(0));
      if (path == null) {
        throw DynamoDbException.validation(
            "Invalid condition in KeyConditionExpression: begins_with operator must have the key"
                + " attribute as its first operand");
      }
      if (pathOf(f.arguments().get(1)) != null) {
        throw multipleNames();
      }
      put(terms, path, new Term("BEGINS_WITH", List.of(valueOf(f.arguments().get(1)))));
    } else {
      throw DynamoDbException.validation("Query key condition not supported");
    }
  }

  private static void put(Map<String, Term> terms, Path path, Term term) {
    if (!path.isTopLevel()) {
      throw DynamoDbException.validation(
          "KeyConditionExpressions cannot have conditions on nested attributes");
    }
    if (terms.containsKey(path.attribute())) {
      throw DynamoDbException.validation(
          "KeyConditionExpressions must only contain one condition per key");
    }
    terms.put(path.attribute(), term);
  }

  private static Comparator flip(Comparator c) {
    return switch (c) {
      case LT -> Comparator.GT;
      case LE -> Comparator.GE;
      case GT -> Comparator.LT;
      case GE -> Comparator.LE;
      default -> c;
    };
  }

  private static void checkNoSize(Operand o) {
    if (o instanceof Operand.Size) {
      throw DynamoDbException.validation(
          "KeyConditionExpressions cannot contain nested operations");
    }
  }

  private static Path pathOf(Operand o) {
    return o instanceof Operand.PathOperand p ? p.path() : null;
  }

  private static AttributeValue valueOf(Operand o) {
    return ((Operand.ValueOperand) o).value();
  }

  private static DynamoDbException invalidOperator(String operator) {
    return DynamoDbException.validation(
        "Invalid operator used in KeyConditionExpression: " + operator);
  }

  private static DynamoDbException multipleNames() {
    return DynamoDbException.validation(
        "Invalid condition in KeyConditionExpression: Multiple attribute names used in one"
            + " condition");
  }

  private static DynamoDbException noKeyAttribute() {
    return DynamoDbException.validation(
        "Invalid condition in KeyConditionExpression: No key attribute specified");
  }
}
