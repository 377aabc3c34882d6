package io.stator.schema;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the catalog knows about a table: its name, identity, key schema, attribute definitions,
 * billing and throughput. Immutable; UpdateTable produces a new definition.
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
 * @param timeToLive the Time to Live setting ({@link TimeToLive#DISABLED} when never enabled)
 * @param contributorInsights the Contributor Insights settings of the table and its indexes that
 *     were ever changed, at most one per index name (null for the table)
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
    TimeToLive timeToLive,
    List<ContributorInsights> contributorInsights) {

  public static final String PROVISIONED = "PROVISIONED";
  public static final String PAY_PER_REQUEST = "PAY_PER_REQUEST";

  public TableDefinition {
    attributeDefinitions = List.copyOf(attributeDefinitions);
    if (timeToLive == null) {
      timeToLive = TimeToLive.DISABLED;
    }
    contributorInsights =
        contributorInsights == null ? List.of() : List.copyOf(contributorInsights);
  }

  /** A definition with Contributor Insights never changed. */
  public TableDefinition(
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
      TimeToLive timeToLive) {
    this(name, tableId, space, hashKey, rangeKey, attributeDefinitions, billingMode,
        readCapacityUnits, writeCapacityUnits, creationDateTime, lastUpdateToPayPerRequest,
        lastIncrease, lastDecrease, status, timeToLive, List.of());
  }

  /** A definition with Time to Live disabled. */
  public TableDefinition(
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
      String status) {
    this(name, tableId, space, hashKey, rangeKey, attributeDefinitions, billingMode,
        readCapacityUnits, writeCapacityUnits, creationDateTime, lastUpdateToPayPerRequest,
        lastIncrease, lastDecrease, status, TimeToLive.DISABLED);
  }

  public boolean hasRangeKey() {
    return rangeKey != null;
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

  public TableDefinition withStatus(String newStatus) {
    return new TableDefinition(
        name, tableId, space, hashKey, rangeKey, attributeDefinitions, billingMode,
        readCapacityUnits, writeCapacityUnits, creationDateTime, lastUpdateToPayPerRequest,
        lastIncrease, lastDecrease, newStatus, timeToLive, contributorInsights);
  }

  public TableDefinition withBilling(
      String mode, long read, long write, Instant toPayPerRequest, Instant increase,
      Instant decrease) {
    return new TableDefinition(
        name, tableId, space, hashKey, rangeKey, attributeDefinitions, mode, read, write,
        creationDateTime, toPayPerRequest, increase, decrease, status, timeToLive,
        contributorInsights);
  }

  public TableDefinition withTimeToLive(TimeToLive setting) {
    return new TableDefinition(
        name, tableId, space, hashKey, rangeKey, attributeDefinitions, billingMode,
        readCapacityUnits, writeCapacityUnits, creationDateTime, lastUpdateToPayPerRequest,
        lastIncrease, lastDecrease, status, setting, contributorInsights);
  }

  public TableDefinition withContributorInsights(List<ContributorInsights> settings) {
    return new TableDefinition(
        name, tableId, space, hashKey, rangeKey, attributeDefinitions, billingMode,
        readCapacityUnits, writeCapacityUnits, creationDateTime, lastUpdateToPayPerRequest,
        lastIncrease, lastDecrease, status, timeToLive, settings);
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
}
