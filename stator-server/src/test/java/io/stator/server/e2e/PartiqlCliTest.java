package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The three PartiQL operations through the AWS CLI ({@code aws dynamodb execute-statement},
 * {@code batch-execute-statement}, {@code execute-transaction}), as a user types them, each
 * checked through the SDK afterwards. Runs where an {@code aws} command is on the PATH.
 */
class PartiqlCliTest extends EndToEndTest {
  private record Run(int exit, String out, String err) {}

  private Run aws(String... arguments) {
    List<String> command = new ArrayList<>(List.of("aws", "dynamodb"));
    command.addAll(List.of(arguments));
    command.addAll(List.of("--endpoint-url", endpoint.uri().toString(), "--region", "us-east-1",
        "--output", "json"));
    try {
      Path out = Files.createTempFile("aws-out", ".json");
      Path err = Files.createTempFile("aws-err", ".txt");
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().putAll(Map.of(
          "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local",
          "AWS_PAGER", "", "AWS_MAX_ATTEMPTS", "1"));
      Process process = builder.start();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("aws finished").isTrue();
      Run run = new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
      Files.delete(out);
      Files.delete(err);
      return run;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static boolean cliInstalled() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, "aws"))) {
        return true;
      }
    }
    return false;
  }

  private Map<String, AttributeValue> get(String table, String pk, String sk) {
    var got = dynamo.getItem(r -> r.tableName(table)
        .key(item("pk", s(pk), "sk", n(sk))).consistentRead(true));
    return got.hasItem() ? got.item() : null;
  }

  @Test
  void eachStatementFormRunsFromTheCli() {
    assumeTrue(cliInstalled(), "the AWS CLI is not installed");
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
