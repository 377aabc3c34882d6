package io.stator.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.expression.ConditionExpression.And;
import io.stator.expression.ConditionExpression.Between;
import io.stator.expression.ConditionExpression.Comparator;
import io.stator.expression.ConditionExpression.Comparison;
import io.stator.expression.ConditionExpression.Function;
import io.stator.expression.ConditionExpression.FunctionName;
import io.stator.expression.ConditionExpression.In;
import io.stator.expression.ConditionExpression.Not;
import io.stator.expression.ConditionExpression.Or;
import io.stator.expression.Operand.PathOperand;
import io.stator.expression.Operand.Size;
import io.stator.expression.Operand.ValueOperand;
import io.stator.value.AttributeValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConditionParserTest {
  private static final AttributeValue ONE = AttributeValue.n("1");
  private static final AttributeValue TWO = AttributeValue.n("2");

  static ExpressionContext context() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put("#n", "name");
    names.put("#s", "status");
    Map<String, AttributeValue> values = new LinkedHashMap<>();
    values.put(":one", ONE);
    values.put(":two", TWO);
    values.put(":s", AttributeValue.s("abc"));
    values.put(":t", AttributeValue.s("zzz"));
    values.put(":b", AttributeValue.bool(true));
    values.put(":type", AttributeValue.s("SS"));
    values.put(":badType", AttributeValue.s("STRING"));
    return new ExpressionContext(names, values);
  }

  static ConditionExpression parse(String text) {
    return Expressions.parseCondition(text, context(), "ConditionExpression");
  }

  static void assertError(String text, String detail) {
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException))
        .hasMessage("Invalid ConditionExpression: " + detail);
  }

  private static PathOperand path(String name) {
    return new PathOperand(Path.of(name));
  }

  private static ValueOperand one() {
    return new ValueOperand(":one", ONE);
  }

  private static ValueOperand two() {
    return new ValueOperand(":two", TWO);
  }

  @Test
  void comparators() {
    for (Comparator comparator : Comparator.values()) {
      assertThat(parse("a " + comparator.symbol() + " :one"))
          .isEqualTo(new Comparison(comparator, path("a"), one()));
    }
    assertThat(parse("a<=:one")).isEqualTo(new Comparison(Comparator.LE, path("a"), one()));
    assertThat(parse(":one<>a")).isEqualTo(new Comparison(Comparator.NE, one(), path("a")));
  }

  @Test
  void placeholdersResolveToNamesAndValues() {
    assertThat(parse("#s = :s"))
        .isEqualTo(
            new Comparison(
                Comparator.EQ,
                path("status"),
                new ValueOperand(":s", AttributeValue.s("abc"))));
  }

  @Test
  void documentPaths() {
    ConditionExpression c = parse("a.#n[2].c[10][3] = :one");
    Path expected =
        new Path(
            List.of(
                new Path.Name("a"),
                new Path.Name("name"),
                new Path.Index(2),
                new Path.Name("c"),
                new Path.Index(10),
                new Path.Index(3)));
    assertThat(c).isEqualTo(new Comparison(Comparator.EQ, new PathOperand(expected), one()));
    assertThat(expected.toString()).isEqualTo("a.name[2].c[10][3]");
  }

  @Test
  void betweenAndIn() {
    assertThat(parse("a BETWEEN :one AND :two")).isEqualTo(new Between(path("a"), one(), two()));
    assertThat(parse("a between :one and :two")).isEqualTo(new Between(path("a"), one(), two()));
    assertThat(parse("a IN (:one, :two, b)"))
        .isEqualTo(new In(path("a"), List.of(one(), two(), path("b"))));
    assertThat(parse("a in (:one)")).isEqualTo(new In(path("a"), List.of(one())));
  }

  @Test
  void precedenceIsNotThenAndThenOr() {
    Comparison a = new Comparison(Comparator.EQ, path("a"), one());
    Comparison b = new Comparison(Comparator.EQ, path("b"), one());
    Comparison c = new Comparison(Comparator.EQ, path("c"), one());
    assertThat(parse("a = :one OR b = :one AND c = :one")).isEqualTo(new Or(a, new And(b, c)));
    assertThat(parse("a = :one AND b = :one OR c = :one")).isEqualTo(new Or(new And(a, b), c));
    assertThat(parse("NOT a = :one AND b = :one")).isEqualTo(new And(new Not(a), b));
    assertThat(parse("not (a = :one or b = :one)")).isEqualTo(new Not(new Or(a, b)));
    assertThat(parse("(a = :one OR b = :one) AND c = :one")).isEqualTo(new And(new Or(a, b), c));
    assertThat(parse("a = :one AND b = :one AND c = :one")).isEqualTo(new And(new And(a, b), c));
    assertThat(parse("NOT NOT a = :one")).isEqualTo(new Not(new Not(a)));
  }

  @Test
  void functions() {
    assertThat(parse("attribute_exists(a)"))
        .isEqualTo(new Function(FunctionName.ATTRIBUTE_EXISTS, List.of(path("a"))));
    assertThat(parse("attribute_not_exists(#n)"))
        .isEqualTo(new Function(FunctionName.ATTRIBUTE_NOT_EXISTS, List.of(path("name"))));
    assertThat(parse("attribute_type(a, :type)"))
        .isEqualTo(
            new Function(
                FunctionName.ATTRIBUTE_TYPE,
                List.of(path("a"), new ValueOperand(":type", AttributeValue.s("SS")))));
    assertThat(parse("begins_with(a, :s)"))
        .isEqualTo(
            new Function(
                FunctionName.BEGINS_WITH,
                List.of(path("a"), new ValueOperand(":s", AttributeValue.s("abc")))));
    assertThat(parse("contains(a, :one)"))
        .isEqualTo(new Function(FunctionName.CONTAINS, List.of(path("a"), one())));
    assertThat(parse("size(a) > :one"))
        .isEqualTo(new Comparison(Comparator.GT, new Size(Path.of("a")), one()));
    assertThat(parse("size(a.b) BETWEEN :one AND :two"))
        .isEqualTo(
            new Between(
                new Size(new Path(List.of(new Path.Name("a"), new Path.Name("b")))),
                one(),
                two()));
    assertThat(parse(":two = size(a)"))
        .isEqualTo(new Comparison(Comparator.EQ, two(), new Size(Path.of("a"))));
    assertThat(parse("NOT contains(a, :s) AND attribute_exists(b)")).isInstanceOf(And.class);
  }

  @Test
  void emptyExpression() {
    assertError("", "The expression can not be empty;");
  }

  @Test
  void syntaxErrorsNameTheTokenAndItsNeighbours() {
    assertError("a x b", "Syntax error; token: \"x\", near: \"a x b\"");
    assertError("a = ", "Syntax error; token: \"<EOF>\", near: \"= \"");
    assertError("a =", "Syntax error; token: \"<EOF>\", near: \"=\"");
    assertError("a = 1", "Syntax error; token: \"1\", near: \"= 1\"");
    assertError("a = :one b", "Syntax error; token: \"b\", near: \":one b\"");
    assertError("a $ :one", "Syntax error; token: \"$\", near: \"a $ :one\"");
    assertError("(a = :one", "Syntax error; token: \"<EOF>\", near: \":one\"");
    assertError("a = :one)", "Syntax error; token: \")\", near: \":one)\"");
    assertError("a BETWEEN :one OR :two", "Syntax error; token: \"OR\", near: \":one OR :two\"");
    assertError("a IN ()", "Syntax error; token: \")\", near: \"()\"");
    assertError("a = :one AND", "Syntax error; token: \"<EOF>\", near: \"AND\"");
    assertError("AND = :one", "Syntax error; token: \"AND\", near: \"AND =\"");
    assertError("a.[1] = :one", "Syntax error; token: \"[\", near: \".[1\"");
    assertError("a[x] = :one", "Syntax error; token: \"x\", near: \"[x]\"");
    assertError("a[99999999999] = :one", "Syntax error; token: \"99999999999\", near: \"[99999999999]\"");
    assertError("a", "Syntax error; token: \"<EOF>\", near: \"a\"");
    assertError("a = = :one", "Syntax error; token: \"=\", near: \"= = :one\"");
  }

  @Test
  void syntaxErrorsWinOverLaterCheckedProblems() {
    // "status" is reserved, but the syntax error is what DynamoDB reports.
    assertError("status = :one x", "Syntax error; token: \"x\", near: \":one x\"");
  }

  @Test
  void reservedWordsAreRejectedCaseInsensitively() {
    assertError("status = :one", "Attribute name is a reserved keyword; reserved keyword: status");
    assertError("a.Size = :one", "Attribute name is a reserved keyword; reserved keyword: Size");
    assertThat(parse("#s = :one")).isInstanceOf(Comparison.class);
  }

  @Test
  void functionNamesAreCaseSensitive() {
    assertError("Begins_With(a, :s)", "Invalid function name; function: Begins_With");
    assertError("SIZE(a) = :one", "Invalid function name; function: SIZE");
    assertError("foo(a)", "Invalid function name; function: foo");
  }

  @Test
  void functionsUsedWhereNotAllowed() {
    assertError(
        "begins_with(a, :s) = :b",
        "The function is not allowed to be used this way in an expression; function: "
            + "begins_with");
    assertError(
        "size(a)",
        "The function is not allowed to be used this way in an expression; function: size");
    assertError(
        "contains(attribute_exists(a), :s)",
        "The function is not allowed to be used this way in an expression; function: "
            + "attribute_exists");
    assertError(
        "a IN (:one, attribute_exists(b))",
        "The function is not allowed to be used this way in an expression; function: "
            + "attribute_exists");
  }

  @Test
  void wrongArity() {
    assertError(
        "begins_with(a)",
        "Incorrect number of operands for operator or function; operator or function: "
            + "begins_with, number of operands: 1");
    assertError(
        "attribute_exists(a, b)",
        "Incorrect number of operands for operator or function; operator or function: "
            + "attribute_exists, number of operands: 2");
    assertError(
        "attribute_exists()",
        "Incorrect number of operands for operator or function; operator or function: "
            + "attribute_exists, number of operands: 0");
    assertError(
        "size(a, b) = :one",
        "Incorrect number of operands for operator or function; operator or function: size, "
            + "number of operands: 2");
  }

  @Test
  void operandRules() {
    assertError(
        "attribute_exists(:one)",
        "Operator or function requires a document path; operator or function: attribute_exists");
    assertError(
        "size(:s) = :one",
        "Operator or function requires a document path; operator or function: size");
    assertError(
        "size(:one) = :one",
        "Incorrect operand type for operator or function; operator or function: size, operand "
            + "type: N");
    assertError(
        "begins_with(a, :one)",
        "Incorrect operand type for operator or function; operator or function: begins_with, "
            + "operand type: N");
    assertError(
        "attribute_type(a, :one)",
        "Incorrect operand type for operator or function; operator or function: attribute_type, "
            + "operand type: N");
    assertError(
        "attribute_type(a, :badType)",
        "Invalid attribute type name found; type: STRING, valid types: "
            + "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
    assertError(
        "a = a",
        "The first operand must be distinct from the remaining operands for this operator or "
            + "function; operator: =, first operand: [a]");
    assertError(
        "begins_with(a.b[1], a.b[1])",
        "The first operand must be distinct from the remaining operands for this operator or "
            + "function; operator: begins_with, first operand: [a, b, [1]]");
  }

  @Test
  void betweenBoundsMustShareATypeAndBeOrdered() {
    assertError(
        "a BETWEEN :one AND :s",
        "The BETWEEN operator requires same data type for lower and upper bounds; lower bound "
            + "operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:abc}");
    assertError(
        "a BETWEEN :two AND :one",
        "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
            + "lower bound operand: AttributeValue: {N:2}, upper bound operand: "
            + "AttributeValue: {N:1}");
    assertThat(parse("a BETWEEN :s AND :t")).isInstanceOf(Between.class);
  }

  @Test
  void redundantParentheses() {
    assertError("((a = :one))", "The expression has redundant parentheses;");
    assertError("a = (:one)", "The expression has redundant parentheses;");
    assertThat(parse("(a = :one)")).isInstanceOf(Comparison.class);
    assertThat(parse("((a = :one) AND (b = :one))")).isInstanceOf(And.class);
  }

  @Test
  void inAcceptsAtMostOneHundredCandidates() {
    StringBuilder ok = new StringBuilder("a IN (");
    for (int i = 0; i < 100; i++) {
      ok.append(i == 0 ? "" : ",").append(":one");
    }
    assertThat(parse(ok + ")")).isInstanceOf(In.class);
    assertError(
        ok + ",:two)",
        "The IN operator is provided with too many operands; number of operands: 101");
  }

  @Test
  void expressionSizeIsLimitedTo4KB() {
    String filler = "a = :one OR ".repeat(400);
    String text = filler.substring(0, 4096 - 8) + "a = :one";
    // A long but valid expression below the limit parses.
    String valid = "a = :one OR ".repeat(340) + "a = :one";
    assertThat(valid.length()).isLessThanOrEqualTo(4096);
    assertThat(parse(valid)).isInstanceOf(Or.class);
    String tooLong = valid + " OR b = :one";
    assertError(
        tooLong,
        "Expression size has exceeded the maximum allowed size; expression size: "
            + tooLong.length());
    assertThat(text).hasSize(4096);
  }

  @Test
  void documentPathDepthIsLimitedTo32() {
    String ok = "a" + ".b".repeat(32);
    assertThat(parse(ok + " = :one")).isInstanceOf(Comparison.class);
    assertError(
        "a" + ".b".repeat(33) + " = :one",
        "The document path has too many nesting levels; nesting levels: 33");
    assertError(
        "a" + "[0]".repeat(33) + " = :one",
        "The document path has too many nesting levels; nesting levels: 33");
  }

  @Test
  void deepNestingIsAValidationErrorNotAStackOverflow() {
    String deep = "(".repeat(1500) + "a = :one" + ")".repeat(1500);
    assertThatThrownBy(() -> parse(deep)).isInstanceOf(DynamoDbException.class);
    String nots = "NOT ".repeat(1000) + "a = :one";
    assertThatThrownBy(() -> parse(nots)).isInstanceOf(DynamoDbException.class);
    assertThat(parse("NOT ".repeat(50) + "a = :one")).isInstanceOf(Not.class);
  }

  @Test
  void theParameterNameIsInTheMessage() {
    assertThatThrownBy(() -> Expressions.parseCondition("a =", context(), "FilterExpression"))
        .hasMessageStartingWith("Invalid FilterExpression: Syntax error;");
    assertThatThrownBy(
            () -> Expressions.parseCondition("", context(), "KeyConditionExpression"))
        .hasMessage("Invalid KeyConditionExpression: The expression can not be empty;");
  }
}
