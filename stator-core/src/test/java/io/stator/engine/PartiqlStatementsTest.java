package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.BatchExecuteStatementRequest;
import io.stator.api.BatchStatementRequest;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteStatementResponse;
import io.stator.api.ExecuteTransactionRequest;
import io.stator.api.ParameterizedStatement;
import io.stator.api.TransactionCanceledException;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The PartiQL statements on the engine, so on every storage (the storage modules rerun engine
 * tests): writes, SELECTs as a GetItem, a Query over several partitions with ORDER BY and paging,
 * a Scan, a transaction with EXISTS, and a batch, each checked through GetItem.
 */
class PartiqlStatementsTest extends EngineTest {

  @BeforeEach
  void table() {
    db.createTable(create("Events", "pk", "S", "sk", "N"));
  }

  private ExecuteStatementResponse run(String statement, String nextToken, Integer limit,
      AttributeValue... parameters) {
    return db.executeStatement(new ExecuteStatementRequest(
        statement, parameters.length == 0 ? null : List.of(parameters), true, nextToken, null,
        limit, null));
  }

  private Map<String, AttributeValue> get(String pk, int sk) {
    return db.getItem(Fixtures.get("Events", item("pk", pk, "sk", sk))).item();
  }

  private static ParameterizedStatement statement(String text) {
    return new ParameterizedStatement(text, null, null);
  }

  @Test
  void statementsWriteAndReadThroughTheEngine() {
    for (String pk : List.of("b", "a", "c")) {
      for (int sk = 1; sk <= 3; sk++) {
        run("INSERT INTO Events VALUE {'pk': ?, 'sk': ?, 'n': 0}", null, null,
            AttributeValue.s(pk), AttributeValue.n(Integer.toString(sk)));
      }
    }
    var updated = run("UPDATE Events SET n = n + 5 WHERE pk = 'a' AND sk = 2"
        + " RETURNING MODIFIED NEW *", null, null);
    assertThat(updated.items()).containsExactly(item("n", 5));
    run("DELETE FROM Events WHERE pk = 'c' AND sk = 3", null, null);
    assertThat(get("c", 3)).isNull();

    assertThat(run("SELECT n FROM Events WHERE pk = 'a' AND sk = 2", null, null).items())
        .containsExactly(item("n", 5));
    // Two partitions, the partition key descending and the sort key descending, two a page
    List<String> read = new ArrayList<>();
    String token = null;
    do {
      ExecuteStatementResponse page = run("SELECT pk, sk FROM Events WHERE pk IN ('a', 'c')"
          + " AND sk >= 2 ORDER BY pk DESC, sk DESC", token, 2);
      page.items().forEach(i -> read.add(((AttributeValue.S) i.get("pk")).value()
          + ((AttributeValue.N) i.get("sk")).value()));
      token = page.nextToken();
    } while (token != null);
    assertThat(read).containsExactly("c2", "a3", "a2");
    assertThat(run("SELECT * FROM Events WHERE n > 0", null, null).items())
        .containsExactly(item("pk", "a", "sk", 2, "n", 5));
  }

  @Test
  void aTransactionWithExistsAndABatchApplyAsTheirItemOperations() {
    run("INSERT INTO Events VALUE {'pk': 'account', 'sk': 0, 'open': false}", null, null);
    assertThatThrownBy(() -> db.executeTransaction(new ExecuteTransactionRequest(List.of(
        statement("EXISTS(SELECT * FROM Events WHERE pk = 'account' AND sk = 0 AND open = true)"),
        statement("INSERT INTO Events VALUE {'pk': 'order', 'sk': 1}")), null, null)))
        .isInstanceOf(TransactionCanceledException.class);
    assertThat(get("order", 1)).isNull();

    run("UPDATE Events SET open = true WHERE pk = 'account' AND sk = 0", null, null);
    db.executeTransaction(new ExecuteTransactionRequest(List.of(
        statement("EXISTS(SELECT * FROM Events WHERE pk = 'account' AND sk = 0 AND open = true)"),
        statement("INSERT INTO Events VALUE {'pk': 'order', 'sk': 1}")), "token-1", null));
    assertThat(get("order", 1)).isNotNull();

    var batch = db.batchExecuteStatement(new BatchExecuteStatementRequest(List.of(
        new BatchStatementRequest("INSERT INTO Events VALUE {'pk': 'order', 'sk': 1}", null,
            null, null),
        new BatchStatementRequest("INSERT INTO Events VALUE {'pk': 'order', 'sk': 2}", null,
            null, null)), null));
    assertThat(batch.responses().get(0).error().code()).isEqualTo("DuplicateItem");
    assertThat(batch.responses().get(1).error()).isNull();
    assertThat(get("order", 2)).isNotNull();
  }
}
