package io.stator.storage.cassandra;

import io.stator.storage.StorageKey;
import java.util.Arrays;

/**
 * The buckets a scan of {@code [fromPartition, toPartition)} after {@code startAfter} reads, and
 * the bounds on the first and last of them: buckets in between are read whole.
 *
 * <p>A record's bucket is the first byte of its partition (0 for an empty partition), so the
 * order (bucket, partition, sort) is the SPI's unsigned byte order, and a range of partitions is
 * a range of buckets whose first is cut by the range's start and whose last by its end.
 *
 * @param first the first bucket read
 * @param start where the first bucket's read starts
 * @param last the last bucket read
 * @param endBefore the partition the last bucket's read stops before, or null to read it whole
 */
record ScanRange(int first, Start start, int last, byte[] endBefore) {
  /** The number of buckets of a space, one per value of a partition's first byte. */
  static final int BUCKETS = 256;

  /** The start of the first bucket's read. */
  sealed interface Start {}

  /** The whole bucket. */
  record FromTheStart() implements Start {}

  /** From the first record of {@code partition}. */
  record AtPartition(byte[] partition) implements Start {}

  /** Strictly after {@code key}. */
  record AfterKey(StorageKey key) implements Start {}

  /** The bucket of a partition: its first byte, unsigned; 0 for an empty partition. */
  static int bucket(byte[] partition) {
    return partition.length == 0 ? 0 : partition[0] & 0xFF;
  }

  /** The buckets a scan reads, or null when the range holds nothing. */
  static ScanRange of(byte[] fromPartition, byte[] toPartition, StorageKey startAfter) {
    // The start is the later of "the first key of fromPartition" and "just after startAfter".
    Start start;
    int first;
    byte[] lowest;
    if (startAfter != null
        && (fromPartition == null
            || Arrays.compareUnsigned(startAfter.partition(), fromPartition) >= 0)) {
      start = new AfterKey(startAfter);
      lowest = startAfter.partition();
      first = bucket(lowest);
    } else if (fromPartition != null) {
      start = new AtPartition(fromPartition);
      lowest = fromPartition;
      first = bucket(lowest);
    } else {
      start = new FromTheStart();
      lowest = null;
      first = 0;
    }
    if (toPartition == null) {
      return new ScanRange(first, start, BUCKETS - 1, null);
    }
    if (lowest != null && Arrays.compareUnsigned(lowest, toPartition) >= 0) {
      return null;
    }
    if (toPartition.length == 0) {
      return null; // no partition is below the empty one
    }
    if (toPartition.length == 1 && toPartition[0] != 0) {
      // Every partition of bucket b begins with b, so none of it lies below {b}: the range ends
      // with the whole bucket before. (Bucket 0 also holds the empty partition, below {0}.)
      int last = (toPartition[0] & 0xFF) - 1;
      return last < first ? null : new ScanRange(first, start, last, null);
    }
    return new ScanRange(first, start, bucket(toPartition), toPartition);
  }

  /** Whether the read of {@code bucket} starts at {@link #start} rather than the bucket's start. */
  boolean cutAtStart(int bucket) {
    return bucket == first && !(start instanceof FromTheStart);
  }

  /** Whether the read of {@code bucket} stops before {@link #endBefore}. */
  boolean cutAtEnd(int bucket) {
    return bucket == last && endBefore != null;
  }
}
