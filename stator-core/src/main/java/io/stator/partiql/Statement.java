package io.stator.partiql;

import java.util.List;

/** A PartiQL statement as DynamoDB runs it: one of the four forms on one table. */
sealed interface Statement {

  String table();

  /**
   * {@code SELECT * | paths FROM "table"[."index"] [WHERE condition] [ORDER BY key [ASC|DESC],
   * ...]}; {@code orderBy} is empty without ORDER BY.
   */
  record Select(
      String table, String index, List<Term.PathTerm> projection, Term where,
      List<OrderBy> orderBy) implements Statement {}

  /** One key of an ORDER BY clause and its direction. */
  record OrderBy(String attribute, boolean descending) {}

  /**
   * {@code EXISTS(SELECT ... WHERE <full key> [AND condition])}: a transaction's ConditionCheck,
   * which holds where the item exists and meets the condition.
   */
  record Exists(Select select) implements Statement {
    @Override
    public String table() {
      return select.table();
    }
  }

  /** {@code INSERT INTO "table" VALUE {...}}. */
  record Insert(String table, Term item) implements Statement {}

  /** {@code UPDATE "table" SET ... | REMOVE ... WHERE ... [RETURNING ...]}. */
  record Update(String table, List<Action> actions, Term where, String returnValues)
      implements Statement {}

  /** {@code DELETE FROM "table" WHERE ... [RETURNING ALL OLD *]}. */
  record Delete(String table, Term where, String returnValues) implements Statement {}

  /** One action of an UPDATE: {@code SET path = value} or {@code REMOVE path}. */
  sealed interface Action {
    record Set(Term.PathTerm path, Term value) implements Action {}

    record Remove(Term.PathTerm path) implements Action {}
  }
}
