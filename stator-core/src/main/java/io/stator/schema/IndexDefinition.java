package io.stator.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * A secondary index of a table, as the catalog keeps it.
 *
 * <p>A local secondary index (LSI) has the table's partition key and another sort key; its
 * entries are written in the same commit as the item. A global secondary index (GSI) has its own
 * key schema and is maintained from the table's change log (see {@code io.stator.index}).
 *
 * @param hashKeys the partition key attributes: one, or up to four for a multi-attribute GSI key
 * @param rangeKeys the sort key attributes: none, one, or up to four for a GSI
 * @param projectionType KEYS_ONLY, INCLUDE or ALL
 * @param nonKeyAttributes the INCLUDE attributes (empty otherwise)
 * @param status ACTIVE, or CREATING while an index added by UpdateTable is backfilled
 * @param space the storage space of this incarnation of the index (new for every creation)
 * @param maxThroughput a GSI's OnDemandThroughput ceilings on an on-demand table ({@link
 *     MaxThroughput#NONE} otherwise)
 */
public record IndexDefinition(
    String name,
    boolean global,
    List<KeyAttribute> hashKeys,
    List<KeyAttribute> rangeKeys,
    String projectionType,
    List<String> nonKeyAttributes,
    long readCapacityUnits,
    long writeCapacityUnits,
    String status,
    String space,
    MaxThroughput maxThroughput) {

  public static final String KEYS_ONLY = "KEYS_ONLY";
  public static final String INCLUDE = "INCLUDE";
  public static final String ALL = "ALL";
  public static final String ACTIVE = "ACTIVE";
  public static final String CREATING = "CREATING";

  public IndexDefinition {
    hashKeys = List.copyOf(hashKeys);
    rangeKeys = List.copyOf(rangeKeys);
    nonKeyAttributes = List.copyOf(nonKeyAttributes);
    if (maxThroughput == null) {
      maxThroughput = MaxThroughput.NONE;
    }
  }

  /** The index's key attributes: partition key attributes, then sort key attributes. */
  public List<KeyAttribute> keyAttributes() {
    List<KeyAttribute> out = new ArrayList<>(hashKeys);
    out.addAll(rangeKeys);
    return out;
  }

  public boolean isKey(String attribute) {
    for (KeyAttribute k : hashKeys) {
      if (k.name().equals(attribute)) {
        return true;
      }
    }
    for (KeyAttribute k : rangeKeys) {
      if (k.name().equals(attribute)) {
        return true;
      }
    }
    return false;
  }

  public boolean hasRangeKey() {
    return !rangeKeys.isEmpty();
  }

  /** Queries and scans may read the index only when it is ACTIVE (not while backfilling). */
  public boolean isActive() {
    return ACTIVE.equals(status);
  }

  public IndexDefinition withStatus(String newStatus) {
    return new IndexDefinition(
        name, global, hashKeys, rangeKeys, projectionType, nonKeyAttributes, readCapacityUnits,
        writeCapacityUnits, newStatus, space, maxThroughput);
  }

  public IndexDefinition withThroughput(long read, long write) {
    return new IndexDefinition(
        name, global, hashKeys, rangeKeys, projectionType, nonKeyAttributes, read, write, status,
        space, maxThroughput);
  }

  public IndexDefinition withMaxThroughput(MaxThroughput newMaximum) {
    return new IndexDefinition(
        name, global, hashKeys, rangeKeys, projectionType, nonKeyAttributes, readCapacityUnits,
        writeCapacityUnits, status, space, newMaximum);
  }
}
