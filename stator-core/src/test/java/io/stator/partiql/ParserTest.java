package io.stator.partiql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.partiql.Statement.Action;
import io.stator.partiql.Term.PathTerm;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParserTest {
  private static Statement parse(String statement) {
    return Parser.parse(statement).statement();
  }

  private static PathTerm path(Object... elements) {
    return new PathTerm(List.of(elements));
  }

  private static String error(String statement) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> parse(statement));
    assertThat(thrown).isInstanceOf(DynamoDbException.class);
    return thrown.getMessage();
  }

  @Test
  void selectWithProjectionIndexAndCondition() {
    Statement.Select select = (Statement.Select) parse(
        "select a, \"b\".c[2], m['k'] FROM \"T\".\"ix\" "
            + "WHERE pk = ? AND NOT (x < 3 OR y IS MISSING)");
    assertThat(select.table()).isEqualTo("T");
    assertThat(select.index()).isEqualTo("ix");
    assertThat(select.projection()).containsExactly(path("a"), path("b", "c", 2), path("m", "k"));
    assertThat(select.where()).isEqualTo(new Term.And(
        new Term.Comparison("=", path("pk"), new Term.Parameter(0)),
        new Term.Not(new Term.Or(
            new Term.Comparison("<", path("x"), new Term.Literal(AttributeValue.n("3"))),
            new Term.Is(path("y"), false, true)))));
  }

  @Test
  void andBindsTighterThanOr() {
    Statement.Select select = (Statement.Select) parse(
        "SELECT * FROM t WHERE a = 1 OR b = 2 AND c = 3");
    assertThat(select.where()).isInstanceOf(Term.Or.class);
    assertThat(((Term.Or) select.where()).right()).isInstanceOf(Term.And.class);
  }

  @Test
  void insertLiteralsOfEveryType() {
    Statement.Insert insert = (Statement.Insert) parse(
        "INSERT INTO \"T\" VALUE {'s': 'it''s', 'n': -1.5e3, 'b': TRUE, 'z': null, "
            + "'l': [1, 'p'], 'ss': <<'a', 'b'>>, 'm': {'x': {}}, 'q': ?};");
    ExpressionText text = new ExpressionText(List.of(AttributeValue.s("p")));
    AttributeValue.M item = (AttributeValue.M) text.bind(insert.item());
    assertThat(item.value())
        .containsEntry("s", AttributeValue.s("it's"))
        .containsEntry("n", AttributeValue.n("-1500"))
        .containsEntry("b", AttributeValue.bool(true))
        .containsEntry("z", AttributeValue.NULL)
        .containsEntry("l", AttributeValue.l(List.of(AttributeValue.n("1"), AttributeValue.s("p"))))
        .containsEntry("ss", AttributeValue.ss(List.of("a", "b")))
        .containsEntry("m", AttributeValue.m(Map.of("x", AttributeValue.m(Map.of()))))
        .containsEntry("q", AttributeValue.s("p"));
    assertThat(Parser.parse("INSERT INTO t VALUE {'a': ?, 'b': ?}").parameterCount())
        .isEqualTo(2);
    // A parameter inside a collection literal is no data DynamoDB stores
    assertThatThrownBy(() -> Parser.parse("INSERT INTO t VALUE {'a': ?, 'b': [?]}"))
        .hasMessage("Unsupported data type: Parameter under key root[0] at 1:36:1");
  }

  @Test
  void updateActionsAndReturning() {
    Statement.Update update = (Statement.Update) parse(
        "UPDATE t SET a = a + 1, b = list_append(b, [2]) REMOVE c.d SET e = set_add(e, <<1>>) "
            + "WHERE pk = 'k' RETURNING MODIFIED NEW *");
    assertThat(update.actions()).hasSize(4);
    assertThat(update.actions().get(0)).isEqualTo(new Action.Set(path("a"),
        new Term.Arithmetic("+", path("a"), new Term.Literal(AttributeValue.n("1")))));
    assertThat(update.actions().get(2)).isEqualTo(new Action.Remove(path("c", "d")));
    assertThat(update.returnValues()).isEqualTo("UPDATED_NEW");
    ExpressionText text = new ExpressionText(List.of());
    assertThat(UpdateText.of(update.actions(), text))
        .isEqualTo("SET #n0 = #n0 + :v0, #n1 = list_append(#n1, :v1) ADD #n4 :v2 REMOVE #n2.#n3");
    assertThat(text.names()).containsEntry("#n0", "a").containsEntry("#n4", "e");
  }

  @Test
  void deleteWithBetweenInAndFunctions() {
    Statement.Delete delete = (Statement.Delete) parse(
        "DELETE FROM t WHERE pk = 1 AND n BETWEEN 1 AND 5 AND s IN ['a', 'b'] "
            + "AND begins_with(s, 'a') AND size(l) > 2 RETURNING ALL OLD *");
    assertThat(delete.returnValues()).isEqualTo("ALL_OLD");
    ExpressionText text = new ExpressionText(List.of());
    KeyedWhere where = KeyedWhere.of(delete.where(), List.of("pk"), text);
    assertThat(where.key()).containsEntry("pk", AttributeValue.n("1"));
    assertThat(text.condition(where.condition())).isEqualTo(
        "((((#n0 BETWEEN :v0 AND :v1) AND (#n1 IN (:v2, :v3))) AND begins_with(#n1, :v4))"
            + " AND (size(#n2) > :v5))");
  }

  @Test
  void isNullHoldsForAMissingAttributeToo() {
    ExpressionText text = new ExpressionText(List.of());
    assertThat(text.condition(new Term.Is(path("a"), false, false)))
        .isEqualTo("(attribute_not_exists(#n0) OR attribute_type(#n0, :v0))");
    assertThat(text.condition(new Term.Is(path("a"), true, true)))
        .isEqualTo("attribute_exists(#n0)");
  }

  @Test
  void errorsSayWhatIsNotWellFormed() {
    String prefix = "Statement wasn't well formed, can't be processed: ";
    assertThat(error("EXPLAIN SELECT * FROM t")).isEqualTo(prefix + "Expected data manipulation");
    assertThat(error("")).isEqualTo(prefix + "Expected data manipulation");
    assertThat(error("SELECT * FROM t WHERE")).isEqualTo(prefix + "Unexpected term");
    assertThat(error("SELECT * FROM t GROUP BY a"))
        .isEqualTo(prefix + "Unexpected token after expression");
    assertThat(error("SELECT * FROM t ORDER a")).isEqualTo(prefix + "Unexpected term");
    assertThat(error("SELECT * FROM t ORDER BY a.b"))
        .isEqualTo(prefix + "Unexpected term: ORDER BY names a key attribute");
    assertThat(error("SELECT * FROM t t2")).isEqualTo("Aliasing is not supported");
    assertThat(error("SELECT * FROM 't'")).isEqualTo(prefix + "Unexpected term");
    assertThat(error("INSERT INTO t VALUE {'a': 'b}")).isEqualTo(prefix + "Unterminated string");
    assertThat(error("SELECT * FROM t WHERE a = #")).isEqualTo(prefix);
    assertThat(error("SELECT * FROM t WHERE a = 1 /* note")).isEqualTo(prefix);
    assertThat(error("SELECT * FROM t\nWHERE nope(a)"))
        .isEqualTo("Unrecognized function: nope at 2:7:4");
    assertThat(error("INSERT INTO t VALUE [1]"))
        .isEqualTo(prefix + "Unexpected term: an INSERT's VALUE is a map, {...}");
    assertThat(error("UPDATE t WHERE a = 1")).isEqualTo(prefix + "Unexpected keyword");
    assertThat(error("SELECT * FROM t WHERE " + "(".repeat(100) + "a = 1" + ")".repeat(100)))
        .isEqualTo(prefix + "Statement nested more than 64 levels deep");
    assertThatThrownBy(() -> parse("INSERT INTO t VALUE {'n': 1e999}"))
        .isInstanceOf(DynamoDbException.class);
  }
}
