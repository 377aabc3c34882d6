package io.stator.partiql;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A WHERE clause split as DynamoDB splits a write's (or a point read's): the equalities that
 * name the item's full primary key, and the other conditions, which must hold for the write.
 * Only the clause's top-level conjuncts can name the key ({@code k = 1 OR k = 2} names none).
 */
record KeyedWhere(Map<String, AttributeValue> key, Term condition) {
  static final String NO_FULL_KEY =
      "Where clause does not contain a mandatory equality on all key attributes";


  static KeyedWhere of(Term where, List<String> keyNames, ExpressionText text) {
    List<Term> conjuncts = conjuncts(where);
    Map<String, AttributeValue> key = new LinkedHashMap<>();
    for (String keyName : keyNames) {
      for (int i = 0; i < conjuncts.size(); i++) {
        Term value = keyValue(conjuncts.get(i), keyName);
        if (value != null) {
          key.put(keyName, text.bind(value));
          conjuncts.remove(i);
          break;
        }
      }
      if (!key.containsKey(keyName)) {
        throw DynamoDbException.validation(NO_FULL_KEY);
      }
    }
    return new KeyedWhere(key, and(conjuncts));
  }

  /** As {@link #of}, or null where the clause does not name the full key. */
  static KeyedWhere ofOrNull(Term where, List<String> keyNames, ExpressionText text) {
    try {
      return of(where, keyNames, text);
    } catch (DynamoDbException e) {
      return null;
    }
  }

  /** The clause's top-level conjuncts, in a list the caller may change; none for no clause. */
  static List<Term> conjuncts(Term where) {
    List<Term> conjuncts = new ArrayList<>();
    flatten(where, conjuncts);
    return conjuncts;
  }

  /** The conjunction of the terms, or null for none. */
  static Term and(List<Term> conjuncts) {
    Term condition = null;
    for (Term conjunct : conjuncts) {
      condition = condition == null ? conjunct : new Term.And(condition, conjunct);
    }
    return condition;
  }

  /** Whether the clause is nothing but the equalities of the full key. */
  boolean onlyKey() {
    return condition == null;
  }

  private static void flatten(Term term, List<Term> into) {
    if (term instanceof Term.And and) {
      flatten(and.left(), into);
      flatten(and.right(), into);
    } else if (term != null) {
      into.add(term);
    }
  }

  /** The value of {@code keyName = value} (either way round), or null. */
  static Term keyValue(Term conjunct, String keyName) {
    if (!(conjunct instanceof Term.Comparison c) || !c.operator().equals("=")) {
      return null;
    }
    if (isAttribute(c.left(), keyName) && isValue(c.right())) {
      return c.right();
    }
    if (isAttribute(c.right(), keyName) && isValue(c.left())) {
      return c.left();
    }
    return null;
  }

  static boolean isAttribute(Term term, String name) {
    return term instanceof Term.PathTerm path && path.isTopLevel() && path.name().equals(name);
  }

  static boolean isValue(Term term) {
    return term instanceof Term.Literal || term instanceof Term.Parameter;
  }
}
