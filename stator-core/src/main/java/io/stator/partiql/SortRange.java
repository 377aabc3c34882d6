package io.stator.partiql;

import io.stator.key.KeyCodec;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The sort-key part of the Query a SELECT runs. One condition on the sort key ({@code =},
 * {@code <}, {@code <=}, {@code >}, {@code >=}, {@code BETWEEN}, {@code begins_with}) is its key
 * condition as written. A lower bound ({@code >}, {@code >=}) and an upper bound ({@code <},
 * {@code <=}) together, as in {@code sk > ? AND sk < ?}, are one range, as DynamoDB reads them: a
 * key condition holds one condition on the sort key, so the pair becomes {@code sk BETWEEN low
 * AND high}, and an exclusive end then leaves out the items whose sort key is that end, once the
 * Query has read them (in a Query's filter a key attribute would be refused). A range that holds
 * nothing (its low end above its high end, or a single value one end excludes) reads nothing.
 */
final class SortRange {
  static final SortRange NONE = new SortRange(null, null, null, false);
  private static final SortRange EMPTY = new SortRange(null, null, null, true);

  /** The sort key's part of the key condition, or null. */
  final Term keyCondition;
  /** True when no item can match: the Query need not run. */
  final boolean empty;
  private final AttributeValue excludedLow;
  private final AttributeValue excludedHigh;

  private SortRange(
      Term keyCondition, AttributeValue excludedLow, AttributeValue excludedHigh, boolean empty) {
    this.keyCondition = keyCondition;
    this.excludedLow = excludedLow;
    this.excludedHigh = excludedHigh;
    this.empty = empty;
  }

  /** Takes the sort key's conditions out of {@code conjuncts}: one, or a lower and upper bound. */
  static SortRange take(List<Term> conjuncts, String sortKey, ExpressionText text) {
    Term first = Selects.take(conjuncts, c -> Selects.isSortKeyCondition(c, sortKey));
    if (first == null) {
      return NONE;
    }
    if (!(first instanceof Term.Comparison c) || bound(c) == 0) {
      return new SortRange(first, null, null, false);
    }
    int side = bound(c);
    Term second = Selects.take(conjuncts, t -> t instanceof Term.Comparison o
        && Selects.isSortKeyCondition(o, sortKey) && bound(o) == -side);
    if (second == null) {
      return new SortRange(first, null, null, false);
    }
    Term.Comparison low = side > 0 ? c : (Term.Comparison) second;
    Term.Comparison high = side > 0 ? (Term.Comparison) second : c;
    AttributeValue lowValue = text.bind(low.right());
    AttributeValue highValue = text.bind(high.right());
    boolean lowExclusive = low.operator().equals(">");
    boolean highExclusive = high.operator().equals("<");
    Integer order = compare(lowValue, highValue);
    if (order != null && (order > 0 || (order == 0 && (lowExclusive || highExclusive)))) {
      return EMPTY;
    }
    return new SortRange(
        new Term.Between(low.left(), low.right(), high.right()),
        lowExclusive ? lowValue : null, highExclusive ? highValue : null, false);
  }

  /** True when the items a Query reads must still lose those at an exclusive end. */
  boolean excludesEnds() {
    return excludedLow != null || excludedHigh != null;
  }

  /**
   * The items a Query read, without those whose sort key is an excluded end; {@code strip}
   * removes the sort key from those kept (it was read only for this).
   */
  List<Map<String, AttributeValue>> keep(
      List<Map<String, AttributeValue>> items, String sortKey, boolean strip) {
    if (!excludesEnds()) {
      return items;
    }
    List<Map<String, AttributeValue>> kept = new ArrayList<>(items.size());
    for (Map<String, AttributeValue> item : items) {
      AttributeValue value = item.get(sortKey);
      if (equal(value, excludedLow) || equal(value, excludedHigh)) {
        continue;
      }
      if (strip) {
        item = new java.util.LinkedHashMap<>(item);
        item.remove(sortKey);
      }
      kept.add(item);
    }
    return kept;
  }

  /** +1 for a lower bound, -1 for an upper bound, 0 for another comparison. */
  private static int bound(Term.Comparison c) {
    return switch (c.operator()) {
      case ">", ">=" -> 1;
      case "<", "<=" -> -1;
      default -> 0;
    };
  }

  private static boolean equal(AttributeValue value, AttributeValue end) {
    Integer order = end == null || value == null ? null : compare(value, end);
    return order != null && order == 0;
  }

  /**
   * The key order of two values of one key type (S, N or B); null for values of other or
   * different types, which the Query refuses in its own words.
   */
  private static Integer compare(AttributeValue a, AttributeValue b) {
    if (!a.type().equals(b.type()) || !List.of("S", "N", "B").contains(a.type())) {
      return null;
    }
    return Arrays.compareUnsigned(KeyCodec.sort(a), KeyCodec.sort(b));
  }
}
