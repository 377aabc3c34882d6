package io.stator.capacity;

import java.util.List;

/**
 * Stator's own figures, as DynamoDB's CloudWatch metrics ConsumedReadCapacityUnits and
 * ConsumedWriteCapacityUnits count them: the capacity units each table and each of its global
 * secondary indexes has consumed since the database opened (requests the capacity mode
 * throttled consume nothing). Every database from {@code Stator.open} offers it; the server's
 * metrics read it. Per process: servers sharing a storage each count their own requests.
 */
public interface CapacityTotals {
  /** The units consumed so far, a row per table and per GSI that consumed any. */
  List<Consumed> consumedCapacity();

  /**
   * Units consumed by the table {@code tableName}, or by its global secondary index {@code
   * indexName} (null: the table itself).
   */
  record Consumed(String tableName, String indexName, double readCapacityUnits,
      double writeCapacityUnits) {}
}
