package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ExecuteTransactionResponse;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * ExecuteTransaction through the SDK: all statements apply or none, with one cancellation
 * reason per statement, the table checked through GetItem afterwards.
 */
class PartiqlTransactionTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  private static ParameterizedStatement statement(String text, AttributeValue... parameters) {
    ParameterizedStatement.Builder b = ParameterizedStatement.builder().statement(text);
    if (parameters.length > 0) {
      b.parameters(parameters);
    }
    return b.build();
  }

  private Map<String, AttributeValue> get(String table, String pk) {
    var got = dynamo.getItem(r -> r.tableName(table).key(item("pk", s(pk))).consistentRead(true));
    return got.hasItem() ? got.item() : null;
  }

  @Test
  void writesApplyTogetherOrNotAtAll() {
    String table = createTable("pql-tx-w", "pk", S);
    String t = "\"" + table + "\"";
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("from"), "balance", n("10"))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("to"), "balance", n("0"))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("other"))));

    TransactionCanceledException cancelled = assertErrorContaining(
        TransactionCanceledException.class, "TransactionCanceledException",
        "Transaction cancelled",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("UPDATE " + t + " SET balance = balance - ? WHERE pk = 'from' "
                + "AND balance >= ?", n("20"), n("20")),
            statement("UPDATE " + t + " SET balance = balance + 20 WHERE pk = 'to'"),
            statement("INSERT INTO " + t + " VALUE {'pk': 'other'}"))));
    assertThat(cancelled.cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("ConditionalCheckFailed", "None", "DuplicateItem");
    assertThat(get(table, "from")).containsEntry("balance", n("10"));
    assertThat(get(table, "to")).containsEntry("balance", n("0"));

    ExecuteTransactionResponse done = dynamo.executeTransaction(r -> r
        .clientRequestToken("move-5")
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
        .transactStatements(
            statement("UPDATE " + t + " SET balance = balance - 5 WHERE pk = 'from'"),
            statement("UPDATE " + t + " SET balance = balance + 5 WHERE pk = 'to'"),
            statement("INSERT INTO " + t + " VALUE {'pk': 'log', 'moved': 5}"),
            statement("DELETE FROM " + t + " WHERE pk = 'nothing'")));
    assertThat(done.consumedCapacity()).isNotEmpty();
    assertThat(get(table, "from")).containsEntry("balance", n("5"));
    assertThat(get(table, "to")).containsEntry("balance", n("5"));
    assertThat(get(table, "log")).containsEntry("moved", n("5"));
  }

  @Test
  void readsAreOneSnapshotOfWholeItems() {
    String table = createTable("pql-tx-r", "pk", S);
    String t = "\"" + table + "\"";
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), "v", s("A"), "w", s("W"))));
    ExecuteTransactionResponse read = dynamo.executeTransaction(r -> r.transactStatements(
        statement("SELECT v FROM " + t + " WHERE pk = ?", s("a")),
        statement("SELECT * FROM " + t + " WHERE pk = 'none'")));
    assertThat(read.responses()).hasSize(2);
    assertThat(read.responses().get(0).item()).isEqualTo(item("v", s("A")));
    assertThat(read.responses().get(1).hasItem()).isFalse();

    assertValidation(
        "A transaction's statements are all reads (SELECT) or all writes (INSERT, UPDATE, DELETE,"
            + " EXISTS)",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("SELECT * FROM " + t + " WHERE pk = 'a'"),
            statement("DELETE FROM " + t + " WHERE pk = 'a'"))));
    assertValidation("Validation failed in TransactStatements[1]: Select statements within"
            + " ExecuteTransaction must specify the primary key in the where clause.",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("SELECT * FROM " + t + " WHERE pk = 'a'"),
            statement("SELECT * FROM " + t + " WHERE v = 'A'"))));
    // A statement that does not parse fails the transaction, named by its place, as recorded.
    assertValidation("Validation failed in TransactStatements[1]: Statement wasn't well formed,"
            + " can't be processed: Unexpected term",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("DELETE FROM " + t + " WHERE pk = 'a'"),
            statement("SELECT * FROM " + t + " WHERE"))));
    assertThat(get(table, "a")).isNotNull();
  }

  @Test
  void aStatementRefusedBeforeItRunsIsNamedByItsPlace() {
    String table = createTable("pql-tx-refused", "pk", S);
    String t = "\"" + table + "\"";
    // RETURNING, in DynamoDB's recorded words; the first statement is not written
    assertValidation("Validation failed in TransactStatements[1]: RETURNING clause is not"
            + " supported in ExecuteTransaction.",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("INSERT INTO " + t + " VALUE {'pk': 'first'}"),
            statement("UPDATE " + t + " SET v = 1 WHERE pk = 'b' RETURNING ALL NEW *"))));
    // Any other refusal of one statement before the transaction runs: its words, its place
    assertValidation("Validation failed in TransactStatements[1]: Number of parameters in"
            + " request and statement don't match.",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("INSERT INTO " + t + " VALUE {'pk': 'first'}"),
            statement("DELETE FROM " + t + " WHERE pk = ?"))));
    assertValidation("Validation failed in TransactStatements[0]: Number of parameters in"
            + " request and statement don't match.",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("SELECT * FROM " + t + " WHERE pk = ?", s("a"), s("b")))));
    assertThat(get(table, "first")).isNull();
    // An unknown table cancels the transaction, with its reason in the statement's place
    TransactionCanceledException cancelled = catchThrowableOfType(
        TransactionCanceledException.class, () -> dynamo.executeTransaction(r -> r
            .transactStatements(statement("DELETE FROM \"pql-tx-none\" WHERE pk = 'a'"),
                statement("DELETE FROM " + t + " WHERE pk = 'first'"))));
    assertThat(cancelled.cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("ResourceNotFound", "None");
    assertThat(cancelled.cancellationReasons().get(0).message())
        .isEqualTo("Requested resource not found");
  }

  @Test
  void existsChecksAnItemAsAConditionCheck() {
    String table = createTable("pql-tx-exists", "pk", S);
    String t = "\"" + table + "\"";
    AttributeValue yes = AttributeValue.fromBool(true);
    AttributeValue no = AttributeValue.fromBool(false);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("account"), "open", yes)));

    // The account exists and is open: the order is written
    dynamo.executeTransaction(r -> r.transactStatements(
        statement("EXISTS(SELECT * FROM " + t + " WHERE pk = 'account' AND open = ?)",
            yes),
        statement("INSERT INTO " + t + " VALUE {'pk': 'order-1'}")));
    assertThat(get(table, "order-1")).isNotNull();

    // A closed account, or one that does not exist: nothing is written, and the EXISTS is the
    // statement that failed, returning the item where asked
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("account"), "open", no)));
    TransactionCanceledException closed = assertErrorContaining(
        TransactionCanceledException.class, "TransactionCanceledException",
        "Transaction cancelled",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            ParameterizedStatement.builder()
                .statement("exists (SELECT * FROM " + t + " WHERE pk = 'account' AND open = true)")
                .returnValuesOnConditionCheckFailure("ALL_OLD").build(),
            statement("INSERT INTO " + t + " VALUE {'pk': 'order-2'}"))));
    assertThat(closed.cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("ConditionalCheckFailed", "None");
    assertThat(closed.cancellationReasons().get(0).item())
        .isEqualTo(item("pk", s("account"), "open", no));
    TransactionCanceledException missing = assertErrorContaining(
        TransactionCanceledException.class, "TransactionCanceledException",
        "Transaction cancelled",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("EXISTS(SELECT * FROM " + t + " WHERE pk = 'nobody' AND open = true)"),
            statement("INSERT INTO " + t + " VALUE {'pk': 'order-3'}"))));
    assertThat(missing.cancellationReasons()).extracting(CancellationReason::code)
        .containsExactly("ConditionalCheckFailed", "None");
    assertThat(get(table, "order-2")).isNull();
    assertThat(get(table, "order-3")).isNull();

    assertValidation("EXISTS can only be used in ExecuteTransaction write requests.",
        () -> dynamo.executeStatement(r -> r
            .statement("EXISTS(SELECT * FROM " + t + " WHERE pk = 'account')")));
    assertValidation("Validation failed in TransactStatements[0]: EXISTS() must contain a single"
            + " item read with additional condition",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("EXISTS(SELECT * FROM " + t + " WHERE open = true)"),
            statement("INSERT INTO " + t + " VALUE {'pk': 'order-4'}"))));
    // An EXISTS of the key alone, as recorded from DynamoDB, is refused before anything runs
    assertValidation("Validation failed in TransactStatements[0]: EXISTS() must contain a single"
            + " item read with additional condition",
        () -> dynamo.executeTransaction(r -> r.transactStatements(
            statement("EXISTS(SELECT * FROM " + t + " WHERE pk = 'account')"),
            statement("INSERT INTO " + t + " VALUE {'pk': 'order-4'}"))));
    assertThat(get(table, "order-4")).isNull();
  }
}
