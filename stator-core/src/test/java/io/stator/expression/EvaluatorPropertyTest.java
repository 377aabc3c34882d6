package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Compares the evaluator with a small reference model on random items and conditions. The
 * reference works on a canonical text form of each value and on Java's own byte and decimal
 * comparisons, so it shares no code with the engine. jqwik prints the seed of any failure.
 */
class EvaluatorPropertyTest {

  // ---- a test-only condition tree, rendered to expression text -------------------------------

  sealed interface Cond permits Cmp, Between, In, Fn, And, Or, Not {}

  record Cmp(String op, String path, boolean size, AttributeValue value) implements Cond {}

  record Between(String path, AttributeValue low, AttributeValue high) implements Cond {}

  record In(String path, List<AttributeValue> values) implements Cond {}

  /** exists, not_exists, begins_with, contains, type. */
  record Fn(String name, String path, AttributeValue value) implements Cond {}

  record And(Cond left, Cond right) implements Cond {}

  record Or(Cond left, Cond right) implements Cond {}

  record Not(Cond operand) implements Cond {}

  private static final String[] PATHS = {"a", "b", "m.x", "m.y", "l[0]", "l[1]", "zz"};
  private static final String[] TYPES = {"S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"};

  // ---- generators ----------------------------------------------------------------------------

  static Arbitrary<AttributeValue> scalar() {
    return Arbitraries.oneOf(
        Arbitraries.of("", "a", "ab", "b", "\u00e9", "\uD83D\uDE00", "\uFF5E", "a\uFF5E")
            .map(AttributeValue::s),
        Arbitraries.of("0", "1", "1.0", "-1", "2.5", "10", "1E1", "-0.5").map(AttributeValue::n),
        Arbitraries.of(new byte[] {}, new byte[] {1}, new byte[] {1, 2}, new byte[] {(byte) 0xff})
            .map(AttributeValue::b),
        Arbitraries.of(true, false).map(AttributeValue::bool),
        Arbitraries.just(AttributeValue.NULL));
  }

  static Arbitrary<AttributeValue> value() {
    return Arbitraries.oneOf(
        scalar(),
        scalar(),
        Arbitraries.of("a", "b", "ab").set().ofMinSize(1).ofMaxSize(3).map(AttributeValue::ss),
        Arbitraries.of("1", "1.0", "2.5", "-1").list().ofMinSize(1).ofMaxSize(3)
            .map(l -> AttributeValue.ns(new TreeSet<>(l.stream()
                .map(n -> new BigDecimal(n).stripTrailingZeros().toPlainString()).toList()))),
        Arbitraries.of(new byte[] {1}, new byte[] {2}).list().ofMinSize(1).ofMaxSize(2)
            .map(l -> AttributeValue.bs(l.stream().map(Bytes::of).distinct().toList())),
        scalar().list().ofMaxSize(3).map(AttributeValue::l),
        Combinators.combine(scalar().optional(), scalar().optional())
            .as((x, y) -> {
              Map<String, AttributeValue> m = new LinkedHashMap<>();
              x.ifPresent(v -> m.put("x", v));
              y.ifPresent(v -> m.put("y", v));
              return AttributeValue.m(m);
            }));
  }

  @Provide
  Arbitrary<Map<String, AttributeValue>> items() {
    return Combinators.combine(
            value().optional(), value().optional(), value().optional(), value().optional())
        .as((a, b, m, l) -> {
          Map<String, AttributeValue> item = new LinkedHashMap<>();
          a.ifPresent(v -> item.put("a", v));
          b.ifPresent(v -> item.put("b", v));
          m.ifPresent(v -> item.put("m", v));
          l.ifPresent(v -> item.put("l", v));
          return item;
        });
  }

  static Arbitrary<Cond> leaf() {
    Arbitrary<String> path = Arbitraries.of(PATHS);
    return Arbitraries.oneOf(
        Combinators.combine(Arbitraries.of("=", "<>"), path, value())
            .as((op, p, v) -> (Cond) new Cmp(op, p, false, v)),
        // An ordering comparison of a constant it cannot order is refused at parse time.
        Combinators.combine(Arbitraries.of("<", "<=", ">", ">="), path, ordered())
            .as((op, p, v) -> (Cond) new Cmp(op, p, false, v)),
        Combinators.combine(
                Arbitraries.of("=", "<>", "<", "<=", ">", ">="),
                path,
                Arbitraries.integers().between(0, 4))
            .as((op, p, n) -> (Cond) new Cmp(op, p, true, AttributeValue.n(n.toString()))),
        Combinators.combine(path, ordered(), ordered())
            .as((p, x, y) -> (Cond) between(p, x, y)),
        Combinators.combine(path, value().list().ofMinSize(1).ofMaxSize(3))
            .as((p, vs) -> (Cond) new In(p, vs)),
        path.map(p -> (Cond) new Fn("attribute_exists", p, null)),
        path.map(p -> (Cond) new Fn("attribute_not_exists", p, null)),
        Combinators.combine(path, scalar().filter(v -> v.type().equals("S") || v.type().equals("B")))
            .as((p, v) -> (Cond) new Fn("begins_with", p, v)),
        Combinators.combine(path, value()).as((p, v) -> (Cond) new Fn("contains", p, v)),
        Combinators.combine(path, Arbitraries.of(TYPES))
            .as((p, t) -> (Cond) new Fn("attribute_type", p, AttributeValue.s(t))));
  }

  /** Constants of the types that order: strings, numbers, binaries. */
  static Arbitrary<AttributeValue> ordered() {
    return scalar().filter(Reference::ordered);
  }

  /** BETWEEN with same-typed, ordered bounds (others are rejected at parse time). */
  static Cond between(String path, AttributeValue x, AttributeValue y) {
    if (!x.type().equals(y.type())) {
      return new Between(path, x, x);
    }
    return Reference.order(x, y) <= 0 ? new Between(path, x, y) : new Between(path, y, x);
  }

  @Provide
  Arbitrary<Cond> conditions() {
    return conditions(3);
  }

  static Arbitrary<Cond> conditions(int depth) {
    if (depth == 0) {
      return leaf();
    }
    Arbitrary<Cond> sub = conditions(depth - 1);
    return Arbitraries.oneOf(
        leaf(),
        Combinators.combine(sub, sub).as((l, r) -> (Cond) new And(l, r)),
        Combinators.combine(sub, sub).as((l, r) -> (Cond) new Or(l, r)),
        sub.map(c -> (Cond) new Not(c)));
  }

  // ---- the property --------------------------------------------------------------------------

  @Property(tries = 1500)
  void evaluatorAgreesWithTheReference(
      @ForAll("conditions") Cond cond, @ForAll("items") Map<String, AttributeValue> item) {
    Map<String, AttributeValue> values = new LinkedHashMap<>();
    String text = render(cond, values);
    ExpressionContext context = new ExpressionContext(null, values.isEmpty() ? null : values);
    ConditionExpression parsed = Expressions.parseCondition(text, context, "ConditionExpression");
    context.checkAllUsed();
    assertThat(Expressions.evaluate(parsed, item))
        .as("%s on %s", text, item)
        .isEqualTo(Reference.eval(cond, item));
  }

  private static String render(Cond cond, Map<String, AttributeValue> values) {
    if (cond instanceof And c) {
      return "(" + render(c.left(), values) + ") AND (" + render(c.right(), values) + ")";
    }
    if (cond instanceof Or c) {
      return "(" + render(c.left(), values) + ") OR (" + render(c.right(), values) + ")";
    }
    if (cond instanceof Not c) {
      return "NOT (" + render(c.operand(), values) + ")";
    }
    if (cond instanceof Cmp c) {
      String left = c.size() ? "size(" + c.path() + ")" : c.path();
      return left + " " + c.op() + " " + placeholder(c.value(), values);
    }
    if (cond instanceof Between c) {
      return c.path() + " BETWEEN " + placeholder(c.low(), values) + " AND "
          + placeholder(c.high(), values);
    }
    if (cond instanceof In c) {
      return c.path() + " IN (" + c.values().stream().map(v -> placeholder(v, values))
          .collect(Collectors.joining(", ")) + ")";
    }
    Fn f = (Fn) cond;
    return f.value() == null
        ? f.name() + "(" + f.path() + ")"
        : f.name() + "(" + f.path() + ", " + placeholder(f.value(), values) + ")";
  }

  private static String placeholder(AttributeValue value, Map<String, AttributeValue> values) {
    String name = ":v" + values.size();
    values.put(name, value);
    return name;
  }

  // ---- the reference model -------------------------------------------------------------------

  static final class Reference {
    static boolean eval(Cond cond, Map<String, AttributeValue> item) {
      if (cond instanceof And c) {
        return eval(c.left(), item) && eval(c.right(), item);
      }
      if (cond instanceof Or c) {
        return eval(c.left(), item) || eval(c.right(), item);
      }
      if (cond instanceof Not c) {
        return !eval(c.operand(), item);
      }
      if (cond instanceof Cmp c) {
        AttributeValue left = lookup(item, c.path());
        if (c.size()) {
          Integer size = left == null ? null : size(left);
          if (size == null) {
            return false; // no size matches nothing
          }
          left = AttributeValue.n(size.toString());
        }
        return cmp(c.op(), left, c.value());
      }
      if (cond instanceof Between c) {
        AttributeValue v = lookup(item, c.path());
        return cmp(">=", v, c.low()) && cmp("<=", v, c.high());
      }
      if (cond instanceof In c) {
        AttributeValue v = lookup(item, c.path());
        return c.values().stream().anyMatch(x -> cmp("=", v, x));
      }
      Fn f = (Fn) cond;
      AttributeValue v = lookup(item, f.path());
      switch (f.name()) {
        case "attribute_exists":
          return v != null;
        case "attribute_not_exists":
          return v == null;
        case "attribute_type":
          return v != null && v.type().equals(((AttributeValue.S) f.value()).value());
        case "begins_with":
          if (v == null || !v.type().equals(f.value().type())) {
            return false;
          }
          return v instanceof AttributeValue.S s
              ? s.value().startsWith(((AttributeValue.S) f.value()).value())
              : canonical(v).startsWith(canonical(f.value()));
        default:
          return contains(v, f.value());
      }
    }

    static AttributeValue lookup(Map<String, AttributeValue> item, String path) {
      switch (path) {
        case "m.x":
        case "m.y":
          return item.get("m") instanceof AttributeValue.M m
              ? m.value().get(path.substring(2)) : null;
        case "l[0]":
        case "l[1]":
          int index = path.charAt(2) - '0';
          return item.get("l") instanceof AttributeValue.L l && l.value().size() > index
              ? l.value().get(index) : null;
        default:
          return item.get(path);
      }
    }

    static Integer size(AttributeValue v) {
      if (v instanceof AttributeValue.S s) {
        return s.value().length();
      }
      if (v instanceof AttributeValue.B b) {
        return b.value().length();
      }
      if (v instanceof AttributeValue.SS x) {
        return x.value().size();
      }
      if (v instanceof AttributeValue.NS x) {
        return x.value().size();
      }
      if (v instanceof AttributeValue.BS x) {
        return x.value().size();
      }
      if (v instanceof AttributeValue.L x) {
        return x.value().size();
      }
      if (v instanceof AttributeValue.M x) {
        return x.value().size();
      }
      return null;
    }

    static boolean cmp(String op, AttributeValue l, AttributeValue r) {
      boolean eq = l != null && r != null && canonical(l).equals(canonical(r));
      switch (op) {
        case "=":
          return eq;
        case "<>":
          return !eq;
        default:
          break;
      }
      if (l == null || r == null || !l.type().equals(r.type()) || !ordered(l)) {
        return false;
      }
      int o = order(l, r);
      return switch (op) {
        case "<" -> o < 0;
        case "<=" -> o <= 0;
        case ">" -> o > 0;
        default -> o >= 0;
      };
    }

    static boolean ordered(AttributeValue v) {
      return Objects.equals(v.type(), "S") || v.type().equals("N") || v.type().equals("B");
    }

    static int order(AttributeValue l, AttributeValue r) {
      if (l instanceof AttributeValue.N a) {
        return new BigDecimal(a.value()).compareTo(new BigDecimal(((AttributeValue.N) r).value()));
      }
      byte[] x = l instanceof AttributeValue.S s
          ? s.value().getBytes(StandardCharsets.UTF_8)
          : ((AttributeValue.B) l).value().toByteArray();
      byte[] y = r instanceof AttributeValue.S s
          ? s.value().getBytes(StandardCharsets.UTF_8)
          : ((AttributeValue.B) r).value().toByteArray();
      return Arrays.compareUnsigned(x, y);
    }

    static boolean contains(AttributeValue v, AttributeValue x) {
      if (v == null) {
        return false;
      }
      if (v instanceof AttributeValue.S s) {
        return x instanceof AttributeValue.S o && s.value().contains(o.value());
      }
      if (v instanceof AttributeValue.B b) {
        return x instanceof AttributeValue.B o
            && canonical(v).contains(canonical(o));
      }
      if (v instanceof AttributeValue.L l) {
        return l.value().stream().anyMatch(e -> canonical(e).equals(canonical(x)));
      }
      if (v instanceof AttributeValue.SS || v instanceof AttributeValue.NS
          || v instanceof AttributeValue.BS) {
        String memberType = v.type().substring(0, 1);
        return x.type().equals(memberType)
            && members(v).contains(canonical(x).substring(memberType.length() + 1));
      }
      return false;
    }

    /** A text form in which equal DynamoDB values, and only those, are equal strings. */
    static String canonical(AttributeValue v) {
      if (v instanceof AttributeValue.S s) {
        return "S:" + s.value();
      }
      if (v instanceof AttributeValue.N n) {
        return "N:" + number(n.value());
      }
      if (v instanceof AttributeValue.B b) {
        return "B:" + hex(b.value());
      }
      if (v instanceof AttributeValue.Bool b) {
        return "BOOL:" + b.value();
      }
      if (v instanceof AttributeValue.Null) {
        return "NULL";
      }
      if (v instanceof AttributeValue.L l) {
        List<String> parts = new ArrayList<>();
        l.value().forEach(e -> parts.add(canonical(e)));
        return "L:" + parts;
      }
      if (v instanceof AttributeValue.M m) {
        TreeMap<String, String> parts = new TreeMap<>();
        m.value().forEach((k, e) -> parts.put(k, canonical(e)));
        return "M:" + parts;
      }
      return v.type() + ":" + members(v);
    }

    static TreeSet<String> members(AttributeValue v) {
      TreeSet<String> set = new TreeSet<>();
      if (v instanceof AttributeValue.SS s) {
        set.addAll(s.value());
      } else if (v instanceof AttributeValue.NS n) {
        n.value().forEach(x -> set.add(number(x)));
      } else {
        ((AttributeValue.BS) v).value().forEach(b -> set.add(hex(b)));
      }
      return set;
    }

    static String number(String text) {
      BigDecimal d = new BigDecimal(text);
      return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    static String hex(Bytes bytes) {
      StringBuilder sb = new StringBuilder();
      for (byte b : bytes.toByteArray()) {
        sb.append(String.format("%02x", b & 0xff));
      }
      return sb.toString();
    }
  }
}
