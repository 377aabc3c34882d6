package io.stator.partiql;

import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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

  /**
   * The top-level attribute names {@code statement} reads or writes, as IAM's
   * {@code dynamodb:Attributes} holds them: an INSERT's item's names; the paths a SELECT
   * projects, an UPDATE sets or removes, and every path of a WHERE clause or SET value. Null when
   * the statement reads or returns whole items ({@code SELECT *}, {@code RETURNING ALL ...}) or
   * does not parse.
   */
  public static List<String> attributes(String statement, List<AttributeValue> parameters) {
    try {
      Statement parsed = Parser.parse(statement).statement();
      Set<String> names = new TreeSet<>();
      if (parsed instanceof Statement.Insert insert) {
        AttributeValue item = new ExpressionText(parameters == null ? List.of() : parameters)
            .bind(insert.item());
        if (!(item instanceof AttributeValue.M map)) {
          return null;
        }
        names.addAll(map.value().keySet());
      } else if (parsed instanceof Statement.Select select) {
        if (select.projection() == null || select.projection().isEmpty()) {
          return null;
        }
        select.projection().forEach(path -> names.add(path.name()));
        paths(select.where(), names);
      } else if (parsed instanceof Statement.Exists exists) {
        paths(exists.select().where(), names);
      } else if (parsed instanceof Statement.Update update) {
        if (returnsWholeItems(update.returnValues())) {
          return null;
        }
        for (Statement.Action action : update.actions()) {
          if (action instanceof Statement.Action.Set set) {
            names.add(set.path().name());
            paths(set.value(), names);
          } else {
            names.add(((Statement.Action.Remove) action).path().name());
          }
        }
        paths(update.where(), names);
      } else {
        Statement.Delete delete = (Statement.Delete) parsed;
        if (returnsWholeItems(delete.returnValues())) {
          return null;
        }
        paths(delete.where(), names);
      }
      return List.copyOf(names);
    } catch (RuntimeException unknowable) {
      return null;
    }
  }

  private static boolean returnsWholeItems(String returnValues) {
    return returnValues != null && returnValues.startsWith("ALL_");
  }

  /** Adds the top-level name of every path in {@code term}. */
  private static void paths(Term term, Set<String> names) {
    if (term instanceof Term.PathTerm path) {
      names.add(path.name());
    } else if (term instanceof Term.Comparison c) {
      paths(c.left(), names);
      paths(c.right(), names);
    } else if (term instanceof Term.Arithmetic a) {
      paths(a.left(), names);
      paths(a.right(), names);
    } else if (term instanceof Term.And and) {
      paths(and.left(), names);
      paths(and.right(), names);
    } else if (term instanceof Term.Or or) {
      paths(or.left(), names);
      paths(or.right(), names);
    } else if (term instanceof Term.Not not) {
      paths(not.operand(), names);
    } else if (term instanceof Term.Between between) {
      paths(between.operand(), names);
      paths(between.low(), names);
      paths(between.high(), names);
    } else if (term instanceof Term.In in) {
      paths(in.operand(), names);
      in.candidates().forEach(t -> paths(t, names));
    } else if (term instanceof Term.Is is) {
      paths(is.operand(), names);
    } else if (term instanceof Term.Call call) {
      call.arguments().forEach(t -> paths(t, names));
    } else if (term instanceof Term.ListTerm list) {
      list.elements().forEach(t -> paths(t, names));
    } else if (term instanceof Term.SetTerm set) {
      set.elements().forEach(t -> paths(t, names));
    } else if (term instanceof Term.MapTerm map) {
      map.entries().forEach(e -> paths(e.value(), names));
    }
  }
}
