package io.stator.schema;

import io.stator.api.TableStatus;
import io.stator.key.KeyCodec;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the catalog knows about a table: its name, identity, key schema, attribute definitions,
 * billing and throughput, secondary indexes, Time to Live, Contributor Insights, streams and
 * table settings. Immutable; UpdateTable produces a new definition.
 *
 * @param tableId a UUID, new for every incarnation of a table name
 * @param space the storage space holding this incarnation's items (derived from the id, so a
 *     deleted and re-created table never sees the old items)
 * @param rangeKey null for a simple primary key
 * @param billingMode PROVISIONED or PAY_PER_REQUEST
 * @param readCapacityUnits 0 for PAY_PER_REQUEST
 * @param lastUpdateToPayPerRequest when the table last became PAY_PER_REQUEST, or null
 * @param lastIncrease when provisioned throughput was last increased, or null
 * @param lastDecrease when provisioned throughput was last decreased, or null
 * @param indexes the secondary indexes, local and global, in definition order
 * @param timeToLive the Time to Live setting ({@link TimeToLive#DISABLED} when never enabled)
 * @param contributorInsights the Contributor Insights settings of the table and its indexes that
 *     were ever changed, at most one per index name (null for the table)
 * @param streams the table's streams still kept (the enabled one, and disabled ones within
 *     their 24 hours of retention), oldest first
 * @param settings deletion protection, table class, encryption, point-in-time recovery and tags
 *     ({@link TableSettings#DEFAULT} when none was ever given)
 * @param maxThroughput an on-demand table's OnDemandThroughput ceilings ({@link
 *     MaxThroughput#NONE} when it has none, and always for a provisioned table)
 */
public record TableDefinition(
    String name,
    String tableId,
    String space,
    KeyAttribute hashKey,
    KeyAttribute rangeKey,
    List<KeyAttribute> attributeDefinitions,
    String billingMode,
    long readCapacityUnits,
    long writeCapacityUnits,
    Instant creationDateTime,
    Instant lastUpdateToPayPerRequest,
    Instant lastIncrease,
    Instant lastDecrease,
    String status,
    List<IndexDefinition> indexes,
    TimeToLive timeToLive,
    List<ContributorInsights> contributorInsights,
    List<StreamDefinition> streams,
    TableSettings settings,
    MaxThroughput maxThroughput) {

  public static final String PROVISIONED = "PROVISIONED";
  public static final String PAY_PER_REQUEST = "PAY_PER_REQUEST";

  /**
   * Null indexes, contributor insights and streams are none; null Time to Live is disabled; null
   * settings are {@link TableSettings#DEFAULT} and null ceilings {@link MaxThroughput#NONE}. A new
   * table passes those six as null and adds the rest with the {@code with...} methods.
   */
  public TableDefinition {
    attributeDefinitions = List.copyOf(attributeDefinitions);
    indexes = indexes == null ? List.of() : List.copyOf(indexes);
    if (timeToLive == null) {
      timeToLive = TimeToLive.DISABLED;
    }
    contributorInsights =
        contributorInsights == null ? List.of() : List.copyOf(contributorInsights);
    streams = streams == null ? List.of() : List.copyOf(streams);
    if (settings == null) {
      settings = TableSettings.DEFAULT;
    }
    if (maxThroughput == null) {
      maxThroughput = MaxThroughput.NONE;
    }
  }

  /** The space of the table's change log, read by the GSI propagator (io.stator.index). */
  public String changeLog() {
    return SpaceNames.changeLog(tableId);
  }

  /**
   * The space of the table's change history, kept while point-in-time recovery is enabled (see
   * {@code io.stator.backup.ChangeHistory}).
   */
  public String history() {
    return SpaceNames.history(tableId);
  }

  /**
   * The space of the table's item collection sizes (tables with a local secondary index; see
   * {@code io.stator.index.ItemCollections}).
   */
  public String itemCollections() {
    return SpaceNames.itemCollections(tableId);
  }

  /** True when the table has a local secondary index (and so item collections). */
  public boolean hasLocalIndexes() {
    for (IndexDefinition i : indexes) {
      if (!i.global()) {
        return true;
      }
    }
    return false;
  }

  /** The index named {@code indexName}, or null. */
  public IndexDefinition index(String indexName) {
    for (IndexDefinition i : indexes) {
      if (i.name().equals(indexName)) {
        return i;
      }
    }
    return null;
  }

  /** True when some global secondary index (also one being created) needs the change log. */
  public boolean hasGlobalIndexes() {
    for (IndexDefinition i : indexes) {
      if (i.global()) {
        return true;
      }
    }
    return false;
  }

  /** The type of a defined attribute, or null. */
  public String attributeType(String attribute) {
    for (KeyAttribute d : attributeDefinitions) {
      if (d.name().equals(attribute)) {
        return d.type();
      }
    }
    return null;
  }

  /**
   * The definition with {@code newIndexes}; the Contributor Insights setting of an index that is
   * no longer among them goes with it, as DynamoDB removes an index's rules with the index (a
   * later index of the same name starts disabled).
   */
  public TableDefinition withIndexes(List<IndexDefinition> newIndexes, List<KeyAttribute> defs) {
    List<ContributorInsights> kept = new ArrayList<>();
    for (ContributorInsights c : contributorInsights) {
      if (c.indexName() == null
          || newIndexes.stream().anyMatch(i -> i.name().equals(c.indexName()))) {
        kept.add(c);
      }
    }
    Copy c = new Copy(this);
    c.attributeDefinitions = defs;
    c.indexes = newIndexes;
    c.contributorInsights = kept;
    return c.build();
  }

  public boolean hasRangeKey() {
    return rangeKey != null;
  }

  /**
   * Where this table keeps an item (or a key map) in its space: the partition key's bytes, and
   * the sort key's when the table has one.
   */
  public StorageKey storageKey(Map<String, AttributeValue> item) {
    byte[] partition = KeyCodec.partition(item.get(hashKey.name()));
    byte[] sort = rangeKey != null ? KeyCodec.sort(item.get(rangeKey.name())) : new byte[0];
    return new StorageKey(partition, sort);
  }

  /** The key attributes: the hash key, then the range key if any. */
  public List<KeyAttribute> keyAttributes() {
    return rangeKey == null ? List.of(hashKey) : List.of(hashKey, rangeKey);
  }

  /** True when {@code attribute} is the hash or range key. */
  public boolean isKey(String attribute) {
    return hashKey.name().equals(attribute)
        || (rangeKey != null && rangeKey.name().equals(attribute));
  }

  /**
   * True while the table is CREATING: being filled by a restore or an import, not yet ACTIVE,
   * so that item operations and DeleteTable refuse it as DynamoDB does.
   */
  public boolean creating() {
    return TableStatus.CREATING.name().equals(status);
  }

  public TableDefinition withStatus(String newStatus) {
    Copy c = new Copy(this);
    c.status = newStatus;
    return c.build();
  }

  public TableDefinition withBilling(
      String mode, long read, long write, Instant toPayPerRequest, Instant increase,
      Instant decrease) {
    Copy c = new Copy(this);
    c.billingMode = mode;
    c.readCapacityUnits = read;
    c.writeCapacityUnits = write;
    c.lastUpdateToPayPerRequest = toPayPerRequest;
    c.lastIncrease = increase;
    c.lastDecrease = decrease;
    return c.build();
  }

  public TableDefinition withTimeToLive(TimeToLive setting) {
    Copy c = new Copy(this);
    c.timeToLive = setting;
    return c.build();
  }

  public TableDefinition withContributorInsights(List<ContributorInsights> newInsights) {
    Copy c = new Copy(this);
    c.contributorInsights = newInsights;
    return c.build();
  }

  /** The definition with {@code newMaximum}; this one when it has those ceilings already. */
  public TableDefinition withMaxThroughput(MaxThroughput newMaximum) {
    if (newMaximum.equals(maxThroughput)) {
      return this;
    }
    Copy c = new Copy(this);
    c.maxThroughput = newMaximum;
    return c.build();
  }

  public TableDefinition withSettings(TableSettings newSettings) {
    Copy c = new Copy(this);
    c.settings = newSettings;
    return c.build();
  }

  /** The Contributor Insights setting of the table ({@code indexName} null) or index, or null. */
  public ContributorInsights contributorInsights(String indexName) {
    for (ContributorInsights c : contributorInsights) {
      if (Objects.equals(c.indexName(), indexName)) {
        return c;
      }
    }
    return null;
  }

  public TableDefinition withStreams(List<StreamDefinition> newStreams) {
    Copy c = new Copy(this);
    c.streams = newStreams;
    return c.build();
  }

  /** The most recent stream (enabled or not), or null if the table never had one kept. */
  public StreamDefinition latestStream() {
    return streams.isEmpty() ? null : streams.get(streams.size() - 1);
  }

  /** The enabled stream, which every write records its change in, or null. */
  public StreamDefinition enabledStream() {
    StreamDefinition latest = latestStream();
    return latest != null && latest.enabled() ? latest : null;
  }

  /**
   * A mutable copy of a definition, so each {@code with...} method names only the fields it
   * changes and the positional list of components is written once, in {@link #build}.
   */
  private static final class Copy {
    private final TableDefinition d;
    List<KeyAttribute> attributeDefinitions;
    String billingMode;
    long readCapacityUnits;
    long writeCapacityUnits;
    Instant lastUpdateToPayPerRequest;
    Instant lastIncrease;
    Instant lastDecrease;
    String status;
    List<IndexDefinition> indexes;
    TimeToLive timeToLive;
    List<ContributorInsights> contributorInsights;
    List<StreamDefinition> streams;
    TableSettings settings;
    MaxThroughput maxThroughput;

    Copy(TableDefinition d) {
      this.d = d;
      attributeDefinitions = d.attributeDefinitions;
      billingMode = d.billingMode;
      readCapacityUnits = d.readCapacityUnits;
      writeCapacityUnits = d.writeCapacityUnits;
      lastUpdateToPayPerRequest = d.lastUpdateToPayPerRequest;
      lastIncrease = d.lastIncrease;
      lastDecrease = d.lastDecrease;
      status = d.status;
      indexes = d.indexes;
      timeToLive = d.timeToLive;
      contributorInsights = d.contributorInsights;
      streams = d.streams;
      settings = d.settings;
      maxThroughput = d.maxThroughput;
    }

    TableDefinition build() {
      return new TableDefinition(
          d.name, d.tableId, d.space, d.hashKey, d.rangeKey, attributeDefinitions, billingMode,
          readCapacityUnits, writeCapacityUnits, d.creationDateTime, lastUpdateToPayPerRequest,
          lastIncrease, lastDecrease, status, indexes, timeToLive, contributorInsights, streams,
          settings, maxThroughput);
    }
  }
}
