package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpdaterTest {
  private static final String MISSING =
      "The provided expression refers to an attribute that does not exist in the item";
  private static final String INCORRECT_TYPE =
      "An operand in the update expression has an incorrect data type";
  private static final String INVALID_PATH =
      "The document path provided in the update expression is invalid for update";

  static AttributeValue n(String text) {
    return AttributeValue.n(text);
  }

  static AttributeValue s(String text) {
    return AttributeValue.s(text);
  }

  static AttributeValue l(AttributeValue... elements) {
    return AttributeValue.l(Arrays.asList(elements));
  }

  static AttributeValue ss(String... members) {
    return AttributeValue.ss(List.of(members));
  }

  static AttributeValue ns(String... members) {
    return AttributeValue.ns(List.of(members));
  }

  /** A map from alternating keys and values. */
  static Map<String, AttributeValue> map(Object... keysAndValues) {
    Map<String, AttributeValue> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], (AttributeValue) keysAndValues[i + 1]);
    }
    return map;
  }

  static AttributeValue m(Object... keysAndValues) {
    return AttributeValue.m(map(keysAndValues));
  }

  static ExpressionContext context() {
    Map<String, AttributeValue> values = new LinkedHashMap<>();
    values.put(":one", n("1"));
    values.put(":two", n("2"));
    values.put(":minus", n("-5"));
    values.put(":x", s("x"));
    values.put(":y", s("y"));
    values.put(":empty", l());
    values.put(":l", l(n("7"), n("8")));
    values.put(":m", m("k", n("1")));
    values.put(":ab", ss("a", "b"));
    values.put(":bc", ss("b", "c"));
    values.put(":ns", ns("1", "2"));
    values.put(":bs", AttributeValue.bs(List.of(Bytes.of(new byte[] {1}))));
    values.put(":max", n("9.9999999999999999999999999999999999999E+125"));
    values.put(":tiny", n("1E-130"));
    values.put(":tiny2", n("1.5E-130"));
    values.put(":big", n("1E+30"));
    values.put(":frac", n("1E-10"));
    return new ExpressionContext(Map.of("#k", "key"), values);
  }

  static Map<String, AttributeValue> apply(String expression, Map<String, AttributeValue> item) {
    return Expressions.applyUpdate(Expressions.parseUpdate(expression, context()), item);
  }

  static void assertFails(String expression, Map<String, AttributeValue> item, String message) {
    assertThatThrownBy(() -> apply(expression, item))
        .isInstanceOf(DynamoDbException.class)
        .hasMessage(message);
  }

  // ---- SET -----------------------------------------------------------------------------------

  @Test
  void setCreatesAndReplacesTopLevelAttributes() {
    Map<String, AttributeValue> old = map("a", n("5"), "b", s("b"));
    assertThat(apply("SET a = :x, c = :one", old))
        .containsExactly(Map.entry("a", s("x")), Map.entry("b", s("b")), Map.entry("c", n("1")));
    assertThat(old).containsEntry("a", n("5")).doesNotContainKey("c");
  }

  @Test
  void setOnAMissingItemCreatesIt() {
    assertThat(apply("SET a = :x ADD n :one", Map.of()))
        .isEqualTo(map("a", s("x"), "n", n("1")));
  }

  @Test
  void operandsAreReadFromTheOldItem() {
    assertThat(apply("SET a = b, b = a", map("a", n("1"), "b", n("2"))))
        .isEqualTo(map("a", n("2"), "b", n("1")));
    assertThat(apply("SET a = b REMOVE b", map("b", s("v")))).isEqualTo(map("a", s("v")));
    assertThat(apply("SET a = b.c[1]", map("b", m("c", l(n("0"), n("9"))))))
        .containsEntry("a", n("9"));
  }

  @Test
  void setReadingAMissingAttributeFails() {
    assertFails("SET a = b", map("a", n("1")), MISSING);
    assertFails("SET a = b.c", map("b", s("not a map")), MISSING);
    assertFails("SET a = b[3]", map("b", l(n("1"))), MISSING);
  }

  @Test
  void setNestedMapKeys() {
    Map<String, AttributeValue> old = map("a", m("b", n("1"), "c", m()));
    assertThat(apply("SET a.b = :two, a.c.d = :x, a.e = :one", old))
        .isEqualTo(map("a", m("b", n("2"), "c", m("d", s("x")), "e", n("1"))));
  }

  @Test
  void setNeedsTheParentToExistWithTheRightType() {
    assertFails("SET a.b = :one", map(), INVALID_PATH);
    assertFails("SET a.b.c = :one", map("a", m()), INVALID_PATH);
    assertFails("SET a.b = :one", map("a", s("s")), INVALID_PATH);
    assertFails("SET a.b = :one", map("a", l(m())), INVALID_PATH);
    assertFails("SET a[0] = :one", map("a", m("0", n("1"))), INVALID_PATH);
    assertFails("SET a[0] = :one", map(), INVALID_PATH);
    assertFails("SET a[3].b = :one", map("a", l(m())), INVALID_PATH);
  }

  @Test
  void setListElementsReplacesOrAppends() {
    Map<String, AttributeValue> old = map("a", l(n("0"), n("1")));
    assertThat(apply("SET a[1] = :x", old)).containsEntry("a", l(n("0"), s("x")));
    assertThat(apply("SET a[9] = :x", old)).containsEntry("a", l(n("0"), n("1"), s("x")));
    // Appends keep the order of their indexes, not of the actions.
    assertThat(apply("SET a[20] = :y, a[5] = :x", old))
        .containsEntry("a", l(n("0"), n("1"), s("x"), s("y")));
    assertThat(apply("SET a[0] = :x", map("a", l()))).containsEntry("a", l(s("x")));
    assertThat(apply("SET a[0].k = :x", map("a", l(m())))).containsEntry("a", l(m("k", s("x"))));
  }

  @Test
  void setWithPlaceholderNames() {
    assertThat(apply("SET #k = :one", map())).isEqualTo(map("key", n("1")));
  }

  // ---- arithmetic ----------------------------------------------------------------------------

  @Test
  void arithmeticOnNumbers() {
    Map<String, AttributeValue> old = map("n", n("10"), "f", n("0.25"));
    assertThat(apply("SET n = n + :one", old)).containsEntry("n", n("11"));
    assertThat(apply("SET n = :one - n", old)).containsEntry("n", n("-9"));
    assertThat(apply("SET n = n - f", old)).containsEntry("n", n("9.75"));
    assertThat(apply("SET n = n + :minus", old)).containsEntry("n", n("5"));
    assertThat(apply("SET n = f - f", old)).containsEntry("n", n("0"));
    assertThat(apply("SET x = :one + :two", old)).containsEntry("x", n("3"));
  }

  @Test
  void arithmeticNeedsNumbers() {
    assertFails("SET n = n + :one", map("n", s("10")), INCORRECT_TYPE);
    assertFails("SET n = :one - n", map("n", ss("1")), INCORRECT_TYPE);
    assertFails("SET n = n + :one", map(), MISSING);
    assertFails("SET n = list_append(:l, :l) + :one", map(), INCORRECT_TYPE);
  }

  @Test
  void arithmeticKeepsDynamoDbsNumberRules() {
    assertFails(
        "SET n = :max + :max",
        map(),
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
    assertFails(
        "SET n = :tiny2 - :tiny",
        map("x", n("1")),
        "Number underflow. Attempting to store a number with magnitude smaller than supported "
            + "range");
    // Arithmetic is exact, to 38 significant digits: 1E30 + 1E-10 would need 41, and DynamoDB
    // refuses it (in its overflow words) rather than round it.
    assertFails(
        "SET n = :big + :frac",
        map(),
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
    assertThat(apply("SET n = :frac + :one", map())).containsEntry("n", n("1.0000000001"));
    assertThat(apply("SET n = :max - :max", map())).containsEntry("n", n("0"));
  }

  // ---- functions -----------------------------------------------------------------------------

  @Test
  void ifNotExists() {
    assertThat(apply("SET a = if_not_exists(a, :one)", map())).containsEntry("a", n("1"));
    assertThat(apply("SET a = if_not_exists(a, :one)", map("a", s("x"))))
        .containsEntry("a", s("x"));
    assertThat(apply("SET a = if_not_exists(b.c, :one)", map("b", m("c", n("4")))))
        .containsEntry("a", n("4"));
    assertThat(apply("SET n = if_not_exists(n, :one) + :two", map())).containsEntry("n", n("3"));
    assertFails("SET a = if_not_exists(a, b)", map(), MISSING);
  }

  @Test
  void listAppend() {
    Map<String, AttributeValue> old = map("a", l(s("x")));
    assertThat(apply("SET a = list_append(a, :l)", old))
        .containsEntry("a", l(s("x"), n("7"), n("8")));
    assertThat(apply("SET a = list_append(:l, a)", old))
        .containsEntry("a", l(n("7"), n("8"), s("x")));
    assertThat(apply("SET b = list_append(if_not_exists(b, :empty), :l)", old))
        .containsEntry("b", l(n("7"), n("8")));
    assertFails("SET b = list_append(b, :l)", old, MISSING);
    assertFails("SET a = list_append(a, c)", map("a", l(), "c", ss("x")), INCORRECT_TYPE);
    assertFails("SET a = list_append(a, :l)", map("a", s("x")), INCORRECT_TYPE);
  }

  // ---- REMOVE --------------------------------------------------------------------------------

  @Test
  void removeAttributesAndMapKeys() {
    Map<String, AttributeValue> old = map("a", m("b", n("1"), "c", n("2")), "d", n("3"));
    assertThat(apply("REMOVE d, a.b", old)).isEqualTo(map("a", m("c", n("2"))));
    assertThat(apply("REMOVE a.b, a.c", old)).isEqualTo(map("a", m(), "d", n("3")));
  }

  @Test
  void removeOfAMissingAttributeIsFine() {
    Map<String, AttributeValue> old = map("a", m(), "l", l(n("0")));
    assertThat(apply("REMOVE x, a.x, l[5]", old)).isEqualTo(old);
  }

  @Test
  void removeWithAMissingParentFails() {
    assertFails("REMOVE a.b", map(), INVALID_PATH);
    assertFails("REMOVE a[0]", map("a", s("x")), INVALID_PATH);
  }

  @Test
  void removeListElementsByTheirOldPositions() {
    Map<String, AttributeValue> old = map("a", l(n("0"), n("1"), n("2"), n("3")));
    assertThat(apply("REMOVE a[1], a[2]", old)).containsEntry("a", l(n("0"), n("3")));
    assertThat(apply("REMOVE a[3], a[0]", old)).containsEntry("a", l(n("1"), n("2")));
    assertThat(apply("REMOVE a[0] SET a[1] = :x", old))
        .containsEntry("a", l(s("x"), n("2"), n("3")));
    assertThat(apply("REMOVE a[0] SET a[7] = :x", old))
        .containsEntry("a", l(n("1"), n("2"), n("3"), s("x")));
    assertThat(apply("REMOVE a[0], a[1], a[2], a[3]", old)).containsEntry("a", l());
  }

  @Test
  void removeInsideListElements() {
    Map<String, AttributeValue> old = map("a", l(m("k", n("1"), "j", n("2")), n("5")));
    assertThat(apply("REMOVE a[0].k, a[1]", old)).containsEntry("a", l(m("j", n("2"))));
  }

  // ---- ADD -----------------------------------------------------------------------------------

  @Test
  void addToNumbers() {
    assertThat(apply("ADD n :two", map("n", n("1")))).containsEntry("n", n("3"));
    assertThat(apply("ADD n :minus", map("n", n("1")))).containsEntry("n", n("-4"));
    assertThat(apply("ADD n :two", map())).containsEntry("n", n("2"));
    assertThat(apply("ADD a.n :two", map("a", m()))).containsEntry("a", m("n", n("2")));
    assertThat(apply("ADD a[0] :two", map("a", l(n("1"))))).containsEntry("a", l(n("3")));
    assertFails("ADD n :max", map("n", n("9E+125")), "Number overflow. Attempting to store a "
        + "number with magnitude larger than supported range");
  }

  @Test
  void addToSets() {
    assertThat(apply("ADD s :bc", map("s", ss("a", "b")))).containsEntry("s", ss("a", "b", "c"));
    assertThat(apply("ADD s :ab", map())).containsEntry("s", ss("a", "b"));
    assertThat(apply("ADD s :ns", map("s", ns("2", "3")))).containsEntry("s", ns("2", "3", "1"));
    assertThat(apply("ADD s :bs", map("s", AttributeValue.bs(List.of(Bytes.of(new byte[] {2}))))))
        .containsEntry(
            "s",
            AttributeValue.bs(List.of(Bytes.of(new byte[] {2}), Bytes.of(new byte[] {1}))));
  }

  @Test
  void addNeedsMatchingTypes() {
    assertFails("ADD n :one", map("n", s("1")), INCORRECT_TYPE);
    assertFails("ADD n :one", map("n", ns("1")), INCORRECT_TYPE);
    assertFails("ADD s :ab", map("s", ns("1")), INCORRECT_TYPE);
    assertFails("ADD s :ab", map("s", l(s("a"))), INCORRECT_TYPE);
    assertFails("ADD s :ab", map("s", n("1")), INCORRECT_TYPE);
    assertFails("ADD a.n :one", map(), INVALID_PATH);
  }

  // ---- DELETE --------------------------------------------------------------------------------

  @Test
  void deleteFromSets() {
    assertThat(apply("DELETE s :bc", map("s", ss("a", "b")))).containsEntry("s", ss("a"));
    assertThat(apply("DELETE s :ns", map("s", ns("3", "1")))).containsEntry("s", ns("3"));
    assertThat(apply("DELETE s :ab", map("s", ss("z")))).containsEntry("s", ss("z"));
  }

  @Test
  void deletingTheLastElementsRemovesTheAttribute() {
    assertThat(apply("DELETE s :ab", map("s", ss("a"), "t", n("1")))).isEqualTo(map("t", n("1")));
    assertThat(apply("DELETE a.s :ab", map("a", m("s", ss("b", "a"))))).isEqualTo(map("a", m()));
    assertThat(apply("DELETE a[0] :ab", map("a", l(ss("a"), n("1")))))
        .isEqualTo(map("a", l(n("1"))));
  }

  @Test
  void deleteFromAMissingAttributeDoesNothing() {
    assertThat(apply("DELETE s :ab", map("t", n("1")))).isEqualTo(map("t", n("1")));
  }

  @Test
  void deleteNeedsASetOfTheSameType() {
    assertFails("DELETE s :ab", map("s", s("a")), INCORRECT_TYPE);
    assertFails("DELETE s :ab", map("s", ns("1")), INCORRECT_TYPE);
    assertFails("DELETE s :ns", map("s", l(n("1"))), INCORRECT_TYPE);
    assertFails("DELETE a.s :ab", map(), INVALID_PATH);
  }

  // ---- order of errors and ReturnValues ------------------------------------------------------

  @Test
  void setValuesAreEvaluatedBeforePathsAreChecked() {
    assertFails("REMOVE x.y SET a = b", map(), MISSING);
    // Then the actions run in order, each checking its path, then its operand type.
    assertFails("ADD n :one SET a.b = :one", map("n", s("1")), INCORRECT_TYPE);
    assertFails("SET a.b = :one ADD n :one", map("n", s("1")), INVALID_PATH);
  }

  @Test
  void updatedAttributesAreTheProjectionOntoTheActionPaths() {
    Map<String, AttributeValue> old =
        map("a", m("b", n("1"), "c", n("2")), "l", l(n("0"), n("1")), "r", s("gone"), "k", n("9"));
    UpdateExpression update =
        Expressions.parseUpdate("SET a.b = :two, l[1] = :x, n = :one REMOVE r", context());
    Map<String, AttributeValue> updated = Expressions.applyUpdate(update, old);
    assertThat(Expressions.updatedAttributes(update, old))
        .isEqualTo(map("a", m("b", n("1")), "l", l(n("1")), "r", s("gone")));
    assertThat(Expressions.updatedAttributes(update, updated))
        .isEqualTo(map("a", m("b", n("2")), "l", l(s("x")), "n", n("1")));
  }

  @Test
  void handBuiltUpdatesWithOverlappingPathsDoNotCrash() {
    // The engine may build updates without the parser (legacy AttributeUpdates).
    Path a = Path.of("a");
    Operand.ValueOperand one = new Operand.ValueOperand(":one", n("1"));
    UpdateExpression update = new UpdateExpression(List.of(new UpdateExpression.Add(a, one), new UpdateExpression.Add(a, one)));
    assertThat(Expressions.applyUpdate(update, map())).containsEntry("a", n("2"));
  }
}
