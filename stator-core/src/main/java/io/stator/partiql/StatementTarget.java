package io.stator.partiql;

import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;

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

  /**
   * The partition key values {@code statement} reads or writes, as IAM's
   * {@code dynamodb:LeadingKeys} holds them for the table or index keyed on {@code partitionKey}:
   * an INSERT's item's value; the values a WHERE clause pins the key to, by {@code =} or
   * {@code IN} at its top level. Null when they cannot be known from the text: a SELECT that
   * scans (a condition on leading keys must not let a statement read every partition), a key
   * named only inside an OR or NOT, a parameter missing, a statement that does not parse (it
   * then fails when it runs).
   */
  public static List<AttributeValue> leadingKeys(
      String statement, List<AttributeValue> parameters, String partitionKey) {
    try {
      Statement parsed = Parser.parse(statement).statement();
      ExpressionText text = new ExpressionText(parameters == null ? List.of() : parameters);
      if (parsed instanceof Statement.Insert insert) {
        AttributeValue item = text.bind(insert.item());
        AttributeValue key = item instanceof AttributeValue.M map
            ? map.value().get(partitionKey) : null;
        return key == null ? null : List.of(key);
      }
      Term where;
      if (parsed instanceof Statement.Select select) {
        where = select.where();
      } else if (parsed instanceof Statement.Exists exists) {
        where = exists.select().where();
      } else if (parsed instanceof Statement.Update update) {
        where = update.where();
      } else {
        where = ((Statement.Delete) parsed).where();
      }
      List<AttributeValue> keys = new ArrayList<>();
      for (Term conjunct : KeyedWhere.conjuncts(where)) {
        List<Term> values = KeyedWhere.keyValues(conjunct, partitionKey, true);
        for (Term value : values == null ? List.<Term>of() : values) {
          keys.add(text.bind(value));
        }
      }
      return keys.isEmpty() ? null : keys;
    } catch (RuntimeException unknowable) {
      return null;
    }
  }
}
