package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProjectionParserTest {

  private static List<Path> parse(String text) {
    return Expressions.parseProjection(
        text, new ExpressionContext(Map.of("#n", "name", "#s", "status"), null));
  }

  private static void assertError(String text, String detail) {
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException))
        .hasMessage("Invalid ProjectionExpression: " + detail);
  }

  @Test
  void commaSeparatedPaths() {
    assertThat(parse("a, b.c, d[1].e, #n, #s.x"))
        .extracting(Path::toString)
        .containsExactly("a", "b.c", "d[1].e", "name", "status.x");
    assertThat(parse("  a ,b  ")).extracting(Path::toString).containsExactly("a", "b");
  }

  @Test
  void errors() {
    assertError("", "The expression can not be empty;");
    assertError("a,", "Syntax error; token: \"<EOF>\", near: \",\"");
    assertError("a b", "Syntax error; token: \"b\", near: \"a b\"");
    assertError(",a", "Syntax error; token: \",\", near: \",a\"");
    assertError("a = b", "Syntax error; token: \"=\", near: \"a = b\"");
    assertError("status", "Attribute name is a reserved keyword; reserved keyword: status");
    assertError("a, #x", "An expression attribute name used in the document path is not "
        + "defined; attribute name: #x");
  }

  @Test
  void overlappingPaths() {
    assertError(
        "a, a.b",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [a], path two: [a, b]");
    assertError(
        "a.b[1], a.b",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [a, b, [1]], path two: [a, b]");
    assertError(
        "a, #n, a",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [a], path two: [a]");
    assertError(
        "a.b, a[0]",
        "Two document paths conflict with each other; must remove or rewrite one of these "
            + "paths; path one: [a, b], path two: [a, [0]]");
    assertThat(parse("a.b, a.c, a.d[0], a.d[1]")).hasSize(4);
  }

  @Test
  void reservedWordsWinOverOverlaps() {
    assertError("a, a, status", "Attribute name is a reserved keyword; reserved keyword: status");
  }
}
