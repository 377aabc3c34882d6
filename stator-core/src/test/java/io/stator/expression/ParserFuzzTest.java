package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Expressions come from untrusted clients: whatever the text, parsing either succeeds or throws
 * a ValidationException, never anything else (no parser bug may become a 500).
 */
class ParserFuzzTest {
  private static final List<String> SEEDS =
      List.of(
          "a = :v AND (b.c[1] <> :w OR NOT attribute_exists(#n))",
          "size(a.b) BETWEEN :v AND :w",
          "a IN (:v, :w, b[0])",
          "begins_with(#n.x, :s) AND contains(l, :v)",
          "attribute_type(a, :t) OR attribute_not_exists(b)",
          "a.b[2].c, #n, d[0][1]",
          "((a = :v) AND (b < :w)) OR c >= :v");

  private static final List<String> FRAGMENTS =
      List.of(
          "a", "b", "#n", "#x", ":v", ":w", ":s", ":t", ":zz", "(", ")", "[", "]", "[0]",
          "[99999999999]", ".", ",", "=", "<>", "<", "<=", ">", ">=", "AND", "or", "NOT",
          "BETWEEN", "IN", "size", "begins_with", "contains", "attribute_exists",
          "attribute_type", "status", " ", "  ", "\t", "$", "#", ":", "1", "\uD83D\uDE00",
          "\uD83D", "\u0000", "\"", "'", "+", "-");

  private static ExpressionContext context() {
    return new ExpressionContext(
        Map.of("#n", "name"),
        Map.of(
            ":v", AttributeValue.n("1"),
            ":w", AttributeValue.n("2"),
            ":s", AttributeValue.s("x"),
            ":t", AttributeValue.s("S")));
  }

  @Provide
  Arbitrary<String> randomText() {
    return Arbitraries.strings().withChars("ab#:_.,[]()=<>! \t01NOTandorBETWEENIN\uD83D\uDE00$")
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

  @Property(tries = 50)
  void hugeAndDeeplyNestedInputs(@ForAll("tokenSoup") String text) {
    assertOnlyValidationErrors("(".repeat(3000) + text + ")".repeat(3000));
    assertOnlyValidationErrors("NOT ".repeat(1000) + text);
    assertOnlyValidationErrors(text.repeat(200));
    assertOnlyValidationErrors("a" + ".b".repeat(2000) + text);
  }

  private static void assertOnlyValidationErrors(String text) {
    for (int mode = 0; mode < 2; mode++) {
      try {
        if (mode == 0) {
          Expressions.parseCondition(text, context(), "ConditionExpression");
        } else {
          Expressions.parseProjection(text, context());
        }
      } catch (DynamoDbException e) {
        assertThat(e.type()).isEqualTo(ErrorType.ValidationException);
        assertThat(e.getMessage())
            .startsWith(mode == 0 ? "Invalid ConditionExpression: " : "Invalid ProjectionExpression: ");
      }
    }
  }
}
