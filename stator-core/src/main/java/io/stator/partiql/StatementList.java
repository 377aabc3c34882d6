package io.stator.partiql;

import io.stator.api.DynamoDbException;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements of a batch or a transaction, all parsed before any runs (one that does not
 * parse fails the whole request) and all reads or all writes, as DynamoDB requires of both.
 */
record StatementList(List<Parser.Parsed> parsed, boolean reads) {

  /** {@code container} names the request in the errors: "batch" or "transaction". */
  static StatementList of(List<String> statements, int max, String container) {
    if (statements == null || statements.isEmpty() || statements.size() > max) {
      throw DynamoDbException.validation(
          "A " + container + " holds from 1 to " + max + " statements");
    }
    List<Parser.Parsed> parsed = new ArrayList<>();
    for (String statement : statements) {
      if (statement == null) {
        throw DynamoDbException.validation("Statement is required");
      }
      parsed.add(Parser.parse(statement));
    }
    long reads = parsed.stream().filter(p -> p.statement() instanceof Statement.Select).count();
    if (reads != 0 && reads != parsed.size()) {
      throw DynamoDbException.validation(
          "A " + container + "'s statements are all reads (SELECT) or all writes"
              + " (INSERT, UPDATE, DELETE)");
    }
    return new StatementList(parsed, reads != 0);
  }
}
