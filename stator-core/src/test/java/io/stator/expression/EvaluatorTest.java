package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvaluatorTest {
  private static final Map<String, AttributeValue> ITEM = item();

  private static Map<String, AttributeValue> item() {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("s", AttributeValue.s("hello"));
    item.put("uni", AttributeValue.s("h\u00e9\u20ac\uD83D\uDE00")); // 1 + 1 + 1 + 2 UTF-16 units
    item.put("n", AttributeValue.n("10"));
    item.put("b", AttributeValue.b(new byte[] {1, 2, (byte) 0xff}));
    item.put("t", AttributeValue.bool(true));
    item.put("nul", AttributeValue.NULL);
    item.put("ss", AttributeValue.ss(List.of("x", "y")));
    item.put("ns", AttributeValue.ns(List.of("1", "2.5")));
    item.put("bs", AttributeValue.bs(List.of(Bytes.of(new byte[] {7}))));
    item.put(
        "l",
        AttributeValue.l(List.of(AttributeValue.s("a"), AttributeValue.n("1"),
            AttributeValue.m(Map.of("k", AttributeValue.s("v"))))));
    item.put(
        "m",
        AttributeValue.m(Map.of(
            "inr", AttributeValue.m(Map.of("deep", AttributeValue.n("3"))),
            "lst", AttributeValue.l(List.of(AttributeValue.s("p"), AttributeValue.s("q"))))));
    return item;
  }

  private static boolean eval(String expression, Object... values) {
    Map<String, AttributeValue> v = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      v.put((String) values[i], (AttributeValue) values[i + 1]);
    }
    ExpressionContext context = new ExpressionContext(null, v.isEmpty() ? null : v);
    ConditionExpression condition = Expressions.parseCondition(expression, context, "ConditionExpression");
    return Expressions.evaluate(condition, ITEM);
  }

  private static AttributeValue n(String n) {
    return AttributeValue.n(n);
  }

  private static AttributeValue s(String s) {
    return AttributeValue.s(s);
  }

  @Test
  void numbersCompareByValue() {
    assertThat(eval("n = :v", ":v", n("10.0"))).isTrue();
    assertThat(eval("n = :v", ":v", n("1E1"))).isTrue();
    assertThat(eval("n < :v", ":v", n("9"))).isFalse();
    assertThat(eval("n > :v", ":v", n("9"))).isTrue();
    assertThat(eval("n >= :v", ":v", n("10"))).isTrue();
    assertThat(eval("n <= :v", ":v", n("-11"))).isFalse();
  }

  @Test
  void differentTypesAreNeverEqualNorOrdered() {
    assertThat(eval("n = :v", ":v", s("10"))).isFalse();
    assertThat(eval("n <> :v", ":v", s("10"))).isTrue();
    assertThat(eval("n < :v", ":v", s("99"))).isFalse();
    assertThat(eval("n > :v", ":v", s("1"))).isFalse();
  }

  @Test
  void orderingOnlyAppliesToStringsNumbersAndBinaries() {
    // A boolean or a set from the item orders with nothing: the condition is false.
    assertThat(eval("t <= :v", ":v", AttributeValue.n("1"))).isFalse();
    assertThat(eval("t = :v", ":v", AttributeValue.bool(true))).isTrue();
    assertThat(eval("ss >= :v", ":v", s("x"))).isFalse();
    assertThat(eval("b < :v", ":v", AttributeValue.b(new byte[] {1, 3}))).isTrue();
    // Unsigned bytes: 0xff sorts after 0x7f.
    assertThat(eval("b > :v", ":v", AttributeValue.b(new byte[] {1, 2, 0x7f}))).isTrue();
  }

  @Test
  void stringsCompareInUtf8ByteOrder() {
    // U+1F600 (4 UTF-8 bytes, a surrogate pair in UTF-16) sorts after U+FF5E in UTF-8 order,
    // though String.compareTo would put the surrogate first.
    assertThat(eval("s < :v", ":v", s("help"))).isTrue();
    AttributeValue high = s("\uD83D\uDE00");
    AttributeValue bmp = s("\uFF5E");
    assertThat(Evaluator.compare(high, bmp)).isPositive();
    assertThat("\uD83D\uDE00".compareTo("\uFF5E")).isNegative();
  }

  @Test
  void absentAttributes() {
    assertThat(eval("absent = :v", ":v", n("1"))).isFalse();
    assertThat(eval("absent <> :v", ":v", n("1"))).isTrue();
    assertThat(eval("absent < :v", ":v", n("1"))).isFalse();
    assertThat(eval("attribute_not_exists(absent)")).isTrue();
    assertThat(eval("attribute_exists(absent)")).isFalse();
    assertThat(eval("attribute_exists(s)")).isTrue();
    assertThat(eval("attribute_exists(nul)")).isTrue();
    assertThat(eval("attribute_exists(s.x)")).isFalse();
    assertThat(eval("attribute_exists(l[3])")).isFalse();
    assertThat(eval("absent IN (:v)", ":v", n("1"))).isFalse();
  }

  @Test
  void documentPathsResolveIntoMapsAndLists() {
    assertThat(eval("m.inr.deep = :v", ":v", n("3"))).isTrue();
    assertThat(eval("m.lst[1] = :v", ":v", s("q"))).isTrue();
    assertThat(eval("l[2].k = :v", ":v", s("v"))).isTrue();
    assertThat(eval("attribute_exists(m.lst[2])")).isFalse();
    assertThat(eval("attribute_exists(m[0])")).isFalse();
    assertThat(eval("attribute_exists(l.k)")).isFalse();
  }

  @Test
  void deepEquality() {
    assertThat(eval("ss = :v", ":v", AttributeValue.ss(List.of("y", "x")))).isTrue();
    assertThat(eval("ns = :v", ":v", AttributeValue.ns(List.of("2.50", "1")))).isTrue();
    assertThat(eval("ns = :v", ":v", AttributeValue.ns(List.of("2.5")))).isFalse();
    assertThat(eval("m.inr = :v", ":v", AttributeValue.m(Map.of("deep", n("3.0"))))).isTrue();
    assertThat(eval("l = :v", ":v", AttributeValue.l(List.of(s("a"), n("1"),
        AttributeValue.m(Map.of("k", s("v"))))))).isTrue();
    assertThat(eval("l = :v", ":v", AttributeValue.l(List.of(n("1"), s("a"),
        AttributeValue.m(Map.of("k", s("v"))))))).isFalse();
    assertThat(eval("nul = :v", ":v", AttributeValue.NULL)).isTrue();
  }

  @Test
  void betweenAndIn() {
    assertThat(eval("n BETWEEN :a AND :b", ":a", n("10"), ":b", n("11"))).isTrue();
    assertThat(eval("n BETWEEN :a AND :b", ":a", n("1"), ":b", n("9.99"))).isFalse();
    assertThat(eval("s BETWEEN :a AND :b", ":a", s("a"), ":b", s("i"))).isTrue();
    assertThat(eval("n IN (:a, :b)", ":a", s("10"), ":b", n("10"))).isTrue();
    assertThat(eval("n IN (:a, :b)", ":a", s("10"), ":b", n("11"))).isFalse();
  }

  @Test
  void beginsWith() {
    assertThat(eval("begins_with(s, :v)", ":v", s("hel"))).isTrue();
    assertThat(eval("begins_with(s, :v)", ":v", s(""))).isTrue();
    assertThat(eval("begins_with(s, :v)", ":v", s("ell"))).isFalse();
    assertThat(eval("begins_with(b, :v)", ":v", AttributeValue.b(new byte[] {1, 2}))).isTrue();
    assertThat(eval("begins_with(b, :v)", ":v", AttributeValue.b(new byte[] {2}))).isFalse();
    assertThat(eval("begins_with(ss, :v)", ":v", s("x"))).isFalse();
  }

  @Test
  void contains() {
    assertThat(eval("contains(s, :v)", ":v", s("ell"))).isTrue();
    assertThat(eval("contains(s, :v)", ":v", s("xyz"))).isFalse();
    assertThat(eval("contains(ss, :v)", ":v", s("x"))).isTrue();
    assertThat(eval("contains(ss, :v)", ":v", s("z"))).isFalse();
    assertThat(eval("contains(ns, :v)", ":v", n("2.50"))).isTrue();
    assertThat(eval("contains(ns, :v)", ":v", s("1"))).isFalse();
    assertThat(eval("contains(bs, :v)", ":v", AttributeValue.b(new byte[] {7}))).isTrue();
    assertThat(eval("contains(l, :v)", ":v", n("1.0"))).isTrue();
    assertThat(eval("contains(l, :v)", ":v", AttributeValue.m(Map.of("k", s("v"))))).isTrue();
    assertThat(eval("contains(l, :v)", ":v", s("b"))).isFalse();
    assertThat(eval("contains(b, :v)", ":v", AttributeValue.b(new byte[] {2, (byte) 0xff})))
        .isTrue();
    assertThat(eval("contains(n, :v)", ":v", n("1"))).isFalse();
    assertThat(eval("contains(absent, :v)", ":v", n("1"))).isFalse();
  }

  @Test
  void size() {
    assertThat(eval("size(s) = :v", ":v", n("5"))).isTrue();
    assertThat(eval("size(uni) = :v", ":v", n("5"))).isTrue();
    assertThat(eval("size(b) = :v", ":v", n("3"))).isTrue();
    assertThat(eval("size(ss) = :v", ":v", n("2"))).isTrue();
    assertThat(eval("size(ns) = :v", ":v", n("2"))).isTrue();
    assertThat(eval("size(bs) = :v", ":v", n("1"))).isTrue();
    assertThat(eval("size(l) = :v", ":v", n("3"))).isTrue();
    assertThat(eval("size(m) = :v", ":v", n("2"))).isTrue();
    assertThat(eval("size(n) >= :v", ":v", n("0"))).isFalse();
    assertThat(eval("size(t) >= :v", ":v", n("0"))).isFalse();
    assertThat(eval("size(absent) >= :v", ":v", n("0"))).isFalse();
    // no size matches nothing, not even <>
    assertThat(eval("size(absent) <> :v", ":v", n("0"))).isFalse();
    assertThat(eval("NOT size(absent) = :v", ":v", n("0"))).isTrue();
    assertThat(eval(":v <> size(n)", ":v", n("0"))).isFalse();
    assertThat(eval("size(m.lst) > size(ss)")).isFalse();
    assertThat(eval("size(l) > size(ss)")).isTrue();
  }

  @Test
  void attributeType() {
    String[][] cases = {
      {"s", "S"}, {"n", "N"}, {"b", "B"}, {"t", "BOOL"}, {"nul", "NULL"}, {"ss", "SS"},
      {"ns", "NS"}, {"bs", "BS"}, {"l", "L"}, {"m", "M"}
    };
    for (String[] c : cases) {
      assertThat(eval("attribute_type(" + c[0] + ", :t)", ":t", s(c[1]))).as(c[0]).isTrue();
      assertThat(eval("attribute_type(" + c[0] + ", :t)", ":t", s(c[1].equals("S") ? "N" : "S")))
          .as(c[0])
          .isFalse();
    }
    assertThat(eval("attribute_type(absent, :t)", ":t", s("S"))).isFalse();
  }

  @Test
  void logicalOperators() {
    assertThat(eval("attribute_exists(s) AND attribute_exists(n)")).isTrue();
    assertThat(eval("attribute_exists(s) AND attribute_exists(absent)")).isFalse();
    assertThat(eval("attribute_exists(absent) OR attribute_exists(n)")).isTrue();
    assertThat(eval("NOT attribute_exists(absent)")).isTrue();
    assertThat(eval("NOT attribute_exists(s) OR attribute_exists(n)")).isTrue();
    assertThat(eval("NOT (attribute_exists(s) OR attribute_exists(n))")).isFalse();
    assertThat(eval("attribute_exists(absent) AND attribute_exists(s) OR attribute_exists(n)"))
        .isTrue();
  }

  @Test
  void anEmptyItemSatisfiesOnlyAbsenceConditions() {
    ConditionExpression condition =
        Expressions.parseCondition(
            "attribute_not_exists(pk)", ExpressionContext.empty(), "ConditionExpression");
    assertThat(Expressions.evaluate(condition, Map.of())).isTrue();
  }
}
