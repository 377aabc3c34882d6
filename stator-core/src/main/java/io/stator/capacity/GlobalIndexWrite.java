package io.stator.capacity;

/**
 * One write a base-table write causes in a global secondary index, charged to the index's own
 * partition: a put under the item's new index key, a delete under its old one (an update that
 * changes the index key is both), or one write of the larger entry when only the projected
 * attributes change.
 *
 * @param indexName the global secondary index
 * @param partition the encoded index partition key of the entry written (from {@code
 *     io.stator.key}), whose hash places it in one of the index's partitions
 * @param units the write capacity units (doubled in a transaction)
 * @param sizeDelta how much the write changes the index's size, in bytes
 */
public record GlobalIndexWrite(String indexName, byte[] partition, double units, long sizeDelta) {}
