package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProjectorTest {
  private static final Map<String, AttributeValue> ITEM =
      Map.of(
          "id", AttributeValue.s("1"),
          "name", AttributeValue.s("x"),
          "m",
          AttributeValue.m(
              Map.of(
                  "a", AttributeValue.n("1"),
                  "b", AttributeValue.n("2"),
                  "c", AttributeValue.m(Map.of("d", AttributeValue.n("4"), "e", AttributeValue.n("5"))))),
          "l",
          AttributeValue.l(
              List.of(
                  AttributeValue.s("l0"),
                  AttributeValue.m(Map.of("k", AttributeValue.s("v"), "j", AttributeValue.s("w"))),
                  AttributeValue.s("l2"),
                  AttributeValue.s("l3"))));

  private static Map<String, AttributeValue> project(String expression) {
    List<Path> paths =
        Expressions.parseProjection(expression, new ExpressionContext(Map.of("#n", "name"), null));
    return Expressions.project(ITEM, paths);
  }

  @Test
  void topLevelAttributes() {
    assertThat(project("id, #n"))
        .isEqualTo(Map.of("id", AttributeValue.s("1"), "name", AttributeValue.s("x")));
    assertThat(project("id, absent")).isEqualTo(Map.of("id", AttributeValue.s("1")));
    assertThat(project("absent")).isEmpty();
  }

  @Test
  void nestedMapsKeepOnlySelectedKeys() {
    assertThat(project("m.a, m.c.e"))
        .isEqualTo(
            Map.of(
                "m",
                AttributeValue.m(
                    Map.of(
                        "a", AttributeValue.n("1"),
                        "c", AttributeValue.m(Map.of("e", AttributeValue.n("5")))))));
    assertThat(project("m.zz, m.c.zz, id")).isEqualTo(Map.of("id", AttributeValue.s("1")));
  }

  @Test
  void listElementsAreCompactedInIndexOrder() {
    assertThat(project("l[3], l[0], l[9]"))
        .isEqualTo(
            Map.of("l", AttributeValue.l(List.of(AttributeValue.s("l0"), AttributeValue.s("l3")))));
    assertThat(project("l[1].k"))
        .isEqualTo(
            Map.of(
                "l",
                AttributeValue.l(List.of(AttributeValue.m(Map.of("k", AttributeValue.s("v")))))));
    assertThat(project("l[0].k, m[0], id.x")).isEmpty();
  }

  @Test
  void overlappingPathsFromTheEngineAreMergedTheWholeValueWinning() {
    List<Path> paths =
        List.of(
            new Path(List.of(new Path.Name("m"), new Path.Name("a"))),
            Path.of("m"),
            new Path(List.of(new Path.Name("m"), new Path.Name("b"))));
    assertThat(Expressions.project(ITEM, paths)).isEqualTo(Map.of("m", ITEM.get("m")));
  }
}
