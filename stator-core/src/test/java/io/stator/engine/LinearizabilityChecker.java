package io.stator.engine;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides whether a history of operations on ONE item is linearizable: whether there is a total
 * order of the operations that respects real time (an operation that completed before another
 * was invoked comes first) and in which every result is what a sequential item would have
 * returned.
 *
 * <p>The model is the item's numeric attribute {@code v}, or the item being absent ({@link
 * #ABSENT}). The search is Wing and Gong's, with Lowe's memoisation: at each step, any pending
 * operation invoked before the earliest completion among the pending ones may be linearized
 * next, if the model accepts its result; a configuration (set of operations linearized, model
 * state) that failed once is never explored again. Histories are kept to a few hundred
 * operations, for which this takes milliseconds; {@link #MAX_CONFIGURATIONS} bounds it anyway.
 *
 * <p>Operations that had no effect and observed nothing (a transaction cancelled by a conflict)
 * are left out of the history by the caller: they constrain nothing.
 *
 * <p>Public for the check across Stator servers on a cluster (stator-server's {@code
 * ClusterServersCheck}), which records its histories through the AWS SDK.
 */
public final class LinearizabilityChecker {
  /** The item does not exist. */
  public static final long ABSENT = Long.MIN_VALUE;

  /** The operation did not return this value (e.g. a PutItem without ReturnValues). */
  public static final long UNKNOWN = Long.MIN_VALUE + 1;

  private static final long REJECTED = Long.MIN_VALUE + 2;

  static final int MAX_CONFIGURATIONS = 2_000_000;

  /** One operation and what it observed. */
  public sealed interface Op {}

  /** GetItem (ConsistentRead) or TransactGetItems: saw {@code seen}. */
  public record Read(long seen) implements Op {}

  /** Unconditional PutItem of {@code value}; {@code old} as returned by ALL_OLD, or UNKNOWN. */
  public record Put(long value, long old) implements Op {}

  /**
   * PutItem of {@code value} if {@code v = expected} ({@code attribute_not_exists(v)} when
   * {@code expected} is ABSENT); {@code applied} says whether it succeeded; when it failed,
   * {@code oldOnFailure} is the item returned by ReturnValuesOnConditionCheckFailure=ALL_OLD, or
   * UNKNOWN. A {@code value} of ABSENT means the action writes nothing (a ConditionCheck).
   */
  public record ConditionalPut(long value, long expected, boolean applied, long oldOnFailure)
      implements Op {}

  /**
   * {@code SET v = v + :1}: fails (ValidationException, or a ValidationError cancellation) when
   * the item is absent; else {@code result} is the new value, or UNKNOWN.
   */
  public record Increment(boolean applied, long result) implements Op {}

  /** DeleteItem; {@code old} as returned by ALL_OLD, or UNKNOWN. */
  public record Delete(long old) implements Op {}

  /** An operation invoked at {@code call} and completed at {@code ret} (System.nanoTime). */
  public record Entry(int thread, long call, long ret, Op op) {}

  /** The answer; {@code explanation} shows the history and how far a linearization got. */
  public record Verdict(boolean linearizable, String explanation) {}

  /** The model: the state after {@code op} in {@code state}, or REJECTED if its result is wrong. */
  static long step(long state, Op op) {
    if (op instanceof Read r) {
      return r.seen() == state ? state : REJECTED;
    }
    if (op instanceof Put p) {
      return p.old() == UNKNOWN || p.old() == state ? p.value() : REJECTED;
    }
    if (op instanceof ConditionalPut c) {
      boolean holds = state == c.expected();
      if (holds != c.applied()) {
        return REJECTED;
      }
      if (!holds) {
        return c.oldOnFailure() == UNKNOWN || c.oldOnFailure() == state ? state : REJECTED;
      }
      return c.value() == ABSENT ? state : c.value();
    }
    if (op instanceof Increment i) {
      if (state == ABSENT) {
        return i.applied() ? REJECTED : state;
      }
      return i.applied() && (i.result() == UNKNOWN || i.result() == state + 1)
          ? state + 1
          : REJECTED;
    }
    Delete d = (Delete) op;
    return d.old() == UNKNOWN || d.old() == state ? ABSENT : REJECTED;
  }

  /** Checks a history that starts with the item in state {@code initial}. */
  public static Verdict check(List<Entry> history, long initial) {
    List<Entry> entries = new ArrayList<>(history);
    entries.sort(Comparator.comparingLong(Entry::call));
    return new Search(entries).run(initial);
  }

  private record Configuration(BitSet linearized, long state) {}

  private static final class Search {
    private final List<Entry> entries;
    private final int n;
    private final Set<Configuration> failed = new HashSet<>();
    private final BitSet linearized = new BitSet();
    private final List<Integer> order = new ArrayList<>();
    private List<Integer> longest = List.of();

    Search(List<Entry> entries) {
      this.entries = entries;
      this.n = entries.size();
    }

    Verdict run(long initial) {
      boolean ok = search(initial, 0);
      return new Verdict(ok, ok ? "" : explain());
    }

    private boolean search(long state, int done) {
      if (done == n) {
        return true;
      }
      if (failed.contains(new Configuration(linearized, state))) {
        return false;
      }
      // The pending operation that completed first: nothing invoked after it may precede it.
      int first = -1;
      long firstRet = Long.MAX_VALUE;
      for (int i = linearized.nextClearBit(0); i < n; i = linearized.nextClearBit(i + 1)) {
        if (entries.get(i).ret() < firstRet) {
          firstRet = entries.get(i).ret();
          first = i;
        }
      }
      for (int i = linearized.nextClearBit(0); i < n; i = linearized.nextClearBit(i + 1)) {
        Entry e = entries.get(i);
        if (e.call() >= firstRet && i != first) {
          continue; // invoked after the first pending completion: cannot precede it
        }
        long next = step(state, e.op());
        if (next == REJECTED) {
          continue;
        }
        linearized.set(i);
        order.add(i);
        if (order.size() > longest.size()) {
          longest = List.copyOf(order);
        }
        boolean ok = search(next, done + 1);
        order.remove(order.size() - 1);
        linearized.clear(i);
        if (ok) {
          return true;
        }
      }
      failed.add(new Configuration((BitSet) linearized.clone(), state));
      if (failed.size() > MAX_CONFIGURATIONS) {
        throw new IllegalStateException(
            "history too concurrent to check: over " + MAX_CONFIGURATIONS + " configurations");
      }
      return false;
    }

    private String explain() {
      long t0 = entries.isEmpty() ? 0 : entries.get(0).call();
      StringBuilder sb = new StringBuilder("no linearization of ").append(n)
          .append(" operations; the longest linearizable prefix has ").append(longest.size())
          .append(":\n");
      for (int i : longest) {
        sb.append("  ").append(show(entries.get(i), t0)).append('\n');
      }
      sb.append("after which no pending operation fits. History (times in µs):\n");
      for (Entry e : entries) {
        sb.append("  ").append(show(e, t0)).append('\n');
      }
      return sb.toString();
    }

    private static String show(Entry e, long t0) {
      return String.format("[%9.1f, %9.1f] thread %d %s",
          (e.call() - t0) / 1000.0, (e.ret() - t0) / 1000.0, e.thread(), describe(e.op()));
    }
  }

  /** An operation as a reader of a failure wants it: "put 1001000 (old absent)" etc. */
  static String describe(Op op) {
    if (op instanceof Read r) {
      return "read " + v(r.seen());
    }
    if (op instanceof Put p) {
      return "put " + p.value() + " (old " + v(p.old()) + ")";
    }
    if (op instanceof ConditionalPut c) {
      String what = c.value() == ABSENT ? "check" : "put " + c.value();
      String condition = c.expected() == ABSENT ? "if absent" : "if v = " + c.expected();
      return what + " " + condition + (c.applied()
          ? ": applied"
          : ": condition failed (old " + v(c.oldOnFailure()) + ")");
    }
    if (op instanceof Increment i) {
      return "increment" + (i.applied() ? " to " + v(i.result()) : ": item absent");
    }
    return "delete (old " + v(((Delete) op).old()) + ")";
  }

  private static String v(long value) {
    return value == ABSENT ? "absent" : value == UNKNOWN ? "not returned" : Long.toString(value);
  }

  private LinearizabilityChecker() {}
}
