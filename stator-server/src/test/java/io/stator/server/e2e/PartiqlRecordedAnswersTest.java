package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * PartiQL answers that a public conformance suite recorded from DynamoDB and Stator once gave
 * otherwise: which conditions name a key, list indexes, signed numbers, the words of an
 * expression's refusal. Each refused write is checked to have written nothing.
 */
class PartiqlRecordedAnswersTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  private List<Map<String, AttributeValue>> select(String statement) {
    return dynamo.executeStatement(r -> r.statement(statement)).items();
  }

  private static ParameterizedStatement statement(String text) {
    return ParameterizedStatement.builder().statement(text).build();
  }

  private String table() {
    String table = createTable("pql-recorded", "pk", S, "sk", S);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("p"), "sk", s("1"), "flag",
        s("one"), "n", n("1"), "l", l(s("a"), s("b")))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("p"), "sk", s("2"), "flag",
        s("two"))));
    return "\"" + table + "\"";
  }

  private Map<String, AttributeValue> get(String table, String sk) {
    return dynamo.getItem(r -> r.tableName(table.replace("\"", ""))
        .key(item("pk", s("p"), "sk", s(sk))).consistentRead(true)).item();
  }

  @Test
  void aKeyNamedTwiceWithTwoValuesNamesNoItem() {
    String t = table();
    String multiple =
        "Multiple conditions on same key pk. Only single item Update/Insert/Delete are supported";
    assertValidation(multiple,
        () -> select("UPDATE " + t + " SET a = 1 WHERE pk = 'p' AND sk = '1' AND pk = 'q'"));
    assertValidation(multiple,
        () -> select("DELETE FROM " + t + " WHERE pk = 'p' AND sk = '1' AND pk = 'q'"));
    assertThat(get(t, "1")).doesNotContainKey("a").containsKey("flag");
    select("UPDATE " + t + " SET a = 2 WHERE pk = 'p' AND sk = '1' AND pk = 'p'");
    assertThat(get(t, "1")).containsEntry("a", n("2"));

    // In a transaction's or a batch's SELECT, a one-value IN names the key; two values name none
    String from = "SELECT sk FROM " + t + " WHERE ";
    assertThat(dynamo.executeTransaction(r -> r.transactStatements(
            statement(from + "pk IN ['p'] AND sk IN ['1']"),
            statement(from + "(pk IN ['p']) AND pk = 'p' AND sk = '2'"))).responses())
        .extracting(response -> response.item().get("sk").s()).containsExactly("1", "2");
    assertValidation("Validation failed in TransactStatements[0]: Select statements within"
            + " ExecuteTransaction must specify the primary key in the where clause.",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement(from + "pk IN ['q'] AND pk = 'p' AND sk = '1'"))));
    assertValidation("Validation failed in TransactStatements[0]: Overlapping conditions with"
            + " range keys are not supported in where clause",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement(from + "pk IN ['p', 'p'] AND sk = '1'"))));
    List<BatchStatementResponse> batch = dynamo.batchExecuteStatement(r -> r.statements(
        s -> s.statement(from + "pk IN ['p'] AND sk = '1'"),
        s -> s.statement(from + "pk = 'p' AND sk = '1' AND pk = 'q'"))).responses();
    assertThat(batch.get(0).item()).containsEntry("sk", s("1"));
    assertThat(batch.get(1).error().message()).isEqualTo("Select statements within"
        + " BatchExecuteStatement must specify the primary key in the where clause.");
    // An EXISTS reads by the first value and checks the second as its condition
    TransactionCanceledException cancelled = catchThrowableOfType(
        TransactionCanceledException.class, () -> dynamo.executeTransaction(r -> r
            .transactStatements(
                statement("EXISTS(SELECT * FROM " + t
                    + " WHERE pk = 'p' AND sk = '1' AND pk = 'q' AND flag = 'one')"),
                statement("UPDATE " + t + " SET b = 1 WHERE pk = 'p' AND sk = '2'"))));
    assertThat(cancelled.cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("ConditionalCheckFailed", "None");
    assertThat(get(t, "2")).doesNotContainKey("b");
  }

  @Test
  void listIndexesSignsAndTheWordsOfARefusedExpression() {
    String t = table();
    String key = " WHERE pk = 'p' AND sk = '1'";
    assertValidation("List index is not within the allowable range; index: [-1] at 1:11:1",
        () -> select("SELECT l[-1] FROM " + t + key));
    assertValidation(
        "List index is not within the allowable range; index: [2147483648] at 1:10:10",
        () -> select("SELECT l[2147483648] FROM " + t + key));
    assertThat(select("SELECT l[-0] FROM " + t + key)).containsExactly(item("l[0]", s("a")));
    assertThat(select("SELECT l[2147483647] FROM " + t + key)).containsExactly(Map.of());

    String from = "SELECT sk FROM " + t + key + " AND ";
    assertThat(select(from + "n = - - 1")).hasSize(1);
    assertThat(select(from + "n > -/* a comment */-1")).isEmpty();
    assertThat(select(from + "n BETWEEN - 2 AND +5 AND n IN [- 1, 1]")).hasSize(1);
    assertValidationContaining("Statement wasn't well formed",
        () -> select(from + "n > -n"));
    select("UPDATE " + t + " SET n = n - - 2, m = [- 1]" + key);
    assertThat(get(t, "1")).containsEntry("n", n("3")).containsEntry("m", l(n("-1")));

    // A parameter inside a collection literal is refused; one as an item's attribute is not
    String set = "UPDATE " + t + " SET x = ";
    assertValidation("Unsupported data type: Parameter under key root[0] at 1:"
            + (set.length() + 2) + ":1",
        () -> dynamo.executeStatement(r -> r.statement(set + "[?]" + key).parameters(s("v"))));
    String insert = "INSERT INTO " + t + " VALUE {'pk': 'p', 'sk': '9', 'm': {'k': ?}}";
    assertValidation("Unsupported data type: Parameter under key root.k at 1:"
            + (insert.indexOf('?') + 1) + ":1",
        () -> dynamo.executeStatement(r -> r.statement(insert).parameters(s("v"))));
    dynamo.executeStatement(r -> r.statement(
        "INSERT INTO " + t + " VALUE {'pk': ?, 'sk': '9', 'n': 1}").parameters(s("p")));
    assertThat(dynamo.executeStatement(r -> r.statement(
            "SELECT sk FROM " + t + " WHERE pk = 'p' AND n IN [?, 3]").parameters(n("1")))
        .items()).extracting(item -> item.get("sk").s()).containsExactlyInAnyOrder("1", "9");

    // A set function's second argument must be a set; DynamoDB points at its first
    dynamo.putItem(r -> r.tableName(t.replace("\"", "")).item(item("pk", s("p"), "sk", s("s"),
        "members", AttributeValue.fromSs(List.of("a", "b")))));
    assertValidation("The second argument to SET_ADD must be a value with type SET at 2:23:7",
        () -> select("UPDATE " + t + "\nSET members = set_add(members, 'x')\n"
            + "WHERE pk = 'p' AND sk = 's'"));
    String quoted = "UPDATE " + t + " SET \"members\" = set_delete(";
    assertValidation("The second argument to SET_DELETE must be a value with type SET at 1:"
            + (quoted.length() + 1) + ":9",
        () -> select(quoted + "\"members\", ['x']) WHERE pk = 'p' AND sk = 's'"));
    assertThat(get(t, "s").get("members").ss()).containsExactlyInAnyOrder("a", "b");

    // A set literal with one value twice: numbers as written, under where the set sits
    assertValidation("One or more parameter values were invalid: Input collection [2, 2.0]"
        + " contains duplicates! under root", () -> select(set + "<<2, 2.0>>" + key));
    assertValidation("One or more parameter values were invalid: Input collection [b, b]"
        + " contains duplicates.", () -> select(set + "<<'b','b'>>" + key));

    // A literal nested deeper than an item may be is refused with where it sits
    assertValidation("Nesting Levels have exceeded supported limits under root" + ".a".repeat(32),
        () -> select(set + "{'a':".repeat(32) + "1" + "}".repeat(32) + key));
    assertValidation("Nesting Levels have exceeded supported limits under root.a"
            + "[0]".repeat(31),
        () -> select(set + "{'a':" + "[".repeat(31) + "1" + "]".repeat(31) + "}" + key));
    assertValidation("Validation failed in TransactStatements[0]: Nesting Levels have exceeded"
            + " supported limits under root" + "[0]".repeat(32),
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement(set + "[".repeat(32) + "1" + "]".repeat(32) + key))));
    select("INSERT INTO " + t + " VALUE {'pk': 'p', 'sk': '8', 'd': "
        + "{'a':".repeat(31) + "1" + "}".repeat(31) + "}");
    assertThat(get(t, "8")).containsKey("d");

    // DynamoDB words a statement's type errors without the expression's name
    assertValidation("Incorrect operand type for operator or function; operator or function:"
        + " attribute_type, operand type: N", () -> select(from + "attribute_type(l, 1)"));
    assertValidation("Incorrect operand type for operator or function; operator or function: +,"
            + " operand type: S",
        () -> select("UPDATE " + t + " SET n = 'a' + 1" + key + " AND nope = 'x'"));
    assertValidation("Incorrect operand type for operator or function; operator or function: -,"
            + " operand type: NULL",
        () -> select("UPDATE " + t + " SET n = n - null" + key + " AND nope = 'x'"));
    assertValidation("Validation failed in TransactStatements[0]: Incorrect operand type for"
            + " operator or function; operator or function: +, operand type: L",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("UPDATE " + t + " SET n = n + [1]" + key))));
    assertThat(get(t, "1")).containsEntry("n", n("3"));
  }

  @Test
  void aKeyedReadOfAGsiRefusesFiltersOnAttributesItDoesNotProject() {
    String table = uniqueTableName("pql-projected");
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(table)
        .attributeDefinitions(attribute("pk", S), attribute("gsiPk", S))
        .keySchema(key("pk", KeyType.HASH))
        .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("gsi-inc")
            .keySchema(key("gsiPk", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("projattr"))
            .build())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(table);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("p"), "gsiPk", s("y"),
        "projattr", s("proj1"), "nonproj", s("np1"))));
    String from = "SELECT pk FROM \"" + table + "\".\"gsi-inc\" WHERE ";
    String refused = "One or more parameter values were invalid: Secondary index gsi-inc does not"
        + " project one or more filter attributes: ";
    assertValidation(refused + "[nonproj]",
        () -> select(from + "gsiPk = 'y' AND NOT (nonproj = 'np1' OR projattr = 'x')"));
    assertValidation(refused + "[a, b]",
        () -> select(from + "gsiPk = 'y' AND b = '1' AND (a = '2' OR projattr = '3')"));
    assertValidation(refused + "[zz, aa, mm]",
        () -> select(from + "gsiPk = 'y' AND (zz = '1' OR aa = '2' OR mm = '3')"));
    assertValidation(refused + "[u2]",
        () -> select(from + "(gsiPk = 'b' AND u1 = '1') OR (gsiPk = 'q' AND u2 = '1')"));
    assertThat(select(from + "gsiPk = 'y' AND (projattr = 'proj1' OR projattr = 'proj2')"))
        .containsExactly(item("pk", s("p")));
    // A Scan of the index filters what it reads, whatever the index projects
    assertThat(select(from + "gsiPk > 'a' AND zz = '1'")).isEmpty();
  }

  @Test
  void aStatementThatCannotRunCancelsTheTransactionWithItsReason() {
    String t = table();
    String update = "UPDATE " + t + " SET a = 1 WHERE ";
    String mismatch = "The provided key element does not match the schema";
    TransactionCanceledException cancelled = cancelled(update + "pk = 'p'",
        update + "pk IN ['p'] AND sk = '1'", update + "pk = 'p' AND sk = '1' AND pk = 'q'",
        update + "pk = 'p' AND sk = 1", update + "pk = 'p' AND sk = '1'");
    assertThat(cancelled.cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("ValidationError", "ValidationError", "ValidationError",
            "ValidationError", "None");
    assertThat(cancelled.cancellationReasons().get(0).message()).isEqualTo(mismatch);
    assertThat(cancelled.cancellationReasons().get(3).message()).isEqualTo(mismatch);
    assertThat(cancelled(
            "INSERT INTO " + t + " VALUE {'pk': 'inserted'}", "DELETE FROM " + t + " WHERE sk = '1'")
        .cancellationReasons()).extracting(CancellationReason::message).containsExactly(
            "One or more parameter values were invalid: Missing the key sk in the item", mismatch);
    assertThat(get(t, "1")).doesNotContainKey("a");

    String missing = "\"pql-recorded-missing\"";
    assertThat(cancelled("UPDATE " + missing + " SET a = 1 WHERE pk = 'x' AND sk = '1'",
            "DELETE FROM " + missing + " WHERE pk = 'x' AND sk = '1'").cancellationReasons())
        .extracting(CancellationReason::code).containsExactly("ResourceNotFound", "ResourceNotFound");
    String select = "SELECT * FROM " + t + " WHERE pk = 'p' AND sk = '1'";
    assertThat(cancelled(select, "SELECT * FROM " + missing + ".\"idx\" WHERE pk = 'x'")
        .cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("None", "ResourceNotFound");
    // A refusal of a statement's form, even a later one's, fails the whole request
    assertValidation("Validation failed in TransactStatements[1]: Reads on indices are not"
            + " supported within transactions.",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("SELECT * FROM " + missing + " WHERE pk = 'x' AND sk = '1'"),
            statement("SELECT * FROM " + t + ".\"idx\" WHERE pk = 'p' AND sk = '1'"))));
    assertValidation("Validation failed in TransactStatements[1]: RETURNING clause is not"
            + " supported in ExecuteTransaction.",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("UPDATE " + missing + " SET a = 1 WHERE pk = 'x' AND sk = '1'"),
            statement(update + "pk = 'p' AND sk = '1' RETURNING ALL NEW *"))));
  }

  @Test
  void aConditionIsABooleanThatComparesWithTrueFalseAndOtherConditions() {
    String t = table();
    dynamo.putItem(r -> r.tableName(t.replace("\"", "")).item(item("pk", s("p"), "sk", s("1"),
        "n", n("1"), "flag", s("right"), "yes", AttributeValue.fromBool(true))));
    String from = "SELECT sk FROM " + t + " WHERE pk = 'p' AND sk = '1' AND ";
    for (String holds : List.of("attribute_exists(nope) = false", "true = attribute_exists(n)",
        "attribute_exists(n) <> 1", "contains(nope, 'z') = false", "(n BETWEEN 0 AND 5) = true",
        "(n = 5 OR flag = 'x') = false", "attribute_exists(nope) IN [true, false]",
        "attribute_exists(n) = attribute_exists(flag)", "attribute_exists(n) = yes")) {
      assertThat(select(from + holds)).as(holds).hasSize(1);
    }
    for (String fails : List.of("attribute_exists(n) = 1", "NOT attribute_exists(n) = true",
        "(attribute_exists(n) = true) = false", "attribute_exists(n) = flag")) {
      assertThat(select(from + fails)).as(fails).isEmpty();
    }
    assertValidation("Incorrect operand type for operator or function; operator or function: >,"
        + " operand type: BOOL", () -> select(from + "attribute_exists(n) > false"));
  }

  private TransactionCanceledException cancelled(String... statements) {
    TransactionCanceledException cancelled = catchThrowableOfType(
        TransactionCanceledException.class, () -> dynamo.executeTransaction(r -> r
            .transactStatements(java.util.Arrays.stream(statements)
                .map(PartiqlRecordedAnswersTest::statement).toList())));
    assertThat(cancelled).as("the transaction is cancelled").isNotNull();
    return cancelled;
  }
}
