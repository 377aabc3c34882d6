package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * UpdateExpressions come from untrusted clients: whatever the text, parsing either succeeds or
 * throws a ValidationException, and applying a parsed update to an item either succeeds or throws
 * a ValidationException; nothing else may escape (no bug may become a 500).
 */
class UpdateFuzzTest {
  private static final List<String> SEEDS =
      List.of(
          "SET a = :n + b, #n.c[1] = list_append(if_not_exists(l, :l), :l) REMOVE x[0], x[2]",
          "ADD n :n, s :ss DELETE t :ss SET m.k = :s",
          "set a = (:n) - (b) remove c.d add e :n",
          "SET l[5] = :m, l[0].k = if_not_exists(l[1].k, :n) DELETE m.s :ss",
          "REMOVE a.b[1][2].c, #n");

  private static final List<String> FRAGMENTS =
      List.of(
          "SET", "set", "REMOVE", "ADD", "DELETE", "a", "b", "l", "m", "#n", "#x", ":n", ":s",
          ":l", ":m", ":ss", ":zz", "(", ")", "[", "]", "[0]", "[3]", "[99999999999]", ".", ",",
          "=", "+", "-", "<", "if_not_exists", "list_append", "size", "attribute_exists", "foo",
          "status", " ", "\t", "$", "#", ":", "1", "\uD83D\uDE00", "\uD83D", "\u0000", "\"");

  private static ExpressionContext context() {
    return new ExpressionContext(
        Map.of("#n", "name"),
        Map.of(
            ":n", AttributeValue.n("1"),
            ":s", AttributeValue.s("x"),
            ":l", AttributeValue.l(List.of(AttributeValue.n("2"))),
            ":m", AttributeValue.m(Map.of("k", AttributeValue.s("v"))),
            ":ss", AttributeValue.ss(List.of("x", "y"))));
  }

  /** An item in which many fuzzed paths resolve to something, of every shape. */
  private static final Map<String, AttributeValue> ITEM =
      Map.of(
          "a", AttributeValue.n("5"),
          "b", AttributeValue.s("s"),
          "l",
              AttributeValue.l(
                  List.of(
                      AttributeValue.m(Map.of("k", AttributeValue.n("1"))),
                      AttributeValue.ss(List.of("x")),
                      AttributeValue.l(List.of(AttributeValue.n("3"))))),
          "m",
              AttributeValue.m(
                  Map.of("k", AttributeValue.n("9"), "s", AttributeValue.ss(List.of("x")))),
          "name", AttributeValue.m(Map.of("c", AttributeValue.l(List.of()))),
          "s", AttributeValue.ss(List.of("y")));

  @Provide
  Arbitrary<String> randomText() {
    return Arbitraries.strings()
        .withChars("abl#:_.,[]()=+-< \t01SETREMOVADDLnmsz\uD83D\uDE00$")
        .ofMaxLength(60);
  }

  @Provide
  Arbitrary<String> tokenSoup() {
    return FuzzInputs.tokenSoup(FRAGMENTS);
  }

  @Provide
  Arbitrary<String> mutated() {
    return FuzzInputs.mutated(SEEDS, FRAGMENTS);
  }

  @Property
  void randomText(@ForAll("randomText") String text) {
    assertOnlyValidationErrors(text);
  }

  @Property
  void tokenSoup(@ForAll("tokenSoup") String text) {
    assertOnlyValidationErrors(text);
  }

  @Property
  void mutatedExpressions(@ForAll("mutated") String text) {
    assertOnlyValidationErrors(text);
  }

  @Property(tries = 30)
  void hugeAndDeeplyNestedInputs(@ForAll("tokenSoup") String text) {
    assertOnlyValidationErrors("SET a = " + "(".repeat(2000) + text + ")".repeat(2000));
    assertOnlyValidationErrors("SET a = " + "list_append(".repeat(300) + text);
    assertOnlyValidationErrors(text.repeat(200));
    assertOnlyValidationErrors("REMOVE a" + ".b".repeat(2000) + text);
  }

  @Example
  void theSeedsAreValidSoMutationsReachTheApplier() {
    for (String seed : SEEDS) {
      UpdateExpression update = Expressions.parseUpdate(seed, context());
      assertThat(update.actions()).hasSizeGreaterThan(1);
      assertOnlyValidationErrors(seed);
    }
  }

  private static void assertOnlyValidationErrors(String text) {
    UpdateExpression update;
    try {
      update = Expressions.parseUpdate(text, context());
    } catch (DynamoDbException e) {
      assertThat(e.type()).isEqualTo(ErrorType.ValidationException);
      assertThat(e.getMessage()).startsWith("Invalid UpdateExpression: ");
      return;
    }
    for (Map<String, AttributeValue> item : List.of(ITEM, Map.<String, AttributeValue>of())) {
      try {
        Map<String, AttributeValue> updated = Expressions.applyUpdate(update, item);
        Expressions.updatedAttributes(update, item);
        Expressions.updatedAttributes(update, updated);
      } catch (DynamoDbException e) {
        assertThat(e.type()).isEqualTo(ErrorType.ValidationException);
      }
    }
  }
}
