package io.stator.engine;

import io.stator.api.DynamoDbException;
import io.stator.engine.KeyRange.Term;
import io.stator.index.IndexKeys;
import io.stator.schema.IndexDefinition;
import io.stator.schema.KeyAttribute;
import io.stator.storage.Bound;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * What a Query on a secondary index reads: one index partition (the values of every partition
 * key attribute) and a range of entries within it.
 *
 * <p>An index key may have several attributes (a multi-attribute GSI key: up to 4 HASH and 4
 * RANGE attributes). A Query must then give equality on every partition key attribute; the sort
 * key attributes are constrained left to right: equality on a leading run of them ({@code
 * sortEquals}), then optionally one condition ({@code <, <=, >, >=, BETWEEN, begins_with}) on the
 * next one, and nothing after it. Entries are ordered by their sort values as a tuple (see {@link
 * IndexKeys}), so such a condition is exactly one contiguous range.
 *
 * <p>An index with one partition key attribute and at most one sort key attribute is analysed by
 * {@link KeyRange}, with DynamoDB's messages for tables. DynamoDB documents no wording for the
 * multi-attribute rules; the messages here are ours, in the style of its key condition errors.
 *
 * @param partition the partition key values, in key schema order
 * @param sortEquals the values of the leading sort key attributes given with equality
 * @param sortOperator the condition on the next sort key attribute (legacy operator names), or
 *     null
 * @param sortValues the operands of {@code sortOperator}
 */
record IndexKeyRange(
    List<AttributeValue> partition,
    List<AttributeValue> sortEquals,
    String sortOperator,
    List<AttributeValue> sortValues) {

  static IndexKeyRange of(Map<String, Term> terms, IndexDefinition index) {
    List<KeyAttribute> hashKeys = index.hashKeys();
    List<KeyAttribute> rangeKeys = index.rangeKeys();
    if (hashKeys.size() == 1 && rangeKeys.size() <= 1) {
      KeyRange r =
          KeyRange.fromTerms(terms, hashKeys.get(0), rangeKeys.isEmpty() ? null : rangeKeys.get(0));
      return new IndexKeyRange(List.of(r.partition()), List.of(), r.sortOperator(), r.sortValues());
    }
    AttributeValue[] partition = new AttributeValue[hashKeys.size()];
    for (int i = 0; i < hashKeys.size(); i++) {
      KeyAttribute k = hashKeys.get(i);
      Term t = terms.get(k.name());
      if (t == null) {
        throw DynamoDbException.validation("Query condition missed key schema element: " + k.name());
      }
      KeyRange.checkTypes(t, k);
      if (!t.operator().equals("EQ")) {
        throw DynamoDbException.validation(
            "Query key condition not supported: the partition key attributes of index "
                + index.name() + " must be given with equality; attribute: " + k.name());
      }
      KeyRange.checkEmpty(t, k);
      partition[i] = t.values().get(0);
    }
    for (String name : terms.keySet()) {
      if (!index.isKey(name)) {
        for (KeyAttribute k : rangeKeys) {
          if (!terms.containsKey(k.name())) {
            throw DynamoDbException.validation(
                "Query condition missed key schema element: " + k.name());
          }
        }
        throw DynamoDbException.validation("Query key condition not supported");
      }
    }
    int equal = 0;
    String operator = null;
    List<AttributeValue> operands = List.of();
    KeyAttribute ranged = null;
    KeyAttribute missing = null;
    for (KeyAttribute k : rangeKeys) {
      Term t = terms.get(k.name());
      if (t == null) {
        missing = missing == null ? k : missing;
        continue;
      }
      if (missing != null) {
        throw DynamoDbException.validation(
            "Query key condition not supported: the sort key attributes of index " + index.name()
                + " must be constrained from left to right; condition on " + k.name()
                + " without a condition on " + missing.name());
      }
      if (ranged != null) {
        throw DynamoDbException.validation(
            "Query key condition not supported: only the last sort key attribute given may have"
                + " a condition other than equality; condition on " + ranged.name()
                + " followed by a condition on " + k.name());
      }
      KeyRange.checkSortTerm(t, k);
      if (t.operator().equals("EQ")) {
        equal++;
      } else {
        ranged = k;
        operator = t.operator();
        operands = t.values();
      }
    }
    AttributeValue[] sortEquals = new AttributeValue[equal];
    for (int i = 0; i < equal; i++) {
      sortEquals[i] = terms.get(rangeKeys.get(i).name()).values().get(0);
    }
    return new IndexKeyRange(List.of(partition), List.of(sortEquals), operator, operands);
  }

  /** The index partition bytes to read. */
  byte[] partitionBytes() {
    return IndexKeys.partition(partition);
  }

  /** True when the query constrains the sort key at all. */
  boolean hasSortCondition() {
    return sortOperator != null || !sortEquals.isEmpty();
  }

  Bound lower() {
    return IndexKeys.lower(IndexKeys.sortPrefix(sortEquals), sortOperator, sortValues);
  }

  Bound upper() {
    return IndexKeys.upper(IndexKeys.sortPrefix(sortEquals), sortOperator, sortValues);
  }

  /** True when an entry with sort bytes {@code sort} lies within the range's sort bounds. */
  boolean containsSort(byte[] sort) {
    return Bound.within(sort, lower(), upper());
  }
}
