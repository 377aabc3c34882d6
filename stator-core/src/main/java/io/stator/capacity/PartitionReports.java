package io.stator.capacity;

/**
 * Stator's own view, not DynamoDB's: how a table's or a global secondary index's partitions
 * share its keys, its capacity and its throttles (the console's partition page and {@code GET
 * /stator/tables/T/partitions}). Every database from {@code Stator.open} offers it; like {@link
 * io.stator.ttl.ExpiredItemSweep} it is kept out of {@code Database}, which has DynamoDB's
 * operations.
 */
public interface PartitionReports {
  /**
   * The partitions of the table {@code tableName}, or of its global secondary index {@code
   * indexName} (null: the table): a GSI has partitions, throughput and hot keys of its own.
   *
   * @throws io.stator.api.DynamoDbException ResourceNotFoundException when there is no such table
   *     or GSI
   */
  PartitionReport partitions(String tableName, String indexName);
}
