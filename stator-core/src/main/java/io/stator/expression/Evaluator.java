package io.stator.expression;

import io.stator.expression.ConditionExpression.And;
import io.stator.expression.ConditionExpression.Between;
import io.stator.expression.ConditionExpression.Comparison;
import io.stator.expression.ConditionExpression.Function;
import io.stator.expression.ConditionExpression.In;
import io.stator.expression.ConditionExpression.Not;
import io.stator.expression.ConditionExpression.Or;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates a condition against an item with DynamoDB's semantics:
 *
 * <ul>
 *   <li>An operand whose path does not resolve is absent; any comparison with an absent operand
 *       is false, and {@code <>} is its negation (so {@code a <> :v} holds when a is missing).
 *   <li>Values of different types are never equal and never ordered: the comparison is false,
 *       not an error.
 *   <li>{@code < <= > >=} and BETWEEN order S by UTF-8 bytes (which is code point order), N by
 *       value and B by unsigned bytes; on other types they are false.
 *   <li>{@code =} is deep equality: numbers by value, sets regardless of order.
 * </ul>
 */
final class Evaluator {
  private Evaluator() {}

  static boolean evaluate(ConditionExpression condition, Map<String, AttributeValue> item) {
    if (condition instanceof And and) {
      return evaluate(and.left(), item) && evaluate(and.right(), item);
    }
    if (condition instanceof Or or) {
      return evaluate(or.left(), item) || evaluate(or.right(), item);
    }
    if (condition instanceof Not not) {
      return !evaluate(not.operand(), item);
    }
    if (condition instanceof Comparison c) {
      AttributeValue left = value(c.left(), item);
      AttributeValue right = value(c.right(), item);
      // size() of an absent attribute (or of one without a size) matches nothing, not even <>,
      // where an absent attribute itself is unequal to every value.
      if ((left == null && c.left() instanceof Operand.Size)
          || (right == null && c.right() instanceof Operand.Size)) {
        return false;
      }
      return compare(c.comparator(), left, right);
    }
    if (condition instanceof Between b) {
      AttributeValue value = value(b.value(), item);
      AttributeValue low = value(b.low(), item);
      AttributeValue high = value(b.high(), item);
      return compare(ConditionExpression.Comparator.GE, value, low)
          && compare(ConditionExpression.Comparator.LE, value, high);
    }
    if (condition instanceof In in) {
      AttributeValue value = value(in.value(), item);
      if (value == null) {
        return false;
      }
      for (Operand candidate : in.candidates()) {
        if (equal(value, value(candidate, item))) {
          return true;
        }
      }
      return false;
    }
    return function((Function) condition, item);
  }

  private static boolean function(Function f, Map<String, AttributeValue> item) {
    List<Operand> args = f.arguments();
    AttributeValue first = value(args.get(0), item);
    switch (f.name()) {
      case ATTRIBUTE_EXISTS:
        return first != null;
      case ATTRIBUTE_NOT_EXISTS:
        return first == null;
      case ATTRIBUTE_TYPE: {
        AttributeValue type = value(args.get(1), item);
        return first != null
            && type instanceof AttributeValue.S s
            && first.type().equals(s.value());
      }
      case BEGINS_WITH:
        return beginsWith(first, value(args.get(1), item));
      case CONTAINS:
        return contains(first, value(args.get(1), item));
      default:
        throw new IllegalStateException("unknown function " + f.name());
    }
  }

  // ---- operands ------------------------------------------------------------------------------

  /** The value of an operand for an item, or null when absent. */
  static AttributeValue value(Operand operand, Map<String, AttributeValue> item) {
    if (operand instanceof Operand.ValueOperand v) {
      return v.value();
    }
    if (operand instanceof Operand.PathOperand p) {
      return resolve(p.path(), item);
    }
    AttributeValue value = resolve(((Operand.Size) operand).path(), item);
    Integer size = value == null ? null : size(value);
    return size == null ? null : new AttributeValue.N(Integer.toString(size));
  }

  /** The value at a document path, or null when any step is missing or of the wrong type. */
  static AttributeValue resolve(Path path, Map<String, AttributeValue> item) {
    List<Path.Element> elements = path.elements();
    AttributeValue current = item.get(path.attribute());
    for (int i = 1; i < elements.size() && current != null; i++) {
      Path.Element element = elements.get(i);
      if (element instanceof Path.Name name) {
        current = current instanceof AttributeValue.M m ? m.value().get(name.name()) : null;
      } else {
        int index = ((Path.Index) element).index();
        current = current instanceof AttributeValue.L l && index < l.value().size()
            ? l.value().get(index)
            : null;
      }
    }
    return current;
  }

  /**
   * DynamoDB's {@code size}: the length of a string in UTF-16 code units (as Java counts it: a
   * character outside the Basic Multilingual Plane counts 2), of a binary in bytes, the number of
   * elements of a set, list or map; null (no size) for N, BOOL and NULL.
   */
  static Integer size(AttributeValue value) {
    if (value instanceof AttributeValue.S s) {
      return s.value().length();
    }
    if (value instanceof AttributeValue.B b) {
      return b.value().length();
    }
    if (value instanceof AttributeValue.SS ss) {
      return ss.value().size();
    }
    if (value instanceof AttributeValue.NS ns) {
      return ns.value().size();
    }
    if (value instanceof AttributeValue.BS bs) {
      return bs.value().size();
    }
    if (value instanceof AttributeValue.L l) {
      return l.value().size();
    }
    if (value instanceof AttributeValue.M m) {
      return m.value().size();
    }
    return null;
  }

  // ---- comparisons ---------------------------------------------------------------------------

  static boolean compare(
      ConditionExpression.Comparator comparator, AttributeValue left, AttributeValue right) {
    switch (comparator) {
      case EQ:
        return left != null && right != null && equal(left, right);
      case NE:
        return !(left != null && right != null && equal(left, right));
      default:
        break;
    }
    if (left == null || right == null || !isOrdered(left)
        || !left.type().equals(right.type())) {
      return false;
    }
    int order = compare(left, right);
    switch (comparator) {
      case LT:
        return order < 0;
      case LE:
        return order <= 0;
      case GT:
        return order > 0;
      default:
        return order >= 0;
    }
  }

  /** S, N and B are the types with an order. */
  static boolean isOrdered(AttributeValue value) {
    return value instanceof AttributeValue.S
        || value instanceof AttributeValue.N
        || value instanceof AttributeValue.B;
  }

  /** Orders two values of the same ordered type (S, N or B). */
  static int compare(AttributeValue left, AttributeValue right) {
    if (left instanceof AttributeValue.S a && right instanceof AttributeValue.S b) {
      return compareUtf8(a.value(), b.value());
    }
    if (left instanceof AttributeValue.N a && right instanceof AttributeValue.N b) {
      return new BigDecimal(a.value()).compareTo(new BigDecimal(b.value()));
    }
    if (left instanceof AttributeValue.B a && right instanceof AttributeValue.B b) {
      return a.value().compareTo(b.value());
    }
    throw new IllegalArgumentException("not ordered: " + left.type() + ", " + right.type());
  }

  /**
   * UTF-8 byte order equals code point order, which differs from {@link String#compareTo}
   * (UTF-16 unit order) for characters above U+FFFF against U+E000..U+FFFF.
   */
  static int compareUtf8(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  /** DynamoDB's deep equality: same type, numbers by value, sets and maps regardless of order. */
  static boolean equal(AttributeValue left, AttributeValue right) {
    if (left == null || right == null || !left.type().equals(right.type())) {
      return false;
    }
    if (left instanceof AttributeValue.N a) {
      return numbersEqual(a.value(), ((AttributeValue.N) right).value());
    }
    if (left instanceof AttributeValue.NS a) {
      Set<String> b = ((AttributeValue.NS) right).value();
      if (a.value().size() != b.size()) {
        return false;
      }
      for (String number : a.value()) {
        if (!b.contains(number) && b.stream().noneMatch(n -> numbersEqual(n, number))) {
          return false;
        }
      }
      return true;
    }
    if (left instanceof AttributeValue.L a) {
      List<AttributeValue> b = ((AttributeValue.L) right).value();
      if (a.value().size() != b.size()) {
        return false;
      }
      for (int i = 0; i < b.size(); i++) {
        if (!equal(a.value().get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (left instanceof AttributeValue.M a) {
      Map<String, AttributeValue> b = ((AttributeValue.M) right).value();
      if (a.value().size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, AttributeValue> e : a.value().entrySet()) {
        if (!equal(e.getValue(), b.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    // S, B, BOOL, NULL, SS and BS: the records' equality is DynamoDB's (sets compare unordered).
    return left.equals(right);
  }

  private static boolean numbersEqual(String a, String b) {
    return a.equals(b) || new BigDecimal(a).compareTo(new BigDecimal(b)) == 0;
  }

  // ---- functions -----------------------------------------------------------------------------

  private static boolean beginsWith(AttributeValue value, AttributeValue prefix) {
    if (value instanceof AttributeValue.S s && prefix instanceof AttributeValue.S p) {
      return s.value().startsWith(p.value());
    }
    if (value instanceof AttributeValue.B b && prefix instanceof AttributeValue.B p) {
      byte[] bytes = b.value().unsafeArray();
      byte[] start = p.value().unsafeArray();
      return start.length <= bytes.length
          && Arrays.equals(bytes, 0, start.length, start, 0, start.length);
    }
    return false;
  }

  /**
   * {@code contains(path, operand)}: a substring of an S, a subsequence of a B, a member of a set
   * of the operand's type, or an element of a list (deep equality).
   */
  private static boolean contains(AttributeValue value, AttributeValue operand) {
    if (value == null || operand == null) {
      return false;
    }
    if (value instanceof AttributeValue.S s) {
      return operand instanceof AttributeValue.S o && s.value().contains(o.value());
    }
    if (value instanceof AttributeValue.B b) {
      return operand instanceof AttributeValue.B o && indexOf(b.value(), o.value()) >= 0;
    }
    if (value instanceof AttributeValue.SS ss) {
      return operand instanceof AttributeValue.S o && ss.value().contains(o.value());
    }
    if (value instanceof AttributeValue.NS ns) {
      if (!(operand instanceof AttributeValue.N o)) {
        return false;
      }
      for (String number : ns.value()) {
        if (numbersEqual(number, o.value())) {
          return true;
        }
      }
      return false;
    }
    if (value instanceof AttributeValue.BS bs) {
      return operand instanceof AttributeValue.B o && bs.value().contains(o.value());
    }
    if (value instanceof AttributeValue.L l) {
      for (AttributeValue element : l.value()) {
        if (equal(element, operand)) {
          return true;
        }
      }
    }
    return false;
  }

  private static int indexOf(Bytes haystack, Bytes needle) {
    byte[] h = haystack.unsafeArray();
    byte[] n = needle.unsafeArray();
    outer:
    for (int i = 0; i + n.length <= h.length; i++) {
      for (int j = 0; j < n.length; j++) {
        if (h[i + j] != n[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
