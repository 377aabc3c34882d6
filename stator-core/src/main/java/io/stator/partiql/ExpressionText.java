package io.stator.partiql;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.InvalidValueException;
import io.stator.value.Bytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes PartiQL terms as DynamoDB expression strings (condition, update, projection), every
 * name as a {@code #n} placeholder and every value as a {@code :v} one, so that the engine's own
 * expression parser and evaluator run them; and binds a statement's values to its Parameters.
 */
final class ExpressionText {
  private final List<AttributeValue> parameters;
  /** Attribute name → its placeholder, so that a name used twice has one placeholder. */
  private final Map<String, String> names = new LinkedHashMap<>();
  private final Map<String, AttributeValue> values = new LinkedHashMap<>();

  ExpressionText(List<AttributeValue> parameters) {
    this.parameters = parameters;
  }

  /** A text with the same Parameters and no names or values yet, for another request. */
  ExpressionText fresh() {
    return new ExpressionText(parameters);
  }

  /** The ExpressionAttributeNames used so far, or null when none (as on the wire). */
  Map<String, String> names() {
    if (names.isEmpty()) {
      return null;
    }
    Map<String, String> byPlaceholder = new LinkedHashMap<>();
    names.forEach((name, placeholder) -> byPlaceholder.put(placeholder, name));
    return byPlaceholder;
  }

  /** The ExpressionAttributeValues used so far, or null when none. */
  Map<String, AttributeValue> values() {
    return values.isEmpty() ? null : values;
  }

  /** Any name, for a condition that holds for no item whatever its attributes. */
  private static final String ANY_ATTRIBUTE = "any";

  String name(String attribute) {
    return names.computeIfAbsent(attribute, a -> "#n" + names.size());
  }

  String value(AttributeValue value) {
    String placeholder = ":v" + values.size();
    values.put(placeholder, value);
    return placeholder;
  }

  String path(Term.PathTerm path) {
    StringBuilder text = new StringBuilder();
    for (Object element : path.elements()) {
      if (element instanceof Integer index) {
        text.append('[').append(index).append(']');
      } else {
        if (!text.isEmpty()) {
          text.append('.');
        }
        text.append(name((String) element));
      }
    }
    return text.toString();
  }

  /** A condition (a WHERE clause's, less its key equalities) as a ConditionExpression. */
  String condition(Term term) {
    if (term instanceof Term.And and) {
      return "(" + condition(and.left()) + " AND " + condition(and.right()) + ")";
    }
    if (term instanceof Term.Or or) {
      return "(" + condition(or.left()) + " OR " + condition(or.right()) + ")";
    }
    if (term instanceof Term.Not not) {
      return "(NOT " + condition(not.operand()) + ")";
    }
    if (term instanceof Term.Comparison c) {
      if (isPredicate(c.left()) || isPredicate(c.right())) {
        return truthComparison(c);
      }
      return "(" + operand(c.left()) + " " + c.operator() + " " + operand(c.right()) + ")";
    }
    if (term instanceof Term.Between b) {
      return "(" + operand(b.operand()) + " BETWEEN " + operand(b.low()) + " AND "
          + operand(b.high()) + ")";
    }
    if (term instanceof Term.In in && isPredicate(in.operand())) {
      List<String> alternatives = new ArrayList<>();
      in.candidates().forEach(c -> alternatives.add(
          truthComparison(new Term.Comparison("=", in.operand(), c))));
      return "(" + String.join(" OR ", alternatives) + ")";
    }
    if (term instanceof Term.In in) {
      List<String> candidates = new ArrayList<>();
      in.candidates().forEach(c -> candidates.add(operand(c)));
      return "(" + operand(in.operand()) + " IN (" + String.join(", ", candidates) + "))";
    }
    if (term instanceof Term.Is is) {
      return is(is);
    }
    if (term instanceof Term.Call call && isCondition(call.function())) {
      return call(call);
    }
    throw Statements.malformed("Unexpected term: not a condition");
  }

  /**
   * A comparison of a condition's truth, which PartiQL allows and a ConditionExpression does
   * not: {@code attribute_exists(a) = false}, {@code (n BETWEEN 0 AND 5) = true}, {@code
   * attribute_exists(a) = attribute_exists(b)}, {@code attribute_exists(a) = flag}. A condition
   * is a BOOL, so it equals true or false, a BOOL attribute or another condition with the same
   * truth, and never a value of another type; only {@code =} and {@code <>} compare it (DynamoDB's
   * words for the others, as recorded).
   */
  private String truthComparison(Term.Comparison c) {
    if (!c.operator().equals("=") && !c.operator().equals("<>")) {
      throw DynamoDbException.validation("Incorrect operand type for operator or function;"
          + " operator or function: " + c.operator() + ", operand type: BOOL");
    }
    Term predicate = isPredicate(c.left()) ? c.left() : c.right();
    Term other = predicate == c.left() ? c.right() : c.left();
    AttributeValue bound = isPredicate(other) || other instanceof Term.PathTerm ? null : bind(other);
    if (bound != null && !(bound instanceof AttributeValue.Bool)) {
      // Of another type: never equal. An attribute both there and not there is false.
      String any = name(ANY_ATTRIBUTE);
      String never = "(attribute_exists(" + any + ") AND attribute_not_exists(" + any + "))";
      return c.operator().equals("=") ? never : "(NOT " + never + ")";
    }
    String holds = condition(predicate);
    String equal;
    if (bound instanceof AttributeValue.Bool bool) {
      equal = bool.value() ? holds : "(NOT " + holds + ")";
    } else if (isPredicate(other)) {
      String also = condition(other);
      equal = "((" + holds + " AND " + also + ") OR ((NOT " + holds + ") AND (NOT " + also + ")))";
    } else {
      String p = path((Term.PathTerm) other);
      equal = "((" + holds + " AND " + p + " = " + value(AttributeValue.bool(true)) + ") OR ((NOT "
          + holds + ") AND " + p + " = " + value(AttributeValue.bool(false)) + "))";
    }
    return c.operator().equals("=") ? equal : "(NOT " + equal + ")";
  }

  /** Whether a term is a condition, true or false, rather than a value. */
  private static boolean isPredicate(Term term) {
    return term instanceof Term.Comparison || term instanceof Term.Between
        || term instanceof Term.In || term instanceof Term.Is || term instanceof Term.And
        || term instanceof Term.Or || term instanceof Term.Not
        || (term instanceof Term.Call call && isCondition(call.function()));
  }

  private static boolean isCondition(String function) {
    return switch (function) {
      case "begins_with", "contains", "attribute_type", "attribute_exists",
          "attribute_not_exists" -> true;
      default -> false;
    };
  }

  /**
   * {@code IS [NOT] MISSING} is attribute_not_exists / attribute_exists; in PartiQL a missing
   * attribute IS NULL too, so {@code IS NULL} holds for a NULL value or none.
   */
  private String is(Term.Is is) {
    if (!(is.operand() instanceof Term.PathTerm path)) {
      throw Statements.malformed("Unexpected term: IS applies to an attribute");
    }
    String p = path(path);
    if (is.missing()) {
      return (is.negated() ? "attribute_exists(" : "attribute_not_exists(") + p + ")";
    }
    String nullType = value(AttributeValue.s("NULL"));
    return is.negated()
        ? "(attribute_exists(" + p + ") AND NOT attribute_type(" + p + ", " + nullType + "))"
        : "(attribute_not_exists(" + p + ") OR attribute_type(" + p + ", " + nullType + "))";
  }

  private String call(Term.Call call) {
    if (call.function().startsWith("attribute_") && !call.function().equals("attribute_type")) {
      checkDocumentPath(call);
    }
    List<String> arguments = new ArrayList<>();
    call.arguments().forEach(a -> arguments.add(operand(a)));
    return call.function() + "(" + String.join(", ", arguments) + ")";
  }

  /**
   * attribute_exists and attribute_not_exists take one document path, refused otherwise in
   * DynamoDB's recorded words (without the envelope of a statement that does not parse).
   */
  private static void checkDocumentPath(Term.Call call) {
    if (call.arguments().size() != 1) {
      throw DynamoDbException.validation("Incorrect number of operands for operator or function;"
          + " operator or function: " + call.function() + ", number of operands: "
          + call.arguments().size());
    }
    if (!(call.arguments().get(0) instanceof Term.PathTerm)) {
      throw DynamoDbException.validation("Operator or function requires a document path;"
          + " operator or function: " + call.function());
    }
  }

  /** An operand of a condition or of a SET: a path, {@code size(path)} or a value. */
  String operand(Term term) {
    if (term instanceof Term.PathTerm path) {
      return path(path);
    }
    if (term instanceof Term.Call call
        && (call.function().equals("size") || call.function().equals("list_append"))) {
      return call(call);
    }
    if (term instanceof Term.Arithmetic a) {
      return operand(a.left()) + " " + a.operator() + " " + operand(a.right());
    }
    return value(bind(term));
  }

  /** The value a literal term or a parameter stands for. */
  AttributeValue bind(Term term) {
    if (term instanceof Term.Literal literal) {
      return literal.value();
    }
    if (term instanceof Term.Parameter parameter) {
      return parameters.get(parameter.index());
    }
    if (term instanceof Term.MapTerm map) {
      Map<String, AttributeValue> members = new LinkedHashMap<>();
      for (Term.MapTerm.Entry entry : map.entries()) {
        if (members.put(entry.name(), bind(entry.value())) != null) {
          throw DynamoDbException.validation("Duplicate attribute name in a map: " + entry.name());
        }
      }
      return AttributeValue.m(members);
    }
    if (term instanceof Term.ListTerm list) {
      return AttributeValue.l(list.elements().stream().map(this::bind).toList());
    }
    if (term instanceof Term.SetTerm set) {
      return set(set.elements().stream().map(this::bind).toList());
    }
    throw Statements.malformed("Unexpected term: a value was expected");
  }

  /** {@code <<...>>}: a set of strings, of numbers or of binaries, as its members are. */
  private static AttributeValue set(List<AttributeValue> members) {
    if (members.isEmpty()) {
      throw DynamoDbException.validation("An empty set is not a value");
    }
    try {
      if (members.stream().allMatch(m -> m instanceof AttributeValue.S)) {
        return AttributeValue.ss(
            members.stream().map(m -> ((AttributeValue.S) m).value()).toList());
      }
      if (members.stream().allMatch(m -> m instanceof AttributeValue.N)) {
        return AttributeValue.ns(
            members.stream().map(m -> ((AttributeValue.N) m).value()).toList());
      }
      if (members.stream().allMatch(m -> m instanceof AttributeValue.B)) {
        List<Bytes> bytes = members.stream().map(m -> ((AttributeValue.B) m).value()).toList();
        return AttributeValue.bs(bytes);
      }
    } catch (InvalidValueException e) {
      throw DynamoDbException.validation(e.getMessage());
    }
    throw DynamoDbException.validation(
        "A set's members are all strings, all numbers or all binaries");
  }
}
