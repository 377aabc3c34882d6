package io.stator.capacity;

import io.stator.api.ProvisionedThroughputExceededException;
import io.stator.api.ThrottlingException;
import io.stator.api.ThrottlingReason;
import io.stator.key.KeyCodec;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;

/**
 * DynamoDB's throughput limits, modelled per logical partition, so that a workload run against
 * Stator throttles where DynamoDB would throttle it.
 *
 * <h2>What it models</h2>
 *
 * Each table incarnation (by TableId), and each of its global secondary indexes, has logical
 * partitions: contiguous ranges of the 64-bit partition-key hash that prefixes every storage
 * key, so a key's partition follows from its bytes. A GSI is a throughput model of its own, as on
 * DynamoDB: its own provisioned throughput (or on-demand), its own partitions, keyed by the hash
 * of the index's partition key, with every rule below; a local secondary index shares its
 * table's. A provisioned table or GSI starts with DynamoDB's rule of thumb, max(ceil(RCU/3000 +
 * WCU/1000), ceil(size/10 GB)), at least one; an on-demand table with four (its documented
 * initial 4,000 WCU at 1,000 WCU a partition). Per request, the operation charges the units it
 * computed with {@link CapacityCalculator} to the partition of its key, and the model decides:
 *
 * <ol>
 *   <li><b>Partition ceiling.</b> No partition serves more than 3,000 RCU or 1,000 WCU in a
 *       second, whatever the table's throughput: a token bucket per partition and kind, holding
 *       one second of ceiling. Past it: {@code Table<Read|Write>KeyRangeThroughputExceeded}.
 *   <li><b>Provisioned throughput with burst.</b> The table's bucket fills at the provisioned
 *       rate and keeps up to 300 seconds of unused capacity (DynamoDB's burst capacity); a new
 *       table starts with its reserve full. Past it: {@code
 *       Table<Read|Write>ProvisionedThroughputExceeded}.
 *   <li><b>Adaptive capacity.</b> Each partition has an equal share of the provisioned rate.
 *       A partition past its share may use the table's unused capacity (the table bucket), up
 *       to its ceiling; the units lent are reported. With adaptive capacity off, a partition is
 *       limited to its share, which shows why a hot key used to throttle a table far below its
 *       total.
 *   <li><b>On-demand.</b> An on-demand table serves up to twice its previous peak second at
 *       once. The previous peak starts at 6,000 RCU / 2,000 WCU (so a new table serves 12,000 /
 *       4,000 per second, as documented) and grows with the busiest second seen; the partitions
 *       grow to carry twice the peak. Simplifications: the peak never decays (DynamoDB's does
 *       not decrease either, it only takes its time to grow past it), the growth is immediate
 *       rather than over DynamoDB's ~30 minutes, and no account-level quotas apply. A table or
 *       GSI given OnDemandThroughput serves at most its MaxReadRequestUnits and
 *       MaxWriteRequestUnits a second (a bucket holding one second of each): above them a
 *       request is {@code <Table|Index><Read|Write>MaxOnDemandThroughputExceeded}, refused in
 *       enforce mode with a {@link io.stator.api.ThrottlingException}, as DynamoDB refuses it.
 *   <li><b>Global secondary indexes.</b> A write that puts or deletes GSI entries charges each
 *       to the index partition of the entry's key (a put under the new index key, a delete under
 *       the old) together with the table's charge, all admitted or none refused: DynamoDB
 *       throttles a base-table write when a GSI lacks the write capacity for it, with an {@code
 *       Index...} ThrottlingReason naming the index ARN. A Query or Scan of a GSI charges the
 *       GSI's partitions and throughput, not the table's.
 *   <li><b>Splits.</b> For size: a partition past 10 GB (tracked from each write's size
 *       change) splits in the middle. For throughput: UpdateTable raising the provisioned rate
 *       past what the partitions carry, or on-demand peaks growing, split the widest partitions
 *       in the middle. For heat: a partition whose demand stays above 80% of a ceiling for a
 *       minute of consecutive seconds splits at the weighted median of its hot keys' hashes,
 *       so the hot traffic divides; one hot key alone is not split for, as DynamoDB cannot
 *       divide one key's traffic. Partitions never merge. Every split point is a hash, and all
 *       the items of one partition key value share one hash, so no split divides an item
 *       collection: what DynamoDB promises for a table with a local secondary index holds for
 *       every table here (DynamoDB may split a hot collection of a table without an LSI by sort
 *       key; we do not model that). The split points are kept in the storage ({@link
 *       SavedPartitions}) and restored when the model first meets the table after a restart.
 * </ol>
 *
 * <p>A throttled request consumes nothing (DynamoDB refused it), but its units still count as
 * the key's demand in the hot-key sketch and the heat detector: that is the load the key design
 * attracts. In {@link CapacityMode#OBSERVE} the request is then served anyway and the throttle
 * only counted; in {@link CapacityMode#ENFORCE} it fails with {@link
 * ProvisionedThroughputExceededException}, carrying ThrottlingReasons as the current API does.
 *
 * <h2>Time</h2>
 *
 * Everything runs on the {@link Clock} given (milliseconds): tests pass a clock they move by
 * hand, so burst exhaustion, refill and heat are deterministic and need no sleeping. Buckets
 * refill lazily when a request arrives; there is no background thread.
 *
 * <h2>Why charge after computing the units</h2>
 *
 * DynamoDB admits a request before it knows what a Query will read; we compute the units first
 * (the read, or the old item's size for a write) and admit or refuse with the exact figure. A
 * refused read has done harmless work; a refused write has written nothing, because the charge
 * comes before the commit. The figures are the same either way, and the model stays simple.
 *
 * <p>Scans: one Scan page is charged to the partition where it starts, as DynamoDB serves a
 * page from one partition at a time.
 *
 * <p>A write's charges to the table and its GSIs are each decided, then all applied: if two of
 * them land on one GSI partition (an update moving an entry within it), each is decided against
 * the partition before the other, which can admit a little more than the exact sum would.
 */
public final class CapacityModel {
  private final CapacitySettings settings;
  private final Clock clock;
  private final String arnPrefix;
  private final ToLongFunction<String> spaceSize;
  private final SavedPartitions saved;
  private final ConcurrentHashMap<String, TableThroughput> tables = new ConcurrentHashMap<>();
  private final ConsumedUnits consumed = new ConsumedUnits();
  /** The end of the ThrottlingReason of a request above an OnDemandThroughput ceiling. */
  static final String MAX_ON_DEMAND = "MaxOnDemandThroughputExceeded";

  /**
   * @param arnPrefix {@code arn:aws:dynamodb:<region>:<account>:table/}, for ThrottlingReasons
   * @param spaceSize the bytes a storage space (a table's or a GSI's) holds when the model first
   *     sees it (for its partition count)
   * @param saved where partition boundaries are kept across restarts
   */
  public CapacityModel(CapacitySettings settings, Clock clock, String arnPrefix,
      ToLongFunction<String> spaceSize, SavedPartitions saved) {
    this.settings = settings;
    this.clock = clock;
    this.arnPrefix = arnPrefix;
    this.spaceSize = spaceSize;
    this.saved = saved;
  }

  public CapacitySettings settings() {
    return settings;
  }

  /**
   * Charges a read of {@code units} RCU on the partition of {@code partition} (encoded
   * partition key bytes from {@code io.stator.key}).
   *
   * @throws ProvisionedThroughputExceededException in enforce mode, when DynamoDB would throttle
   */
  public void read(TableDefinition table, byte[] partition, double units) {
    read(table, null, partition, units);
  }

  /**
   * Charges a read of {@code index} (null: of the table): a GSI's reads go to the GSI's own
   * partitions and throughput, {@code partition} being the index partition key; an LSI's to its
   * table's.
   */
  public void read(TableDefinition table, IndexDefinition index, byte[] partition,
      double units) {
    long now = clock.millis();
    throttled(table, table(table, now).read(
        index, KeyCodec.hashOf(partition), partition, units, now));
    consumed.read(table.name(), globalName(index), units);
  }

  /** A read attributed to a hash only (a Scan page): no hot key to name. */
  public void readAt(TableDefinition table, IndexDefinition index, long hash, double units) {
    long now = clock.millis();
    throttled(table, table(table, now).read(index, hash, null, units, now));
    consumed.read(table.name(), globalName(index), units);
  }

  /**
   * Charges a write of {@code units} WCU that changed the table's size by {@code sizeDelta}
   * bytes, on the partition of {@code partition}, with no index writes.
   *
   * @throws ProvisionedThroughputExceededException in enforce mode, when DynamoDB would throttle
   */
  public void write(TableDefinition table, byte[] partition, double units, long sizeDelta) {
    write(table, partition, units, sizeDelta, List.of());
  }

  /**
   * Charges a write and the writes it causes in the table's global secondary indexes, each to
   * its index's own partition: all are admitted or none (a GSI short of write capacity
   * throttles the base-table write).
   *
   * @throws ProvisionedThroughputExceededException in enforce mode, when DynamoDB would throttle
   *     the table or one of the indexes (the reason and resource name which)
   */
  public void write(TableDefinition table, byte[] partition, double units, long sizeDelta,
      List<GlobalIndexWrite> indexWrites) {
    long now = clock.millis();
    throttled(table, table(table, now).write(KeyCodec.hashOf(partition), partition, units,
        sizeDelta, indexWrites, now));
    consumed.write(table.name(), null, units);
    for (GlobalIndexWrite w : indexWrites) {
      consumed.write(table.name(), w.indexName(), w.units());
    }
  }

  /**
   * The capacity units consumed since start, per table and GSI (see {@link CapacityTotals}).
   */
  public List<CapacityTotals.Consumed> consumedCapacity() {
    return consumed.totals();
  }

  /** A GSI's name, for its own figures; null for the table or an LSI, which count as it. */
  private static String globalName(IndexDefinition index) {
    return index != null && index.global() ? index.name() : null;
  }

  private void throttled(TableDefinition table, ThrottlingReason reason) {
    if (reason == null || settings.mode() != CapacityMode.ENFORCE) {
      return;
    }
    if (reason.reason().endsWith(MAX_ON_DEMAND)) {
      // Above a ceiling the user set: DynamoDB answers a ThrottlingException, not the
      // ProvisionedThroughputExceededException of its own limits.
      throw new ThrottlingException(
          "Throughput exceeds the maximum OnDemandThroughput configured on table or index",
          List.of(reason));
    }
    throw new ProvisionedThroughputExceededException(
        message(table, reason.reason().startsWith("Index")), List.of(reason));
  }

  /**
   * DynamoDB's messages: a provisioned table names UpdateTable, and the under-provisioned GSIs
   * when one of them refused the write (as the message DynamoDB answers then reads); an
   * on-demand one says it is scaling and points at hot keys.
   */
  private static String message(TableDefinition table, boolean index) {
    if (TableDefinition.PAY_PER_REQUEST.equals(table.billingMode())) {
      return "Throughput exceeds the current capacity of your table or index. DynamoDB is"
          + " automatically scaling your table or index so please try again shortly. If"
          + " exceptions persist, check if you have a hot key:"
          + " https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
          + "bp-partition-key-design.html";
    }
    if (index) {
      return "The level of configured provisioned throughput for one or more global secondary"
          + " indexes of the table was exceeded. Consider increasing your provisioning level for"
          + " the under-provisioned global secondary indexes with the UpdateTable API";
    }
    return "The level of configured provisioned throughput for the table was exceeded. Consider"
        + " increasing your provisioning level with the UpdateTable API.";
  }

  private TableThroughput table(TableDefinition table, long now) {
    TableThroughput t = tables.get(table.tableId());
    if (t == null) {
      t = tables.computeIfAbsent(
          table.tableId(),
          id -> new TableThroughput(table, arnPrefix + table.name(), settings, spaceSize, saved,
              now));
    }
    t.follow(table, now);
    return t;
  }

  /** The partitions of {@code table} as they stand now. */
  public PartitionReport report(TableDefinition table) {
    return report(table, null);
  }

  /**
   * The partitions of {@code table}'s global secondary index {@code indexName} (null: of the
   * table) as they stand now; null when the table has no such GSI.
   */
  public PartitionReport report(TableDefinition table, String indexName) {
    long now = clock.millis();
    return table(table, now).report(table.name(), indexName, now);
  }

  /** Forgets a deleted table incarnation, with the partitions kept for it and its indexes. */
  public void forget(TableDefinition table) {
    tables.remove(table.tableId());
    consumed.forget(table.name());
    saved.forget(table.space());
    for (IndexDefinition index : table.indexes()) {
      if (index.global()) {
        saved.forget(index.space());
      }
    }
  }

  /** The table incarnations the model keeps partitions for. */
  public int trackedTables() {
    return tables.size();
  }

  /**
   * The starts of {@code table}'s partitions now (unsigned hashes, ascending): the same array
   * until a partition splits, so a caller can tell a change by identity. Streams follow these
   * (one shard per partition). Do not modify the array.
   */
  public long[] partitionStarts(TableDefinition table) {
    return table(table, clock.millis()).starts();
  }

  /** The number of partitions of {@code table} now. */
  public int partitionCount(TableDefinition table) {
    return partitionCount(table, null);
  }

  /** The number of partitions of {@code table}'s GSI {@code indexName} (null: the table's). */
  public int partitionCount(TableDefinition table, String indexName) {
    return table(table, clock.millis()).partitionCount(indexName);
  }
}
