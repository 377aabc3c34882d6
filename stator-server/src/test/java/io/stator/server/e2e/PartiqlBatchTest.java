package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementErrorCodeEnum;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * BatchExecuteStatement through the SDK: each statement applied or failed on its own, its
 * failure in its response, the table checked through GetItem afterwards.
 */
class PartiqlBatchTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  private static BatchStatementRequest statement(String text, AttributeValue... parameters) {
    BatchStatementRequest.Builder b = BatchStatementRequest.builder().statement(text);
    if (parameters.length > 0) {
      b.parameters(parameters);
    }
    return b.build();
  }

  private BatchExecuteStatementResponse batch(BatchStatementRequest... statements) {
    return dynamo.batchExecuteStatement(r -> r.statements(statements));
  }

  private Map<String, AttributeValue> get(String table, String pk) {
    var got = dynamo.getItem(r -> r.tableName(table).key(item("pk", s(pk))).consistentRead(true));
    return got.hasItem() ? got.item() : null;
  }

  @Test
  void writesApplyOneByOneAndReportTheirOwnFailures() {
    String table = createTable("pql-batch-w", "pk", S);
    String t = "\"" + table + "\"";
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("old"), "v", n("1"))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("gone"), "v", n("1"))));

    BatchExecuteStatementResponse done = batch(
        statement("INSERT INTO " + t + " VALUE {'pk': ?, 'v': 1}", s("new")),
        statement("INSERT INTO " + t + " VALUE {'pk': 'old', 'v': 2}"),
        BatchStatementRequest.builder()
            .statement("UPDATE " + t + " SET v = 3 WHERE pk = 'old' AND v = 9")
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
            .build(),
        statement("UPDATE " + t + " SET v = v + 1 WHERE pk = 'old'"),
        statement("DELETE FROM " + t + " WHERE pk = 'gone'"));

    List<BatchStatementResponse> responses = done.responses();
    assertThat(responses).hasSize(5);
    assertThat(responses).extracting(BatchStatementResponse::tableName).containsOnly(table);
    assertThat(responses.get(0).error()).isNull();
    assertThat(responses.get(1).error().code())
        .isEqualTo(BatchStatementErrorCodeEnum.DUPLICATE_ITEM);
    assertThat(responses.get(1).error().message())
        .isEqualTo("Duplicate primary key exists in table");
    assertThat(responses.get(2).error().code())
        .isEqualTo(BatchStatementErrorCodeEnum.CONDITIONAL_CHECK_FAILED);
    assertThat(responses.get(2).error().item()).isEqualTo(item("pk", s("old"), "v", n("1")));
    assertThat(responses.get(3).error()).isNull();
    assertThat(responses.get(4).error()).isNull();

    assertThat(get(table, "new")).containsEntry("v", n("1"));
    assertThat(get(table, "old")).containsEntry("v", n("2"));
    assertThat(get(table, "gone")).isNull();
  }

  @Test
  void readsNameOneItemEach() {
    String table = createTable("pql-batch-r", "pk", S);
    String t = "\"" + table + "\"";
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), "v", s("A"))));

    BatchExecuteStatementResponse read = dynamo.batchExecuteStatement(r -> r
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
        .statements(
            statement("SELECT * FROM " + t + " WHERE pk = ?", s("a")),
            statement("SELECT v FROM " + t + " WHERE pk = 'none'"),
            statement("SELECT * FROM " + t + " WHERE v = 'A'")));
    assertThat(read.responses().get(0).item()).isEqualTo(get(table, "a"));
    assertThat(read.responses().get(0).error()).isNull();
    assertThat(read.responses().get(1).hasItem()).isFalse();
    assertThat(read.responses().get(1).error()).isNull();
    assertThat(read.responses().get(2).error().code())
        .isEqualTo(BatchStatementErrorCodeEnum.VALIDATION_ERROR);
    assertThat(read.responses().get(2).error().message()).isEqualTo("Select statements within"
        + " BatchExecuteStatement must specify the primary key in the where clause.");
    assertThat(read.consumedCapacity()).hasSize(2)
        .allSatisfy(c -> assertThat(c.tableName()).isEqualTo(table));
  }

  /**
   * A statement that does not parse is that statement's ValidationError, in the words it gets
   * alone, and the others run, as DynamoDB answers a batch (recorded).
   */
  @Test
  void aMalformedStatementIsItsOwnErrorAndTheOthersRun() {
    String table = createTable("pql-batch-m", "pk", S);
    String t = "\"" + table + "\"";
    List<BatchStatementResponse> responses = dynamo.batchExecuteStatement(r -> r.statements(
        statement("MERGE INTO " + t), statement("INSERT INTO " + t + " VALUE {'pk': 'a'}"),
        statement("SELECT * FROM " + t + " WHERE"))).responses();
    assertThat(responses).hasSize(3);
    assertThat(responses.get(0).error().code())
        .isEqualTo(BatchStatementErrorCodeEnum.VALIDATION_ERROR);
    assertThat(responses.get(0).error().message())
        .isEqualTo("Statement wasn't well formed, can't be processed: Expected data manipulation");
    assertThat(responses.get(1).error()).isNull();
    assertThat(responses.get(2).error().message())
        .isEqualTo("Statement wasn't well formed, can't be processed: Unexpected term");
    assertThat(get(table, "a")).isNotNull();
  }

  @Test
  void theWholeBatchFailsForMixedKindsOrTooMany() {
    String table = createTable("pql-batch-e", "pk", S);
    String t = "\"" + table + "\"";
    assertValidation(
        "A batch's statements are all reads (SELECT) or all writes (INSERT, UPDATE, DELETE,"
            + " EXISTS)",
        () -> batch(statement("INSERT INTO " + t + " VALUE {'pk': 'a'}"),
            statement("SELECT * FROM " + t + " WHERE pk = 'a'")));
    List<BatchStatementRequest> many = new ArrayList<>();
    for (int i = 0; i < 26; i++) {
      many.add(statement("INSERT INTO " + t + " VALUE {'pk': 'k" + i + "'}"));
    }
    assertValidationContaining("Member must have length less than or equal to 25",
        () -> dynamo.batchExecuteStatement(r -> r.statements(many)));
    assertThat(dynamo.scan(r -> r.tableName(table)).items()).isEmpty();
  }
}
