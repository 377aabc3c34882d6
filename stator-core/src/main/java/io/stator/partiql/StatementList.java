package io.stator.partiql;

import io.stator.api.DynamoDbException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The statements of a batch or a transaction, all parsed before any runs, and all reads or all
 * writes, as DynamoDB requires of both. A statement that does not parse fails a transaction
 * whole ("Validation failed in TransactStatements[i]: " and why, as recorded from DynamoDB), while
 * in a batch it is that statement's error alone and the others run.
 *
 * @param parsed each statement parsed, or null where it does not parse
 * @param failures each statement's parse error, or null where it parses
 */
record StatementList(
    List<Parser.Parsed> parsed, List<DynamoDbException> failures, boolean reads) {

  /** DynamoDB's words for statement {@code i} of the request's list {@code member} refused. */
  static String failedIn(String member, int i, String why) {
    return "Validation failed in " + member + "[" + i + "]: " + why;
  }

  /**
   * Parses the statements of {@code requests}, read by {@code text}; {@code member} names
   * the request's list ("Statements") and {@code container} the request ("batch") in the errors;
   * {@code eachOnItsOwn} keeps a statement's parse error for its response rather than failing
   * the request.
   */
  static <T> StatementList of(List<T> requests, Function<T, String> text, int max, String member,
      String container, boolean eachOnItsOwn) {
    if (requests == null || requests.stream().anyMatch(Objects::isNull)) {
      throw DynamoDbException.validation(member + " are required");
    }
    List<String> statements = requests.stream().map(text).toList();
    if (statements.isEmpty() || statements.size() > max) {
      throw DynamoDbException.validation(
          "A " + container + " holds from 1 to " + max + " statements");
    }
    List<Parser.Parsed> parsed = new ArrayList<>();
    List<DynamoDbException> failures = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) == null) {
        throw DynamoDbException.validation("Statement is required");
      }
      try {
        parsed.add(Parser.parse(statements.get(i)));
        failures.add(null);
      } catch (DynamoDbException e) {
        if (!eachOnItsOwn) {
          throw DynamoDbException.validation(failedIn(member, i, e.getMessage()));
        }
        parsed.add(null);
        failures.add(e);
      }
    }
    long reads = parsed.stream()
        .filter(p -> p != null && p.statement() instanceof Statement.Select).count();
    long writes = parsed.stream().filter(Objects::nonNull).count() - reads;
    if (reads != 0 && writes != 0) {
      throw DynamoDbException.validation(
          "A " + container + "'s statements are all reads (SELECT) or all writes"
              + " (INSERT, UPDATE, DELETE, EXISTS)");
    }
    return new StatementList(parsed, failures, reads != 0);
  }
}
