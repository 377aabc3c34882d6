package io.stator.partiql;

import io.stator.key.KeyCodec;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sort-key part of one read of a SELECT: the conditions of one branch of its WHERE clause on
 * the sort key ({@code =}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code BETWEEN}, {@code
 * begins_with}), which together select one range of sort keys.
 *
 * <p>A Query's key condition holds one condition on the sort key, so a range given by several
 * (as {@code sk > ? AND sk < ?}, or {@code sk = ? AND sk > ?}) is read with one that holds the
 * whole range ({@code BETWEEN} its ends, or the {@code begins_with} among them), and the items read
 * are then checked against the range itself: in a Query's filter a key attribute would be
 * refused. A range that holds nothing reads nothing. Ranges are compared in the storage's key
 * order, so that a SELECT whose reads of one partition overlap can be refused as DynamoDB
 * refuses it.
 */
final class SortRange {
  static final SortRange ALL = new SortRange(null, null, null, false);

  /** The sort key's part of the key condition, or null to read the whole partition. */
  final Term keyCondition;
  private final End low;
  private final End high;
  /** Whether the items the key condition reads must still be checked against the range. */
  private final boolean narrower;

  /** One end of a range: a value's key bytes, and whether the value itself is in the range. */
  private record End(byte[] bytes, AttributeValue value, boolean inclusive) {}

  private SortRange(Term keyCondition, End low, End high, boolean narrower) {
    this.keyCondition = keyCondition;
    this.low = low;
    this.high = high;
    this.narrower = narrower;
  }

  /**
   * The range the conditions select together. Each condition is one {@link
   * Selects#isSortKeyCondition} accepts, its values of the sort key's type.
   */
  static SortRange of(List<Term> conditions, ExpressionText text) {
    if (conditions.isEmpty()) {
      return ALL;
    }
    End low = null;
    End high = null;
    Term prefix = null;
    for (Term condition : conditions) {
      End[] ends = ends(condition, text);
      low = tighter(low, ends[0], true);
      high = tighter(high, ends[1], false);
      if (condition instanceof Term.Call) {
        prefix = condition;
      }
    }
    if (conditions.size() == 1) {
      return new SortRange(conditions.get(0), low, high, false);
    }
    Term path = attribute(conditions.get(0));
    Term keyCondition;
    if (prefix != null) {
      keyCondition = prefix;
    } else if (low != null && high != null) {
      keyCondition = new Term.Between(
          path, new Term.Literal(low.value()), new Term.Literal(high.value()));
    } else if (low != null) {
      keyCondition = new Term.Comparison(
          low.inclusive() ? ">=" : ">", path, new Term.Literal(low.value()));
    } else {
      keyCondition = new Term.Comparison(
          high.inclusive() ? "<=" : "<", path, new Term.Literal(high.value()));
    }
    return new SortRange(keyCondition, low, high, true);
  }

  /**
   * True when the conditions together select no sort key, so their read need not run. (One
   * condition alone is read as written, and the Query refuses a BETWEEN whose ends are reversed.)
   */
  boolean empty() {
    return narrower && selectsNothing();
  }

  private boolean selectsNothing() {
    if (low == null || high == null) {
      return false;
    }
    int order = Arrays.compareUnsigned(low.bytes(), high.bytes());
    return order > 0 || (order == 0 && !(low.inclusive() && high.inclusive()));
  }

  /** True when some sort key is in both ranges. */
  boolean overlaps(SortRange other) {
    return !new SortRange(null, tighter(low, other.low, true), tighter(high, other.high, false),
        true).selectsNothing();
  }

  /** The order of two ranges' reads: by their low ends, a range open below first. */
  int compareLow(SortRange other) {
    if (low == null || other.low == null) {
      return low == null ? (other.low == null ? 0 : -1) : 1;
    }
    return Arrays.compareUnsigned(low.bytes(), other.low.bytes());
  }

  /** True when the items a Query reads must still be checked against the range. */
  boolean checksItems() {
    return narrower;
  }

  /**
   * The items a Query read that are in the range; {@code strip} removes the sort key from those
   * kept (it was read only for this).
   */
  List<Map<String, AttributeValue>> keep(
      List<Map<String, AttributeValue>> items, String sortKey, boolean strip) {
    if (!narrower) {
      return items;
    }
    List<Map<String, AttributeValue>> kept = new ArrayList<>(items.size());
    for (Map<String, AttributeValue> item : items) {
      if (!contains(item.get(sortKey))) {
        continue;
      }
      if (strip) {
        item = new LinkedHashMap<>(item);
        item.remove(sortKey);
      }
      kept.add(item);
    }
    return kept;
  }

  private boolean contains(AttributeValue value) {
    if (value == null) {
      return false;
    }
    byte[] bytes = KeyCodec.sort(value);
    if (low != null) {
      int order = Arrays.compareUnsigned(bytes, low.bytes());
      if (order < 0 || (order == 0 && !low.inclusive())) {
        return false;
      }
    }
    if (high != null) {
      int order = Arrays.compareUnsigned(bytes, high.bytes());
      return order < 0 || (order == 0 && high.inclusive());
    }
    return true;
  }

  /** The low and the high end of what one condition selects (null: open on that side). */
  private static End[] ends(Term condition, ExpressionText text) {
    if (condition instanceof Term.Between between) {
      return new End[] {end(between.low(), text, true), end(between.high(), text, true)};
    }
    if (condition instanceof Term.Call call) {
      // begins_with: from the prefix itself up to the first key past every key it starts
      AttributeValue prefix = text.bind(call.arguments().get(1));
      byte[] bytes = KeyCodec.sort(prefix);
      byte[] past = past(bytes);
      return new End[] {
        new End(bytes, prefix, true), past == null ? null : new End(past, null, false)};
    }
    Term.Comparison c = (Term.Comparison) condition;
    return switch (c.operator()) {
      case "=" -> new End[] {end(c.right(), text, true), end(c.right(), text, true)};
      case "<" -> new End[] {null, end(c.right(), text, false)};
      case "<=" -> new End[] {null, end(c.right(), text, true)};
      case ">" -> new End[] {end(c.right(), text, false), null};
      default -> new End[] {end(c.right(), text, true), null};
    };
  }

  private static End end(Term value, ExpressionText text, boolean inclusive) {
    AttributeValue bound = text.bind(value);
    return new End(KeyCodec.sort(bound), bound, inclusive);
  }

  /** The least key bytes above every key that starts with {@code prefix}, or null for none. */
  private static byte[] past(byte[] prefix) {
    int last = prefix.length - 1;
    while (last >= 0 && prefix[last] == (byte) 0xFF) {
      last--;
    }
    if (last < 0) {
      return null;
    }
    byte[] past = Arrays.copyOf(prefix, last + 1);
    past[last]++;
    return past;
  }

  /** Of two ends on one side, the one that selects less (null selects everything). */
  private static End tighter(End a, End b, boolean lowSide) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    int order = Arrays.compareUnsigned(a.bytes(), b.bytes());
    if (order == 0) {
      return a.inclusive() ? b : a;
    }
    return (order > 0) == lowSide ? a : b;
  }

  private static Term attribute(Term condition) {
    if (condition instanceof Term.Between between) {
      return between.operand();
    }
    if (condition instanceof Term.Call call) {
      return call.arguments().get(0);
    }
    return ((Term.Comparison) condition).left();
  }
}
