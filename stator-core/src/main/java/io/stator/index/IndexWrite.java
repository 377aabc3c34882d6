package io.stator.index;

import io.stator.api.ItemCollectionMetrics;
import io.stator.capacity.CapacityCalculator;
import io.stator.capacity.Consumption;
import io.stator.storage.Commit;
import io.stator.stream.StagedRecord;
import io.stator.stream.StreamWrites;
import java.util.List;

/**
 * The index side of one write attempt, staged into its commit by {@link Indexes#stage}. Its
 * change-log and stream records carry sequence numbers, which {@link #number} takes and adds to
 * the commit just before it is made, so that an attempt refused after staging (a condition of a
 * later action, a transaction in the way) takes none. Close it after the commit attempt, whether
 * it succeeded or failed: that resolves the numbers (waking the propagator).
 *
 * <p>It also tells what the write costs in each index ({@link #addTo}) and, for a table with a
 * local secondary index, the size of the item collection after it ({@link
 * #itemCollectionMetrics}).
 */
public final class IndexWrite implements AutoCloseable {
  private final Indexes indexes;
  private final String tableName;
  /** The change log of an asynchronous write (see {@link Propagator}), else null. */
  private final String changeLog;
  private final byte[] change;
  private final StagedRecord streamRecord;
  private final List<IndexUnits> units;
  private final ItemCollectionMetrics itemCollectionMetrics;
  private long sequence = -1;
  private long streamSequence = -1;

  IndexWrite(
      Indexes indexes, String tableName, String changeLog, byte[] change,
      StagedRecord streamRecord, List<IndexUnits> units,
      ItemCollectionMetrics itemCollectionMetrics) {
    this.indexes = indexes;
    this.tableName = tableName;
    this.changeLog = changeLog;
    this.change = change;
    this.streamRecord = streamRecord;
    this.units = units;
    this.itemCollectionMetrics = itemCollectionMetrics;
  }

  /**
   * Adds the write's change-log and stream records to {@code commit} under sequence numbers
   * taken now: call once, after every check of the attempt, just before committing.
   */
  public void number(Commit commit) {
    if (changeLog != null && sequence < 0) {
      sequence = indexes.numberChange(changeLog, change, commit);
    }
    if (streamRecord != null && streamSequence < 0) {
      streamSequence = indexes.numberStreamRecord(streamRecord, commit);
    }
  }

  /** The write units one index is charged for this write (before doubling in a transaction). */
  record IndexUnits(String indexName, boolean global, double units) {}

  /**
   * Adds this write's index writes to {@code consumption}, per index ({@code
   * GlobalSecondaryIndexes} / {@code LocalSecondaryIndexes} of ReturnConsumedCapacity INDEXES);
   * doubled in a transaction, as every transactional write is.
   */
  public Consumption addTo(Consumption consumption, boolean transactional) {
    for (IndexUnits u : units) {
      double charged = transactional ? 2 * u.units() : u.units();
      if (u.global()) {
        consumption.globalIndexWrite(u.indexName(), charged);
      } else {
        consumption.localIndexWrite(u.indexName(), charged);
      }
    }
    return consumption;
  }

  /** The table written. */
  public String tableName() {
    return tableName;
  }

  /** The total write units of the index writes (not doubled). */
  public double units() {
    double total = 0;
    for (IndexUnits u : units) {
      total += u.units();
    }
    return total;
  }

  /**
   * The item collection the write touched and its size estimate after it, or null when the
   * table has no local secondary index.
   */
  public ItemCollectionMetrics itemCollectionMetrics() {
    return itemCollectionMetrics;
  }

  /** The metrics for a response that asked ReturnItemCollectionMetrics {@code mode}, or null. */
  public ItemCollectionMetrics itemCollectionMetrics(String mode) {
    return "SIZE".equals(mode) ? itemCollectionMetrics : null;
  }

  @Override
  public void close() {
    if (changeLog != null) {
      indexes.resolved(tableName, sequence); // and the propagator's count of the write
    }
    if (streamSequence >= 0) {
      indexes.streamResolved(streamSequence);
    }
  }

  /**
   * DynamoDB's index write rules: an item entering an index costs one put of its entry, leaving
   * it one delete, changing its index key a delete and a put; an item whose entry changes (its
   * projected attributes) costs one write of the larger entry; an item in the index neither
   * before nor after, or whose entry is unchanged, costs nothing. Each write is the entry's size
   * in 1 KB units, at least 1.
   */
  static double units(
      io.stator.storage.StorageKey oldKey, long oldSize, io.stator.storage.StorageKey newKey,
      long newSize, boolean entryChanged) {
    if (oldKey == null && newKey == null) {
      return 0;
    }
    if (oldKey == null) {
      return CapacityCalculator.write(0, newSize, false);
    }
    if (newKey == null) {
      return CapacityCalculator.write(oldSize, 0, false);
    }
    if (!oldKey.equals(newKey)) {
      return CapacityCalculator.write(oldSize, 0, false)
          + CapacityCalculator.write(0, newSize, false);
    }
    return entryChanged ? CapacityCalculator.write(oldSize, newSize, false) : 0;
  }
}
