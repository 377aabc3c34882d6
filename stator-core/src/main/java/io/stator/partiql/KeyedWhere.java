package io.stator.partiql;

import io.stator.api.DynamoDbException;
import io.stator.key.KeyCodec;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
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

  /** How a clause that conditions a key attribute more than once is read (recorded from AWS). */
  enum Use {
    /**
     * An UPDATE's or a DELETE's: a key named twice with one value is named once; with two, the
     * write is refused, since it would not name one item.
     */
    WRITE,
    /** An EXISTS check's: the first equality names the key, the others stay its condition. */
    CHECK,
    /**
     * A SELECT's of one item (in a batch or a transaction): a one-value IN names the key too,
     * and a key named with two values names no item.
     */
    POINT_READ
  }

  static KeyedWhere of(Term where, List<String> keyNames, ExpressionText text) {
    return of(where, keyNames, text, Use.WRITE);
  }

  static KeyedWhere of(Term where, List<String> keyNames, ExpressionText text, Use use) {
    List<Term> conjuncts = conjuncts(where);
    Map<String, AttributeValue> key = new LinkedHashMap<>();
    for (String keyName : keyNames) {
      AttributeValue value = null;
      for (Iterator<Term> each = conjuncts.iterator(); each.hasNext(); ) {
        List<Term> values = keyValues(each.next(), keyName, use == Use.POINT_READ);
        if (values == null || (value != null && use == Use.CHECK)) {
          continue;
        }
        for (Term term : values) {
          AttributeValue bound = text.bind(term);
          if (value == null) {
            value = bound;
          } else if (!same(value, bound)) {
            throw twoValues(keyName, use);
          } else if (values.size() > 1) {
            // pk IN ['a', 'a'] reads one item twice, as overlapping reads do
            throw DynamoDbException.validation(KeyReads.OVERLAPPING);
          }
        }
        each.remove();
      }
      if (value == null) {
        throw DynamoDbException.validation(NO_FULL_KEY);
      }
      key.put(keyName, value);
    }
    return new KeyedWhere(key, and(conjuncts));
  }

  /** As {@link #of}, or null where the clause does not name one item by its full key. */
  static KeyedWhere ofOrNull(Term where, List<String> keyNames, ExpressionText text, Use use) {
    try {
      return of(where, keyNames, text, use);
    } catch (DynamoDbException e) {
      if (e.getMessage().equals(KeyReads.OVERLAPPING)) {
        throw e;
      }
      return null;
    }
  }

  private static DynamoDbException twoValues(String keyName, Use use) {
    if (use == Use.WRITE) {
      return DynamoDbException.validation("Multiple conditions on same key " + keyName
          + ". Only single item Update/Insert/Delete are supported");
    }
    return DynamoDbException.validation(NO_FULL_KEY);
  }

  /** Whether two values of a key are one value (as numbers, 1 and 1.0 are). */
  private static boolean same(AttributeValue a, AttributeValue b) {
    if (!a.type().equals(b.type())) {
      return false;
    }
    try {
      return Arrays.equals(KeyCodec.sort(a), KeyCodec.sort(b));
    } catch (IllegalArgumentException notAKeyType) {
      return a.equals(b);
    }
  }

  /**
   * The values {@code keyName = value} (either way round) names, or with {@code in} those of
   * {@code keyName IN [values]}; null for a conjunct that names none.
   */
  static List<Term> keyValues(Term conjunct, String keyName, boolean in) {
    Term value = keyValue(conjunct, keyName);
    if (value != null) {
      return List.of(value);
    }
    if (in && conjunct instanceof Term.In list && isAttribute(list.operand(), keyName)
        && !list.candidates().isEmpty()
        && list.candidates().stream().allMatch(KeyedWhere::isValue)) {
      return list.candidates();
    }
    return null;
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
