package io.stator.engine;

import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.ReadConsistency;
import io.stator.expression.Expressions;
import io.stator.item.ItemCodec;
import io.stator.item.ItemSize;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One page of a Query or Scan being gathered: the records read in key order until the plan's
 * {@code Limit} records or 1 MB of item data (by {@link ItemSize}) was read, with Count,
 * ScannedCount, the items kept by the filter and projected, and LastEvaluatedKey.
 */
final class ReadPage {
  /** DynamoDB's page limit: 1 MB of data read. */
  static final long PAGE_BYTES = 1024 * 1024;

  private static final int BATCH = 128;

  private final ReadPlan plan;
  private final int limit;
  private final List<Map<String, AttributeValue>> items = new ArrayList<>();
  int count;
  int scanned;
  private long bytes;
  private StorageKey last;
  private Map<String, AttributeValue> lastEntry;
  StorageKey first;
  private final List<Long> fetched = new ArrayList<>();

  ReadPage(ReadPlan plan) {
    this.plan = plan;
    this.limit = plan.limit() == null ? Integer.MAX_VALUE : plan.limit();
  }

  int batchSize() {
    return Math.min(BATCH, limit - scanned);
  }

  /** Adds a record read; true when the page is full. */
  boolean add(StoredRecord record) {
    Map<String, AttributeValue> entry = ItemCodec.decode(record.value());
    Map<String, AttributeValue> item = plan.source().item(entry);
    if (item != entry) {
      fetched.add(ItemSize.of(item));
    }
    if (first == null) {
      first = record.key();
    }
    scanned++;
    bytes += ItemSize.of(entry);
    if (plan.filter() == null || Expressions.evaluate(plan.filter(), item)) {
      count++;
      if (!plan.countOnly()) {
        items.add(RequestConstraints.project(item, plan.projection()));
      }
    }
    if (scanned >= limit || bytes >= PAGE_BYTES) {
      last = record.key();
      lastEntry = entry;
      return true;
    }
    return false;
  }

  boolean full() {
    return last != null;
  }

  /**
   * The read units of the page: its entries' total rounded once, plus, on a local secondary
   * index, each item fetched from the table for attributes the index does not project,
   * rounded on its own (DynamoDB charges such fetches as extra reads of whole items).
   */
  double units(ReadConsistency consistency) {
    double units = CapacityCalculator.read(bytes, consistency);
    for (long size : fetched) {
      units += CapacityCalculator.read(size, consistency);
    }
    return units;
  }

  List<Map<String, AttributeValue>> items() {
    return plan.countOnly() ? null : List.copyOf(items);
  }

  Map<String, AttributeValue> lastEvaluatedKey() {
    return last == null ? null : plan.source().lastEvaluatedKey(last, lastEntry);
  }
}
