package io.stator.partiql;

import io.stator.api.DynamoDbException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The statements of a batch or a transaction, all parsed before any runs (one that does not
 * parse fails the whole request) and all reads or all writes, as DynamoDB requires of both.
 */
record StatementList(List<Parser.Parsed> parsed, boolean reads) {

  /**
   * Parses the statements of {@code requests}, read by {@code text}; {@code member} names
   * the request's list ("Statements") and {@code container} the request ("batch") in the errors.
   */
  static <T> StatementList of(
      List<T> requests, Function<T, String> text, int max, String member, String container) {
    if (requests == null || requests.stream().anyMatch(Objects::isNull)) {
      throw DynamoDbException.validation(member + " are required");
    }
    List<String> statements = requests.stream().map(text).toList();
    if (statements.isEmpty() || statements.size() > max) {
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
              + " (INSERT, UPDATE, DELETE, EXISTS)");
    }
    return new StatementList(parsed, reads != 0);
  }
}
