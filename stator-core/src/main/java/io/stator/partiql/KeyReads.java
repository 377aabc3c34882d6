package io.stator.partiql;

import io.stator.api.DynamoDbException;
import io.stator.key.KeyCodec;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A SELECT's WHERE clause decomposed, as DynamoDB decomposes it, into reads of one partition and
 * one range of sort keys each, run one after the other by {@link PartitionQueries}.
 *
 * <p>The clause is first spread into branches, alternatives each made of conditions that must
 * all hold: an OR that involves a key attribute is two branches, an IN on a key attribute one
 * branch per value ({@code pk IN [?, ?] AND (sk = ? OR sk > ?)} is four), while an OR or IN on
 * other attributes stays one condition of its branch. A branch is a read when it names its
 * partition with an equality on the partition key and conditions the sort key only as a key
 * condition can ({@link Selects#isSortKeyCondition}); the rest of the branch is the read's filter.
 * Where any branch is not such a read, no read is planned and the SELECT is a Scan: a branch
 * without its partition, or one with {@code NOT sk = ?}, {@code sk <> ?} or a function of a key
 * attribute (DynamoDB runs those and returns what each branch selects, recorded on AWS).
 *
 * <p>Then DynamoDB's rules, in its words: the key values must be of the key's type; two reads of
 * one partition must not overlap ({@code pk IN ['a', 'a']}, {@code pk = 'a' AND (sk > 1 OR sk <
 * 5)}, or a branch that reads the whole partition beside another of that partition), since each
 * item is to be read once; and there may be at most {@value #MAX_READS} reads.
 */
final class KeyReads {
  /** DynamoDB's bound on the reads one SELECT decomposes into. */
  static final int MAX_READS = 50;

  /**
   * How many branches the spreading may make before it stops: far above the reads a SELECT may
   * have, so that only a clause that could not run anyway is refused for it.
   */
  private static final int MAX_BRANCHES = 1_000;

  static final String OVERLAPPING =
      "Overlapping conditions with range keys are not supported in where clause";
  static final String TOO_MANY_READS = "Too many decomposed read operations for a given query.";

  /** One read: a partition, a range of its sort keys, and the filter of its items, or null. */
  record Read(AttributeValue partition, byte[] order, SortRange sort, Term filter) {}

  /** The reads that may select items, in the order they run. */
  final List<Read> reads;
  /** How many distinct partitions the clause names, for ORDER BY's rules. */
  final int partitions;

  private KeyReads(List<Read> reads, int partitions) {
    this.reads = reads;
    this.partitions = partitions;
  }

  /**
   * The reads of the clause on the key {@code key} (partition key first) whose attributes have
   * the types {@code types}; null where the SELECT is a Scan.
   */
  static KeyReads plan(
      Term where, List<String> key, Map<String, String> types, ExpressionText text,
      boolean partitionsDescending, boolean sortDescending) {
    if (where == null) {
      return null;
    }
    List<List<Term>> branches = alternatives(where, key);
    List<Branch> keyed = new ArrayList<>(branches.size());
    for (List<Term> branch : branches) {
      Branch read = Branch.of(branch, key);
      if (read == null) {
        return null;
      }
      keyed.add(read);
    }
    List<Read> reads = new ArrayList<>();
    Set<byte[]> partitions = new TreeSet<>(Arrays::compareUnsigned);
    for (Branch branch : keyed) {
      Read read = branch.read(key, types, text);
      partitions.add(read.order());
      if (read.partition() != null && !read.sort().empty()) {
        reads.add(read);
      }
    }
    Comparator<Read> byPartition = (a, b) -> Arrays.compareUnsigned(a.order(), b.order());
    Comparator<Read> bySort = (a, b) -> a.sort().compareLow(b.sort());
    reads.sort((partitionsDescending ? byPartition.reversed() : byPartition)
        .thenComparing(sortDescending ? bySort.reversed() : bySort));
    refuseOverlaps(reads);
    if (reads.size() > MAX_READS) {
      throw DynamoDbException.validation(TOO_MANY_READS);
    }
    return new KeyReads(reads, partitions.size());
  }

  /** The branches of one term: lists of conditions that must all hold. */
  private static List<List<Term>> alternatives(Term term, List<String> key) {
    if (term instanceof Term.And and) {
      List<List<Term>> out = new ArrayList<>();
      for (List<Term> left : alternatives(and.left(), key)) {
        spreadAll(alternatives(and.right(), key), left, out);
      }
      return out;
    }
    if (term instanceof Term.Or or && (mentions(or.left(), key) || mentions(or.right(), key))) {
      List<List<Term>> out = new ArrayList<>(alternatives(or.left(), key));
      spreadAll(alternatives(or.right(), key), List.of(), out);
      return out;
    }
    if (term instanceof Term.In in
        && key.stream().anyMatch(name -> KeyedWhere.isAttribute(in.operand(), name))
        && !in.candidates().isEmpty()
        && in.candidates().stream().allMatch(KeyedWhere::isValue)) {
      List<List<Term>> out = new ArrayList<>();
      for (Term candidate : in.candidates()) {
        out.add(List.of(new Term.Comparison("=", in.operand(), candidate)));
      }
      return out;
    }
    return List.of(List.of(Selects.attributeFirst(term)));
  }

  /** Adds to {@code into} each alternative joined to {@code rest}, within the bound. */
  private static void spreadAll(
      List<List<Term>> alternatives, List<Term> rest, List<List<Term>> into) {
    for (List<Term> alternative : alternatives) {
      if (into.size() >= MAX_BRANCHES) {
        throw DynamoDbException.validation(TOO_MANY_READS);
      }
      List<Term> branch = new ArrayList<>(rest);
      branch.addAll(alternative);
      into.add(branch);
    }
  }

  /** Whether the term names one of the key's attributes anywhere. */
  private static boolean mentions(Term term, List<String> key) {
    if (term instanceof Term.PathTerm path) {
      return key.contains(path.name());
    }
    return parts(term).stream().anyMatch(part -> mentions(part, key));
  }

  /** The top-level attribute names a term reads, in the order written; none for null. */
  static List<String> attributeNames(Term term) {
    List<String> names = new ArrayList<>();
    if (term instanceof Term.PathTerm path) {
      names.add(path.name());
    } else if (term != null) {
      parts(term).forEach(part -> names.addAll(attributeNames(part)));
    }
    return names;
  }

  /** The terms a term is made of. */
  private static List<Term> parts(Term term) {
    List<Term> parts = new ArrayList<>();
    if (term instanceof Term.Comparison c) {
      parts.addAll(List.of(c.left(), c.right()));
    } else if (term instanceof Term.Arithmetic a) {
      parts.addAll(List.of(a.left(), a.right()));
    } else if (term instanceof Term.And and) {
      parts.addAll(List.of(and.left(), and.right()));
    } else if (term instanceof Term.Or or) {
      parts.addAll(List.of(or.left(), or.right()));
    } else if (term instanceof Term.Not not) {
      parts.add(not.operand());
    } else if (term instanceof Term.Between b) {
      parts.addAll(List.of(b.operand(), b.low(), b.high()));
    } else if (term instanceof Term.In in) {
      parts.add(in.operand());
      parts.addAll(in.candidates());
    } else if (term instanceof Term.Is is) {
      parts.add(is.operand());
    } else if (term instanceof Term.Call call) {
      parts.addAll(call.arguments());
    } else if (term instanceof Term.ListTerm list) {
      parts.addAll(list.elements());
    } else if (term instanceof Term.SetTerm set) {
      parts.addAll(set.elements());
    } else if (term instanceof Term.MapTerm map) {
      map.entries().forEach(entry -> parts.add(entry.value()));
    }
    return parts;
  }

  /** Refuses two reads of one partition that could read one item; {@code reads} is sorted. */
  private static void refuseOverlaps(List<Read> reads) {
    for (int i = 0; i < reads.size(); i++) {
      for (int j = i + 1; j < reads.size()
          && Arrays.equals(reads.get(i).order(), reads.get(j).order()); j++) {
        if (reads.get(i).sort().overlaps(reads.get(j).sort())) {
          throw DynamoDbException.validation(OVERLAPPING);
        }
      }
    }
  }

  /** A branch that is a read: its equalities on the partition key, sort-key conditions, rest. */
  private record Branch(List<Term> partitionValues, List<Term> sortConditions, List<Term> rest) {
    /** The branch as a read, or null where it names no partition or conditions a key otherwise. */
    static Branch of(List<Term> conditions, List<String> key) {
      List<Term> partitionValues = new ArrayList<>();
      List<Term> sortConditions = new ArrayList<>();
      List<Term> rest = new ArrayList<>();
      for (Term condition : conditions) {
        Term value = KeyedWhere.keyValue(condition, key.get(0));
        if (value != null) {
          partitionValues.add(value);
        } else if (key.size() > 1 && Selects.isSortKeyCondition(condition, key.get(1))) {
          sortConditions.add(condition);
        } else if (mentions(condition, key)) {
          return null;
        } else {
          rest.add(condition);
        }
      }
      return partitionValues.isEmpty() ? null : new Branch(partitionValues, sortConditions, rest);
    }

    /**
     * The read, its values checked against the key's types; its partition null where the branch
     * names two different ones, and so selects nothing.
     */
    Read read(List<String> key, Map<String, String> types, ExpressionText text) {
      AttributeValue partition = null;
      byte[] order = null;
      for (Term value : partitionValues) {
        AttributeValue bound = keyValue(value, key.get(0), types, text);
        byte[] bytes = KeyCodec.sort(bound);
        if (order == null) {
          partition = bound;
          order = bytes;
        } else if (!Arrays.equals(order, bytes)) {
          partition = null;
        }
      }
      for (Term condition : sortConditions) {
        for (Term value : values(condition)) {
          keyValue(value, key.get(1), types, text);
        }
      }
      return new Read(partition, order, SortRange.of(sortConditions, text), KeyedWhere.and(rest));
    }

    private static AttributeValue keyValue(
        Term value, String name, Map<String, String> types, ExpressionText text) {
      AttributeValue bound = text.bind(value);
      if (!bound.type().equals(types.get(name))) {
        throw DynamoDbException.validation(
            "Key attribute's data type should match its data type in table's schema: Key "
                + name);
      }
      return bound;
    }

    private static List<Term> values(Term condition) {
      if (condition instanceof Term.Between between) {
        return List.of(between.low(), between.high());
      }
      if (condition instanceof Term.Call call) {
        return List.of(call.arguments().get(1));
      }
      return List.of(((Term.Comparison) condition).right());
    }
  }
}
