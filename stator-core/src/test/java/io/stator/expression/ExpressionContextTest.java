package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.value.AttributeValue;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpressionContextTest {

  private static Map<String, String> names(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }

  private static Map<String, AttributeValue> values(String... keys) {
    Map<String, AttributeValue> map = new LinkedHashMap<>();
    for (String key : keys) {
      map.put(key, AttributeValue.s("v" + key));
    }
    return map;
  }

  private static void assertValidation(Runnable action, String message) {
    assertThatThrownBy(action::run)
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException))
        .hasMessage(message);
  }

  @Test
  void emptyMapsGivenExplicitlyAreRejected() {
    assertValidation(
        () -> new ExpressionContext(Map.of(), null), "ExpressionAttributeNames must not be empty");
    assertValidation(
        () -> new ExpressionContext(null, Map.of()),
        "ExpressionAttributeValues must not be empty");
  }

  @Test
  void keysMustBePlaceholders() {
    assertValidation(
        () -> new ExpressionContext(names("a", "b"), null),
        "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"");
    assertValidation(
        () -> new ExpressionContext(null, values(":a-b")),
        "ExpressionAttributeValues contains invalid key: Syntax error; key: \":a-b\"");
    assertValidation(
        () -> new ExpressionContext(names("#", "b"), null),
        "ExpressionAttributeNames contains invalid key: Syntax error; key: \"#\"");
  }

  @Test
  void absentMapsAreEmpty() {
    ExpressionContext context = ExpressionContext.empty();
    assertThat(context.names()).isEmpty();
    assertThat(context.values()).isEmpty();
    context.checkAllUsed();
  }

  @Test
  void resolvesPlaceholdersAndRecordsUse() {
    ExpressionContext context = new ExpressionContext(names("#a", "alpha"), values(":x"));
    assertThat(context.resolveName("#a")).isEqualTo("alpha");
    assertThat(context.resolveName("#b")).isNull();
    assertThat(context.resolveValue(":x")).isEqualTo(AttributeValue.s("v:x"));
    assertThat(context.usedNames()).containsExactly("#a");
    assertThat(context.usedValues()).containsExactly(":x");
    context.checkAllUsed();
  }

  @Test
  void unusedNamesAreReportedInRequestOrderBeforeValues() {
    ExpressionContext context =
        new ExpressionContext(names("#b", "x", "#used", "y", "#a", "z"), values(":x"));
    Expressions.parseCondition("#used = :x", context, "ConditionExpression");
    assertThat(context.usedValues()).containsExactly(":x");
    assertValidation(
        context::checkAllUsed,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b, #a}");
  }

  @Test
  void unusedValuesAreReported() {
    ExpressionContext context = new ExpressionContext(names("#n", "x"), values(":x", ":y"));
    Expressions.parseCondition("#n = :y", context, "ConditionExpression");
    assertValidation(
        context::checkAllUsed,
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}");
  }

  @Test
  void useIsSharedAcrossTheExpressionsOfOneRequest() {
    ExpressionContext context = new ExpressionContext(names("#p", "x", "#f", "y"), values(":v"));
    Expressions.parseCondition("#f > :v", context, "FilterExpression");
    Expressions.parseProjection("#p", context);
    context.checkAllUsed();
  }

  @Test
  void undefinedPlaceholdersAreRejected() {
    ExpressionContext context = new ExpressionContext(names("#a", "x"), values(":a"));
    assertValidation(
        () -> Expressions.parseCondition("#x = :a", context, "ConditionExpression"),
        "Invalid ConditionExpression: An expression attribute name used in the document path is "
            + "not defined; attribute name: #x");
    assertValidation(
        () -> Expressions.parseCondition("#a = :x", context, "ConditionExpression"),
        "Invalid ConditionExpression: An expression attribute value used in expression is not "
            + "defined; attribute value: :x");
    assertValidation(
        () -> Expressions.parseProjection("a, #zz", context),
        "Invalid ProjectionExpression: An expression attribute name used in the document path is "
            + "not defined; attribute name: #zz");
  }
}
