package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.expression.Operand.PathOperand;
import io.stator.expression.Operand.ValueOperand;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpdateParserTest {
  static final AttributeValue ONE = AttributeValue.n("1");
  static final AttributeValue TWO = AttributeValue.n("2");
  static final AttributeValue LIST = AttributeValue.l(List.of(AttributeValue.s("x")));

  static ExpressionContext context() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put("#n", "name");
    names.put("#s", "status");
    Map<String, AttributeValue> values = new LinkedHashMap<>();
    values.put(":one", ONE);
    values.put(":two", TWO);
    values.put(":s", AttributeValue.s("abc"));
    values.put(":l", LIST);
    values.put(":m", AttributeValue.m(Map.of("k", ONE)));
    values.put(":b", AttributeValue.bool(true));
    values.put(":null", AttributeValue.NULL);
    values.put(":bin", AttributeValue.b(new byte[] {1}));
    values.put(":ss", AttributeValue.ss(List.of("a", "b")));
    values.put(":ns", AttributeValue.ns(List.of("1", "2")));
    values.put(":bs", AttributeValue.bs(List.of(Bytes.of(new byte[] {1}))));
    return new ExpressionContext(names, values);
  }

  static UpdateExpression parse(String text) {
    return Expressions.parseUpdate(text, context());
  }

  static void assertInvalid(String text, String detail) {
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException))
        .hasMessage("Invalid UpdateExpression: " + detail);
  }

  static Path path(String dotted) {
    List<Path.Element> elements = new java.util.ArrayList<>();
    for (String part : dotted.split("\\.")) {
      elements.add(new Path.Name(part));
    }
    return new Path(elements);
  }

  static ValueOperand value(String placeholder) {
    return new ValueOperand(placeholder, context().values().get(placeholder));
  }

  // ---- structure -----------------------------------------------------------------------------

  @Test
  void parsesEveryClauseInAnyOrderKeepingActionOrder() {
    UpdateExpression update = parse("remove x, y ADD n :one set a = :one, b.c = d DELETE s :ss");
    assertThat(update.actions())
        .containsExactly(
            new UpdateExpression.Remove(path("x")),
            new UpdateExpression.Remove(path("y")),
            new UpdateExpression.Add(path("n"), value(":one")),
            new UpdateExpression.Set(path("a"), new SetValue.Term(value(":one"))),
            new UpdateExpression.Set(path("b.c"), new SetValue.Term(new PathOperand(path("d")))),
            new UpdateExpression.Delete(path("s"), value(":ss")));
    assertThat(update.paths()).containsExactly(
        path("x"), path("y"), path("n"), path("a"), path("b.c"), path("s"));
  }

  @Test
  void parsesArithmeticAndFunctions() {
    UpdateExpression update =
        parse("SET a = b + :one, c = :two - d, e = list_append(if_not_exists(e, :l), :l)");
    assertThat(update.actions())
        .containsExactly(
            new UpdateExpression.Set(
                path("a"),
                new SetValue.Plus(
                    new SetValue.Term(new PathOperand(path("b"))),
                    new SetValue.Term(value(":one")))),
            new UpdateExpression.Set(
                path("c"),
                new SetValue.Minus(
                    new SetValue.Term(value(":two")),
                    new SetValue.Term(new PathOperand(path("d"))))),
            new UpdateExpression.Set(
                path("e"),
                new SetValue.ListAppend(
                    new SetValue.IfNotExists(path("e"), new SetValue.Term(value(":l"))),
                    new SetValue.Term(value(":l")))));
  }

  @Test
  void parenthesesMayWrapTheValueOrAnOperand() {
    SetValue sum =
        new SetValue.Plus(
            new SetValue.Term(value(":one")), new SetValue.Term(new PathOperand(path("b"))));
    assertThat(((UpdateExpression.Set) parse("SET a = (:one + b)").actions().get(0)).value()).isEqualTo(sum);
    assertThat(((UpdateExpression.Set) parse("SET a = (:one) + (b)").actions().get(0)).value())
        .isEqualTo(sum);
    assertThat(((UpdateExpression.Set) parse("SET a = ((:one) + b)").actions().get(0)).value())
        .isEqualTo(sum);
    assertThat(((UpdateExpression.Set) parse("SET a = ((b))").actions().get(0)).value())
        .isEqualTo(new SetValue.Term(new PathOperand(path("b"))));
    assertThat(((UpdateExpression.Set) parse("SET a = list_append((b), (:l))").actions().get(0)).value())
        .isInstanceOf(SetValue.ListAppend.class);
  }

  @Test
  void resolvesNamePlaceholdersAndRecordsThemAsUsed() {
    ExpressionContext context = context();
    UpdateExpression update = Expressions.parseUpdate("SET #n.#s = :one REMOVE #s", context);
    assertThat(update.paths()).containsExactly(path("name.status"), path("status"));
    assertThat(context.usedNames()).containsExactlyInAnyOrder("#n", "#s");
    assertThat(context.usedValues()).containsExactly(":one");
  }

  @Test
  void parsesListIndexes() {
    UpdateExpression update = parse("REMOVE a[2].b[0]");
    assertThat(update.paths().get(0).elements())
        .containsExactly(
            new Path.Name("a"), new Path.Index(2), new Path.Name("b"), new Path.Index(0));
  }

  // ---- syntax errors -------------------------------------------------------------------------

  @Test
  void emptyExpression() {
    assertInvalid("", "The expression can not be empty;");
  }

  @Test
  void syntaxErrorsNameTheToken() {
    assertInvalid("SET", "Syntax error; token: \"<EOF>\", near: \"SET\"");
    assertInvalid("UPDATE a = :one", "Syntax error; token: \"UPDATE\", near: \"UPDATE a\"");
    assertInvalid("SET a = :one b = :two", "Syntax error; token: \"b\", near: \":one b =\"");
    assertInvalid("SET a :one", "Syntax error; token: \":one\", near: \"a :one\"");
    assertInvalid("SET a = :one +", "Syntax error; token: \"<EOF>\", near: \"+\"");
    assertInvalid(
        "SET a = :one + :two + :one", "Syntax error; token: \"+\", near: \":two + :one\"");
    assertInvalid("SET a = :one,", "Syntax error; token: \"<EOF>\", near: \",\"");
    assertInvalid("ADD a b", "Syntax error; token: \"b\", near: \"a b\"");
    assertInvalid("DELETE a", "Syntax error; token: \"<EOF>\", near: \"a\"");
    assertInvalid("REMOVE a = :one", "Syntax error; token: \"=\", near: \"a = :one\"");
    assertInvalid("ADD a :one + :two", "Syntax error; token: \"+\", near: \":one + :two\"");
    assertInvalid("SET a = (:one", "Syntax error; token: \"<EOF>\", near: \":one\"");
    assertInvalid("SET a = b < :one", "Syntax error; token: \"<\", near: \"b < :one\"");
  }

  @Test
  void sectionsOnlyOnce() {
    assertInvalid(
        "SET a = :one SET b = :two",
        "The \"SET\" section can only be used once in an update expression;");
    assertInvalid(
        "remove a ADD n :one REMOVE b",
        "The \"REMOVE\" section can only be used once in an update expression;");
    assertInvalid(
        "DELETE s :ss delete t :ss",
        "The \"DELETE\" section can only be used once in an update expression;");
  }

  // ---- names and values ----------------------------------------------------------------------

  @Test
  void reservedWordsNeedAPlaceholder() {
    assertInvalid(
        "SET status = :one", "Attribute name is a reserved keyword; reserved keyword: status");
    assertInvalid(
        "SET a = b + Size", "Attribute name is a reserved keyword; reserved keyword: Size");
  }

  @Test
  void undefinedPlaceholders() {
    assertInvalid(
        "SET #x = :one",
        "An expression attribute name used in the document path is not defined; "
            + "attribute name: #x");
    assertInvalid(
        "ADD a :zz",
        "An expression attribute value used in expression is not defined; attribute value: :zz");
    // Names are reported before values whatever the order in the text.
    assertInvalid(
        "SET a = :zz, #x = :one",
        "An expression attribute name used in the document path is not defined; "
            + "attribute name: #x");
  }

  @Test
  void problemsAreReportedInDynamoDbsOrder() {
    // A reserved word wins over a repeated section, which wins over an undefined placeholder.
    assertInvalid(
        "SET a = :zz SET status = :one",
        "Attribute name is a reserved keyword; reserved keyword: status");
    assertInvalid(
        "SET a = :zz SET b = :one",
        "The \"SET\" section can only be used once in an update expression;");
    // An undefined value wins over an overlap, which wins over an operand type.
    assertInvalid(
        "ADD a :s SET a = :zz",
        "An expression attribute value used in expression is not defined; attribute value: :zz");
    assertInvalid(
        "ADD a :s SET a = :one",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [a], path two: [a]");
    // A syntax error anywhere wins over everything.
    assertInvalid("SET status = :one,", "Syntax error; token: \"<EOF>\", near: \",\"");
  }

  // ---- paths ---------------------------------------------------------------------------------

  @Test
  void overlappingPaths() {
    assertInvalid(
        "SET a = :one REMOVE a.b",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [a], path two: [a, b]");
    assertInvalid(
        "SET a = :one, a = :two",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [a], path two: [a]");
    assertInvalid(
        "REMOVE x[1].y ADD x[1] :one",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [x, [1], y], path two: [x, [1]]");
    assertInvalid(
        "SET #n = :one REMOVE #n.x",
        "Two document paths overlap with each other; must remove or rewrite one of these paths; "
            + "path one: [name], path two: [name, x]");
  }

  @Test
  void conflictingPaths() {
    assertInvalid(
        "SET a.b = :one REMOVE a[0]",
        "Two document paths conflict with each other; must remove or rewrite one of these paths; "
            + "path one: [a, b], path two: [a, [0]]");
  }

  @Test
  void disjointPathsAreFine() {
    assertThat(parse("SET a.b = :one, a.c = :two REMOVE a.d[0], a.d[1], ab").actions())
        .hasSize(5);
  }

  @Test
  void pathDepthIsLimited() {
    String deep = "a" + ".b".repeat(33);
    assertInvalid(
        "REMOVE " + deep, "The document path has too many nesting levels; nesting levels: 33");
    assertThat(parse("REMOVE a" + ".b".repeat(32)).actions()).hasSize(1);
  }

  // ---- functions -----------------------------------------------------------------------------

  @Test
  void conditionFunctionsAreNotAllowed() {
    for (String call :
        List.of(
            "attribute_exists(b)", "attribute_not_exists(b)", "attribute_type(b, :s)",
            "begins_with(b, :s)", "contains(b, :s)", "size(b)")) {
      String name = call.substring(0, call.indexOf('('));
      assertInvalid(
          "SET a = " + call,
          "The function is not allowed in an update expression; function: " + name);
    }
  }

  @Test
  void unknownFunctions() {
    assertInvalid("SET a = foo(b)", "Invalid function name; function: foo");
    // Function names are case-sensitive.
    assertInvalid("SET a = List_Append(b, :l)", "Invalid function name; function: List_Append");
    assertInvalid("SET a = :one + IF_NOT_EXISTS(b, :one)",
        "Invalid function name; function: IF_NOT_EXISTS");
  }

  @Test
  void functionArity() {
    assertInvalid(
        "SET a = list_append(:l)",
        "Incorrect number of operands for operator or function; operator or function: "
            + "list_append, number of operands: 1");
    assertInvalid(
        "SET a = if_not_exists(a, :one, :two)",
        "Incorrect number of operands for operator or function; operator or function: "
            + "if_not_exists, number of operands: 3");
    assertInvalid(
        "SET a = if_not_exists()",
        "Incorrect number of operands for operator or function; operator or function: "
            + "if_not_exists, number of operands: 0");
  }

  @Test
  void ifNotExistsNeedsAPath() {
    assertInvalid(
        "SET a = if_not_exists(:one, :two)",
        "Operator or function requires a document path; operator or function: if_not_exists");
    assertInvalid(
        "SET a = if_not_exists(list_append(a, :l), :l)",
        "Operator or function requires a document path; operator or function: if_not_exists");
  }

  @Test
  void operandTypesKnownWhenParsing() {
    assertInvalid(
        "SET a = list_append(:s, a)",
        "Incorrect operand type for operator or function; operator or function: list_append, "
            + "operand type: S");
    assertInvalid(
        "SET a = b + :s",
        "Incorrect operand type for operator or function; operator or function: +, "
            + "operand type: S");
    assertInvalid(
        "SET a = :ss - b",
        "Incorrect operand type for operator or function; operator or function: -, "
            + "operand type: SS");
    // Paths and function results are only known when applied.
    assertThat(parse("SET a = b + list_append(c, :l)").actions()).hasSize(1);
  }

  @Test
  void addTakesNumbersAndSets() {
    for (String ok : List.of(":one", ":ss", ":ns", ":bs")) {
      assertThat(parse("ADD a " + ok).actions()).hasSize(1);
    }
    Map<String, String> words =
        Map.of(":s", "STRING", ":bin", "BINARY", ":b", "BOOLEAN", ":null", "NULL", ":l", "LIST",
            ":m", "MAP");
    words.forEach(
        (placeholder, word) ->
            assertInvalid(
                "ADD a " + placeholder,
                "Incorrect operand type for operator or function; operator: ADD, operand type: "
                    + word + ", typeSet: ALLOWED_FOR_ADD_OPERAND"));
  }

  @Test
  void deleteTakesSets() {
    for (String ok : List.of(":ss", ":ns", ":bs")) {
      assertThat(parse("DELETE a " + ok).actions()).hasSize(1);
    }
    assertInvalid(
        "DELETE a :one",
        "Incorrect operand type for operator or function; operator: DELETE, operand type: "
            + "NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND");
    assertInvalid(
        "DELETE a :m",
        "Incorrect operand type for operator or function; operator: DELETE, operand type: MAP,"
            + " typeSet: ALLOWED_FOR_DELETE_OPERAND");
  }

  // ---- limits --------------------------------------------------------------------------------

  @Test
  void atMostThreeHundredOperators() {
    StringBuilder ok = new StringBuilder("SET a0=b+c");
    for (int i = 1; i < 300; i++) {
      ok.append(",x_").append(i).append("=b+c");
    }
    assertThat(parse(ok.toString()).actions()).hasSize(300);
    assertInvalid(
        ok + ",z=b-c",
        "The expression contains too many operators; operator count: 301, maximum: 300");
    assertInvalid(
        ok.toString().replace("a0=b+c", "a0=list_append(b,c)+c"),
        "The expression contains too many operators; operator count: 301, maximum: 300");
  }

  @Test
  void deepNestingIsAValidationErrorNotAStackOverflow() {
    String text = "SET a = " + "(".repeat(5000) + "b" + ")".repeat(5000);
    assertThatThrownBy(() -> parse(text)).isInstanceOf(DynamoDbException.class);
    String calls = "SET a = " + "if_not_exists(b, ".repeat(1300) + ":one" + ")".repeat(1300);
    assertThatThrownBy(() -> parse(calls)).isInstanceOf(DynamoDbException.class);
  }

  @Test
  void sizeLimitApplies() {
    String text = "REMOVE " + "a,".repeat(2100) + "b";
    assertInvalid(
        text,
        "Expression size has exceeded the maximum allowed size; expression size: "
            + text.length());
  }
}
