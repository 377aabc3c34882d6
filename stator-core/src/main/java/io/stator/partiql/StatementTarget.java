package io.stator.partiql;

/**
 * What a PartiQL statement acts on, for access control: IAM authorizes a statement as the
 * action of its form ({@code PartiQLSelect}, {@code PartiQLInsert}, {@code PartiQLUpdate},
 * {@code PartiQLDelete}) on the table or index it names.
 *
 * @param index the index a SELECT reads, or null
 */
public record StatementTarget(String action, String table, String index) {

  /** The target of {@code statement}, or null when it does not parse (running it then fails). */
  public static StatementTarget of(String statement) {
    Statement parsed;
    try {
      parsed = Parser.parse(statement).statement();
    } catch (io.stator.api.DynamoDbException doesNotParse) {
      return null;
    }
    if (parsed instanceof Statement.Select s) {
      return new StatementTarget("PartiQLSelect", s.table(), s.index());
    }
    if (parsed instanceof Statement.Exists e) {
      return new StatementTarget("PartiQLSelect", e.table(), e.select().index());
    }
    if (parsed instanceof Statement.Insert) {
      return new StatementTarget("PartiQLInsert", parsed.table(), null);
    }
    if (parsed instanceof Statement.Update) {
      return new StatementTarget("PartiQLUpdate", parsed.table(), null);
    }
    return new StatementTarget("PartiQLDelete", parsed.table(), null);
  }
}
