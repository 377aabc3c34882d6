package io.stator.engine;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.stator.capacity.CapacityMode;
import io.stator.capacity.CapacitySettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Settings of an engine: the region and account id that appear in ARNs, the clock that
 * timestamps tables, decides which items have expired and drives the capacity model (tests may
 * pass a fixed or hand-moved one), how often the Time to Live sweeper looks for expired items,
 * the capacity model's settings (observe or enforce, and its figures), and the lag with which
 * global secondary indexes follow their tables (zero: as fast as possible; more lets
 * applications test against DynamoDB's eventual consistency on purpose). Each member has its
 * {@code with...} copy method ({@code withGsiLag}, ...), generated into {@code
 * EngineOptionsBuilder.With} at compile time.
 *
 * @param timeToLiveSweepInterval the pause between two rounds of the background Time to Live
 *     sweeper; zero turns the background sweeper off (forced sweeps still work)
 * @param gsiLag how long a change waits before the propagator applies it to global secondary
 *     indexes
 * @param itemCollectionSizeLimit the most bytes one item collection (a partition key value's
 *     items and LSI entries, in a table with a local secondary index) may hold; 0 is DynamoDB's
 *     10 GB. Tests set less to reach ItemCollectionSizeLimitExceededException with little data.
 * @param synchronousGlobalIndexes whether a write, when the GSI lag is zero, maintains its
 *     table's global secondary indexes in its own commit (as it does local ones) instead of
 *     leaving them to the propagator; on by default, and on for every storage the command line
 *     opens: on Cassandra a GSI entry is one more write in the item's Accord transaction, on
 *     whichever node owns it. Off keeps every GSI asynchronous, as DynamoDB's are.
 * @param exportDirectory the directory under which ExportTableToPointInTime writes and
 *     ImportTable reads files, an S3 bucket being a directory in it; null: none, and those
 *     operations are refused
 */
@RecordBuilder
public record EngineOptions(
    String region,
    String accountId,
    Clock clock,
    Duration timeToLiveSweepInterval,
    CapacitySettings capacity,
    Duration gsiLag,
    long itemCollectionSizeLimit,
    boolean synchronousGlobalIndexes,
    Path exportDirectory) implements EngineOptionsBuilder.With {

  /** One second: expired items disappear about as soon as a developer looks for them. */
  public static final Duration DEFAULT_TTL_SWEEP_INTERVAL = Duration.ofSeconds(1);

  public EngineOptions {
    if (timeToLiveSweepInterval == null) {
      timeToLiveSweepInterval = DEFAULT_TTL_SWEEP_INTERVAL;
    }
    if (timeToLiveSweepInterval.isNegative()) {
      throw new IllegalArgumentException("negative TTL sweep interval " + timeToLiveSweepInterval);
    }
    if (capacity == null) {
      capacity = CapacitySettings.defaults();
    }
    if (gsiLag == null) {
      gsiLag = Duration.ZERO;
    }
    if (gsiLag.isNegative()) {
      throw new IllegalArgumentException("negative GSI lag " + gsiLag);
    }
    if (itemCollectionSizeLimit < 0) {
      throw new IllegalArgumentException("negative item collection size limit");
    }
  }

  public EngineOptions(
      String region, String accountId, Clock clock, Duration timeToLiveSweepInterval,
      CapacitySettings capacity, Duration gsiLag, long itemCollectionSizeLimit,
      boolean synchronousGlobalIndexes) {
    this(region, accountId, clock, timeToLiveSweepInterval, capacity, gsiLag,
        itemCollectionSizeLimit, synchronousGlobalIndexes, null);
  }

  public EngineOptions(
      String region, String accountId, Clock clock, Duration timeToLiveSweepInterval,
      CapacitySettings capacity, Duration gsiLag, long itemCollectionSizeLimit) {
    this(region, accountId, clock, timeToLiveSweepInterval, capacity, gsiLag,
        itemCollectionSizeLimit, true);
  }

  public EngineOptions(
      String region, String accountId, Clock clock, Duration timeToLiveSweepInterval,
      CapacitySettings capacity, Duration gsiLag) {
    this(region, accountId, clock, timeToLiveSweepInterval, capacity, gsiLag, 0);
  }

  public EngineOptions(String region, String accountId, Clock clock) {
    this(
        region,
        accountId,
        clock,
        DEFAULT_TTL_SWEEP_INTERVAL,
        CapacitySettings.defaults(),
        Duration.ZERO);
  }

  /** The account of every ARN Stator names (tables, streams, users). */
  public static final String DEFAULT_ACCOUNT_ID = "000000000000";

  public static EngineOptions defaults() {
    return new EngineOptions("us-east-1", DEFAULT_ACCOUNT_ID, Clock.systemUTC());
  }

  public EngineOptions withCapacityMode(CapacityMode mode) {
    return withCapacity(capacity.withMode(mode));
  }
}
