package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The ValidationExceptions of expressions, each with DynamoDB's message: placeholders undefined
 * or unused, reserved words, syntax errors naming the offending token, functions misused,
 * BETWEEN and IN rules, update paths that overlap or conflict, clauses repeated, key attributes
 * updated, operand types known before the item is read, and the limits (4 KB expressions,
 * nesting depth 32, 100 IN operands). A rejected request changes nothing.
 *
 * <p>Where the peer implementation used to check these expectations differs, DynamoDB's
 * documented behaviour is kept:
 *
 * <ul>
 *   <li>Syntax errors: the peer words them with its parser generator; DynamoDB's read
 *       {@code Syntax error; token: "<token>", near: "<text>"}, which is what is asserted (only
 *       the prefix on an external endpoint).
 *   <li>Limits: the peer enforces none of the 4 KB expression size, the 100 operands of IN and
 *       the 32 levels of a document path, all of which DynamoDB documents ("The maximum length of
 *       any expression string is 4 KB", "up to 100 values in the list" of IN, nested attributes
 *       "up to 32 levels deep"). Skipped on an external endpoint.
 *   <li>A condition function in an update expression: the peer answers "Invalid function name";
 *       DynamoDB tells that the function exists but is not allowed there ("The function is not
 *       allowed in an update expression"), which is asserted. No peer records DynamoDB's text
 *       for this case, so this wording is the least certain of the class.
 * </ul>
 */
class ExpressionErrorsTest extends EndToEndTest {
  private static final ScalarAttributeType N = ScalarAttributeType.N;
  private static final Map<String, AttributeValue> KEY = Map.of("Id", AttributeValue.fromN("1"));

  private String table;

  private void itemTable() {
    table = createTable("expression-errors", "Id", N);
    dynamo.putItem(r -> r.tableName(table).item(item(
        "Id", n("1"), "Price", n("10"), "Title", s("t"), "Doc", m(item("a", n("1"))),
        "Tags", l(s("x")))));
  }

  /** A conditional delete: rejected before reading, or the item would be gone. */
  private void condition(String expression, Object... valuesAndNames) {
    dynamo.deleteItem(r -> r.tableName(table).key(KEY).conditionExpression(expression)
        .expressionAttributeValues(attributeValues(valuesAndNames))
        .expressionAttributeNames(attributeNames(valuesAndNames)));
  }

  private void update(String expression, Object... valuesAndNames) {
    dynamo.updateItem(r -> r.tableName(table).key(KEY).updateExpression(expression)
        .expressionAttributeValues(attributeValues(valuesAndNames))
        .expressionAttributeNames(attributeNames(valuesAndNames)));
  }

  private void assertUnchanged() {
    assertThat(dynamo.getItem(r -> r.tableName(table).key(KEY).consistentRead(true)).item())
        .isEqualTo(item("Id", n("1"), "Price", n("10"), "Title", s("t"),
            "Doc", m(item("a", n("1"))), "Tags", l(s("x"))));
  }

  // ---- placeholders --------------------------------------------------------------------------

  @Test
  void undefinedAndUnusedPlaceholders() {
    itemTable();
    assertValidation("Invalid ConditionExpression: An expression attribute value used in "
        + "expression is not defined; attribute value: :p", () -> condition("Price = :p"));
    assertValidation("Invalid ConditionExpression: An expression attribute name used in the "
        + "document path is not defined; attribute name: #p",
        () -> condition("#p = :p", ":p", n("1")));
    assertValidation("Invalid UpdateExpression: An expression attribute value used in "
        + "expression is not defined; attribute value: :v",
        () -> update("SET Price = :v", ":w", n("1")));
    assertValidation("Value provided in ExpressionAttributeValues unused in expressions: "
        + "keys: {:unused}",
        () -> condition("Price = :p", ":p", n("10"), ":unused", n("1")));
    assertValidation("Value provided in ExpressionAttributeNames unused in expressions: "
        + "keys: {#unused}",
        () -> update("SET #p = :p", "#p", "Price", "#unused", "x", ":p", n("1")));
    assertValidation("ExpressionAttributeNames must not be empty",
        () -> dynamo.deleteItem(r -> r.tableName(table).key(KEY)
            .conditionExpression("attribute_exists(Id)").expressionAttributeNames(Map.of())));
    assertValidation("ExpressionAttributeValues must not be empty",
        () -> dynamo.deleteItem(r -> r.tableName(table).key(KEY)
            .conditionExpression("attribute_exists(Id)").expressionAttributeValues(Map.of())));
    assertUnchanged();
  }

  @Test
  void invalidPlaceholderKeys() {
    itemTable();
    assertValidation("ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"",
        () -> dynamo.deleteItem(r -> r.tableName(table).key(KEY)
            .conditionExpression("Price = :v").expressionAttributeValues(Map.of("v", n("1")))));
    assertValidation("ExpressionAttributeNames contains invalid key: Syntax error; key: \"n\"",
        () -> dynamo.deleteItem(r -> r.tableName(table).key(KEY)
            .conditionExpression("attribute_exists(#n)")
            .expressionAttributeNames(Map.of("n", "Price"))));
    assertUnchanged();
  }

  // ---- reserved words and syntax -------------------------------------------------------------

  @Test
  void reservedWordsMustBeReplacedByNamePlaceholders() {
    itemTable();
    assertValidation("Invalid ConditionExpression: Attribute name is a reserved keyword; "
        + "reserved keyword: Size", () -> condition("attribute_exists(Size)"));
    assertValidation("Invalid UpdateExpression: Attribute name is a reserved keyword; "
        + "reserved keyword: name", () -> update("SET name = :n", ":n", s("x")));
    assertValidation("Invalid ConditionExpression: Attribute name is a reserved keyword; "
        + "reserved keyword: status", () -> condition("Doc.status = :s", ":s", s("x")));
    // The placeholder works.
    update("SET #name = :n", "#name", "name", ":n", s("x"));
    update("REMOVE #name", "#name", "name");
    assertUnchanged();
  }

  @Test
  void syntaxErrorsNameTheOffendingToken() {
    itemTable();
    syntaxError("Invalid ConditionExpression: Syntax error; token: \"=\", near: \"= = :v\"",
        () -> condition("Price = = :v", ":v", n("1")));
    syntaxError("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\"",
        () -> condition("Price ="));
    syntaxError("Invalid ConditionExpression: Syntax error; token: \"1\", near: \"= 1\"",
        () -> condition("Price = 1"));
    syntaxError("Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"SET\"",
        () -> update("SET"));
    syntaxError("Invalid UpdateExpression: Syntax error; token: \"b\", near: \":one b =\"",
        () -> update("SET a = :one b = :two", ":one", n("1"), ":two", n("2")));
    assertValidation("Invalid ConditionExpression: The expression can not be empty;",
        () -> condition(""));
    assertValidation("Invalid UpdateExpression: The expression can not be empty;",
        () -> update(""));
    assertUnchanged();
  }

  /** The peer words syntax errors with its parser generator: only the prefix is compared. */
  private void syntaxError(String message, ThrowingCallable call) {
    if (onPeer()) {
      assertValidationContaining(message.substring(0, message.indexOf("Syntax error;") + 13), call);
    } else {
      assertValidation(message, call);
    }
  }

  // ---- functions and operators in conditions -------------------------------------------------

  @Test
  void misusedFunctionsInConditions() {
    itemTable();
    assertValidation("Invalid ConditionExpression: Invalid function name; function: starts_with",
        () -> condition("starts_with(Title, :v)", ":v", s("t")));
    assertValidation("Invalid ConditionExpression: Invalid function name; function: Begins_With",
        () -> condition("Begins_With(Title, :v)", ":v", s("t")));
    assertValidation("Invalid ConditionExpression: Incorrect number of operands for operator or "
            + "function; operator or function: attribute_exists, number of operands: 2",
        () -> condition("attribute_exists(Title, Price)"));
    assertValidation("Invalid ConditionExpression: Operator or function requires a document "
            + "path; operator or function: attribute_exists",
        () -> condition("attribute_exists(:v)", ":v", s("t")));
    assertValidation("Invalid ConditionExpression: Incorrect operand type for operator or "
            + "function; operator or function: begins_with, operand type: N",
        () -> condition("begins_with(Title, :v)", ":v", n("1")));
    assertValidation("Invalid ConditionExpression: Invalid attribute type name found; type: "
            + "STRING, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
        () -> condition("attribute_type(Title, :t)", ":t", s("STRING")));
    assertValidation("Invalid ConditionExpression: The function is not allowed to be used this "
            + "way in an expression; function: size",
        () -> condition("size(Title)"));
    assertValidation("Invalid ConditionExpression: The first operand must be distinct from the "
            + "remaining operands for this operator or function; operator: =, first operand: "
            + "[Price]",
        () -> condition("Price = Price"));
    assertUnchanged();
  }

  @Test
  void betweenAndInRules() {
    itemTable();
    assertValidation("Invalid ConditionExpression: The BETWEEN operator requires upper bound to "
            + "be greater than or equal to lower bound; lower bound operand: AttributeValue: "
            + "{N:9}, upper bound operand: AttributeValue: {N:1}",
        () -> condition("Price BETWEEN :lo AND :hi", ":lo", n("9"), ":hi", n("1")));
    assertValidation("Invalid ConditionExpression: The BETWEEN operator requires same data type "
            + "for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper "
            + "bound operand: AttributeValue: {S:9}",
        () -> condition("Price BETWEEN :lo AND :hi", ":lo", n("1"), ":hi", s("9")));

    Object[] values = new Object[202];
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < 101; i++) {
      values[2 * i] = ":v" + i;
      values[2 * i + 1] = n(Integer.toString(i));
      list.append(i == 0 ? "" : ", ").append(":v").append(i);
    }
    if (!onPeer()) {
      assertValidation("Invalid ConditionExpression: The IN operator is provided with too many "
              + "operands; number of operands: 101",
          () -> condition("Price IN (" + list + ")", values));
    }
    assertUnchanged();
  }

  // ---- update expressions --------------------------------------------------------------------

  @Test
  void overlappingAndConflictingUpdatePaths() {
    itemTable();
    assertValidation("Invalid UpdateExpression: Two document paths overlap with each other; must "
            + "remove or rewrite one of these paths; path one: [Price], path two: [Price]",
        () -> update("SET Price = :p REMOVE Price", ":p", n("1")));
    assertValidation("Invalid UpdateExpression: Two document paths overlap with each other; must "
            + "remove or rewrite one of these paths; path one: [Doc], path two: [Doc, a]",
        () -> update("SET Doc = :d, Doc.a = :a", ":d", m(Map.of()), ":a", n("1")));
    assertValidation("Invalid UpdateExpression: Two document paths conflict with each other; "
            + "must remove or rewrite one of these paths; path one: [Doc, a], path two: "
            + "[Doc, [0]]",
        () -> update("SET Doc.a = :a REMOVE Doc[0]", ":a", n("1")));
    assertValidation("Invalid UpdateExpression: Two document paths overlap with each other; must "
            + "remove or rewrite one of these paths; path one: [Tags, [0]], path two: "
            + "[Tags, [0]]",
        () -> update("REMOVE Tags[0], Tags[0]"));
    assertUnchanged();
  }

  @Test
  void clausesFunctionsAndOperandTypesInUpdates() {
    itemTable();
    assertValidation("Invalid UpdateExpression: The \"SET\" section can only be used once in an "
            + "update expression;",
        () -> update("SET Price = :p SET Title = :t", ":p", n("1"), ":t", s("x")));
    if (!onPeer()) {
      assertValidation("Invalid UpdateExpression: The function is not allowed in an update "
              + "expression; function: attribute_exists",
          () -> update("SET Price = attribute_exists(Title)"));
    }
    assertValidation("Invalid UpdateExpression: Invalid function name; function: List_Append",
        () -> update("SET Tags = List_Append(Tags, :l)", ":l", l()));
    assertValidation("Invalid UpdateExpression: Incorrect operand type for operator or function; "
            + "operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND",
        () -> update("ADD Price :s", ":s", s("1")));
    assertValidation("Invalid UpdateExpression: Incorrect operand type for operator or function; "
            + "operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND",
        () -> update("DELETE Price :n", ":n", n("1")));
    assertValidation("Invalid UpdateExpression: Incorrect operand type for operator or function; "
            + "operator or function: +, operand type: S",
        () -> update("SET Price = Price + :s", ":s", s("1")));
    assertValidation("Invalid UpdateExpression: Incorrect operand type for operator or function; "
            + "operator or function: list_append, operand type: S",
        () -> update("SET Tags = list_append(Tags, :s)", ":s", s("1")));
    assertValidation("Invalid UpdateExpression: Operator or function requires a document path; "
            + "operator or function: if_not_exists",
        () -> update("SET Price = if_not_exists(:a, :b)", ":a", n("1"), ":b", n("2")));
    // The update functions are no functions of a condition.
    assertValidation("Invalid ConditionExpression: Invalid function name; function: if_not_exists",
        () -> condition("if_not_exists(Price, :v) = :v", ":v", n("1")));
    assertUnchanged();
  }

  @Test
  void keyAttributesCannotBeUpdated() {
    itemTable();
    String message = "One or more parameter values were invalid: Cannot update attribute Id. "
        + "This attribute is part of the key";
    assertValidation(message, () -> update("SET Id = :v", ":v", n("2")));
    assertValidation(message, () -> update("REMOVE #k", "#k", "Id"));
    assertValidation(message, () -> update("ADD Id :v", ":v", n("1")));
    // Setting a key attribute to its own value is still an update of the key.
    assertValidation(message, () -> update("SET Id = :v", ":v", n("1")));
    assertUnchanged();
  }

  @Test
  void placeholdersAreSharedByTheUpdateAndTheCondition() {
    itemTable();
    // :p is used by the condition only, :v by the update only: both count as used.
    update("SET Price = :v", ":v", n("11"));
    dynamo.updateItem(r -> r.tableName(table).key(KEY)
        .updateExpression("SET Price = :v").conditionExpression("Price = :p")
        .expressionAttributeValues(item(":v", n("10"), ":p", n("11"))));
    assertValidation("Value provided in ExpressionAttributeValues unused in expressions: "
            + "keys: {:x}",
        () -> dynamo.updateItem(r -> r.tableName(table).key(KEY)
            .updateExpression("SET Price = :v").conditionExpression("Price = :p")
            .expressionAttributeValues(item(":v", n("10"), ":p", n("11"), ":x", n("1")))));
    assertUnchanged();
  }

  @Test
  void redundantParentheses() {
    itemTable();
    assertValidation("Invalid ConditionExpression: The expression has redundant parentheses;",
        () -> condition("((Price = :v))", ":v", n("1")));
    // One pair around a condition is fine; this one fails its check.
    assertThat(catchThrowableOfType(
        software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException.class,
        () -> condition("(Price = :v)", ":v", n("1")))).isNotNull();
    assertUnchanged();
  }

  @Test
  void tooManyOperatorsInAnUpdate() {
    itemTable();
    // 301 additions in under 4 KB.
    StringBuilder set = new StringBuilder("SET ");
    for (int i = 0; i < 301; i++) {
      set.append(i == 0 ? "" : ",").append("A").append(i).append("=:v+:v");
    }
    assertThat(set.length()).isLessThan(4096);
    if (!onPeer()) {
      assertValidationContaining("Invalid UpdateExpression: The expression contains too many "
          + "operators; operator count: ", () -> update(set.toString(), ":v", n("1")));
    }
    assertUnchanged();
  }

  // ---- limits --------------------------------------------------------------------------------

  @Test
  void expressionsUpToFourKilobytes() {
    itemTable();
    // "Price = :v OR Price = :v ..." grown to exactly 4096 bytes, then one byte more.
    StringBuilder text = new StringBuilder("Price = :v");
    while (text.length() + " OR Price = :v".length() <= 4096) {
      text.append(" OR Price = :v");
    }
    while (text.length() < 4096) {
      text.append(' ');
    }
    String limit = text.toString();
    assertThat(limit.length()).isEqualTo(4096);
    if (!onPeer()) {
      assertValidation("Invalid ConditionExpression: Expression size has exceeded the maximum "
              + "allowed size; expression size: 4097",
          () -> condition(limit + " ", ":v", n("10")));
    }
    // At the limit the expression is accepted (and holds: the item is deleted).
    condition(limit, ":v", n("10"));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(KEY)).hasItem()).isFalse();
  }

  @Test
  void anOrderingComparisonOfAConstantItCannotOrderIsRefused() {
    itemTable();
    // A constant list, map, set, boolean or null can never be ordered: the request is refused,
    // on either side, for <, <=, >, >= and any operand of BETWEEN.
    Map<String, AttributeValue> unordered = Map.of("L", l(n("1")), "M", m(item("a", n("1"))),
        "SS", AttributeValue.fromSs(List.of("x")), "BOOL", AttributeValue.fromBool(true),
        "NULL", AttributeValue.fromNul(true));
    unordered.forEach((type, value) -> {
      for (String op : List.of("<", "<=", ">", ">=")) {
        assertValidation("Invalid ConditionExpression: Incorrect operand type for operator or "
                + "function; operator or function: " + op + ", operand type: " + type,
            () -> condition("Price " + op + " :v", ":v", value));
        assertValidation("Invalid ConditionExpression: Incorrect operand type for operator or "
                + "function; operator or function: " + op + ", operand type: " + type,
            () -> condition(":v " + op + " Price", ":v", value));
      }
      assertValidation("Invalid ConditionExpression: Incorrect operand type for operator or "
              + "function; operator or function: BETWEEN, operand type: " + type,
          () -> condition("Price BETWEEN :v AND :n", ":v", value, ":n", n("1")));
    });
    // A filter is refused alike.
    assertValidation("Invalid FilterExpression: Incorrect operand type for operator or function;"
            + " operator or function: >, operand type: L",
        () -> dynamo.scan(r -> r.tableName(table).filterExpression("Price > :v")
            .expressionAttributeValues(Map.of(":v", l()))));
    // A value of such a type from the item is only a condition that does not hold.
    assertThat(catchThrowableOfType(() -> condition("Tags < :v", ":v", n("1")),
        ConditionalCheckFailedException.class)).isNotNull();
    assertThat(catchThrowableOfType(() -> condition("Doc BETWEEN :a AND :b", ":a", n("1"),
        ":b", n("2")), ConditionalCheckFailedException.class)).isNotNull();
    assertUnchanged();
  }

  @Test
  void documentPathsNestUpToThirtyTwoLevels() {
    itemTable();
    // A top-level attribute and 32 nested levels below it.
    String deep32 = "a" + ".a".repeat(32);
    condition("attribute_not_exists(" + deep32 + ")");
    itemTable();
    if (onPeer()) {
      return;
    }
    assertValidation("Invalid ConditionExpression: The document path has too many nesting "
            + "levels; nesting levels: 33",
        () -> condition("attribute_not_exists(" + deep32 + ".a)"));
    assertValidation("Invalid UpdateExpression: The document path has too many nesting "
            + "levels; nesting levels: 33",
        () -> update("REMOVE " + deep32 + "[0]"));
    assertValidation("Invalid ProjectionExpression: The document path has too many nesting "
            + "levels; nesting levels: 33",
        () -> dynamo.getItem(r -> r.tableName(table).key(KEY)
            .projectionExpression(deep32 + ".a")));
    assertUnchanged();
  }

  @Test
  void invalidAttributeValuesAreRejected() {
    itemTable();
    assertValidationContaining("ExpressionAttributeValues contains invalid value",
        () -> condition("Price = :v", ":v", AttributeValue.fromSs(List.of())));
    assertValidationContaining("ExpressionAttributeValues contains invalid value",
        () -> condition("Price = :v", ":v", n("not a number")));
    assertUnchanged();
  }

  /**
   * Whether the run is against the peer implementation, which is known to differ from DynamoDB
   * on the assertions so guarded (see the class comment).
   */
  private boolean onPeer() {
    return endpoint.target() == Target.EXTERNAL;
  }
}
