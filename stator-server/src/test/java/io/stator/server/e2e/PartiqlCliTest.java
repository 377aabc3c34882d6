package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import io.stator.server.AwsCli;
import io.stator.server.AwsCli.Run;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The three PartiQL operations through the AWS CLI ({@code aws dynamodb execute-statement},
 * {@code batch-execute-statement}, {@code execute-transaction}), as a user types them, each
 * checked through the SDK afterwards. Runs where an {@code aws} command is on the PATH.
 */
class PartiqlCliTest extends EndToEndTest {
  private Run aws(String... arguments) {
    return AwsCli.dynamodb(endpoint.uri(), arguments);
  }

  private Map<String, AttributeValue> get(String table, String pk, String sk) {
    var got = dynamo.getItem(r -> r.tableName(table)
        .key(item("pk", s(pk), "sk", n(sk))).consistentRead(true));
    return got.hasItem() ? got.item() : null;
  }

  @Test
  void eachStatementFormRunsFromTheCli() {
    assumeTrue(AwsCli.installed(), "the AWS CLI is not installed");
    String table = createTable("pql-cli", "pk", ScalarAttributeType.S, "sk",
        ScalarAttributeType.N);
    String t = "\"" + table + "\"";

    Run insert = aws("execute-statement", "--statement",
        "INSERT INTO " + t + " VALUE {'pk': 'a', 'sk': 1, 'tags': <<'x', 'y'>>, 'n': 5}");
    assertThat(insert.exit()).as(insert.err()).isZero();
    assertThat(get(table, "a", "1")).containsEntry("n", n("5"))
        .containsEntry("tags", AttributeValue.fromSs(List.of("x", "y")));

    Run update = aws("execute-statement", "--statement",
        "UPDATE " + t + " SET n = n + ? WHERE pk = ? AND sk = 1 RETURNING MODIFIED NEW *",
        "--parameters", "[{\"N\": \"2\"}, {\"S\": \"a\"}]");
    assertThat(update.exit()).as(update.err()).isZero();
    assertThat(update.out()).contains("\"n\"").contains("\"N\": \"7\"");
    assertThat(get(table, "a", "1")).containsEntry("n", n("7"));

    Run batch = aws("batch-execute-statement", "--statements",
        "[{\"Statement\": \"INSERT INTO " + t.replace("\"", "\\\"")
            + " VALUE {'pk': 'a', 'sk': 2}\"},"
            + " {\"Statement\": \"INSERT INTO " + t.replace("\"", "\\\"")
            + " VALUE {'pk': 'a', 'sk': 1}\"}]");
    assertThat(batch.exit()).as(batch.err()).isZero();
    assertThat(batch.out()).contains("\"Code\": \"DuplicateItem\"");
    assertThat(get(table, "a", "2")).isNotNull();

    Run query = aws("execute-statement", "--statement",
        "SELECT sk FROM " + t + " WHERE pk = 'a' AND sk >= 1 ORDER BY sk DESC");
    assertThat(query.exit()).as(query.err()).isZero();
    assertThat(query.out().indexOf("\"N\": \"2\"")).isPositive()
        .isLessThan(query.out().indexOf("\"N\": \"1\""));

    Run transaction = aws("execute-transaction", "--transact-statements",
        "[{\"Statement\": \"DELETE FROM " + t.replace("\"", "\\\"")
            + " WHERE pk = 'a' AND sk = 2\"},"
            + " {\"Statement\": \"UPDATE " + t.replace("\"", "\\\"")
            + " SET done = true WHERE pk = 'a' AND sk = 1\"}]");
    assertThat(transaction.exit()).as(transaction.err()).isZero();
    assertThat(get(table, "a", "2")).isNull();
    assertThat(get(table, "a", "1")).containsEntry("done", AttributeValue.fromBool(true));

    Run malformed = aws("execute-statement", "--statement", "SELECT * FROM " + t + " WHERE");
    assertThat(malformed.exit()).isNotZero();
    assertThat(malformed.err()).contains("ValidationException")
        .contains("Statement wasn't well formed, can't be processed");
    Run noKey = aws("execute-statement", "--statement",
        "UPDATE " + t + " SET n = 1 WHERE pk = 'a'");
    assertThat(noKey.exit()).isNotZero();
    assertThat(noKey.err())
        .contains("Where clause does not contain a mandatory equality on all key attributes");
    assertThat(get(table, "a", "1")).containsEntry("n", n("7"));
  }
}
