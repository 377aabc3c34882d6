package io.stator.storage;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * The partitions one segment of a parallel Scan reads: {@code [fromPartition, toPartition)},
 * either null for unbounded. The segments of one split are disjoint and together cover the
 * space, so the records of a space are read once by all its segments together.
 */
public record Segment(byte[] fromPartition, byte[] toPartition) {
  private static final int PREFIX_BYTES = 8;

  /**
   * Segment {@code segment} of {@code total} in the order of partition bytes: the range of 8-byte
   * prefixes split into {@code total} contiguous parts of equal size. Even over the data when
   * partitions begin with a uniform hash, as the engine's do.
   */
  public static Segment ofByteOrder(int segment, int total) {
    return new Segment(start(segment, total), start(segment + 1, total));
  }

  /** Whether {@code key} lies in this segment: an ExclusiveStartKey must lie in its segment. */
  public boolean contains(StorageKey key) {
    return (fromPartition == null || Arrays.compareUnsigned(key.partition(), fromPartition) >= 0)
        && (toPartition == null || Arrays.compareUnsigned(key.partition(), toPartition) < 0);
  }

  /** The first prefix of segment {@code i} of {@code total}; null for the first and past the last. */
  private static byte[] start(int i, int total) {
    if (i <= 0 || i >= total) {
      return null;
    }
    long bits =
        BigInteger.ONE.shiftLeft(64).multiply(BigInteger.valueOf(i))
            .divide(BigInteger.valueOf(total)).longValue();
    byte[] out = new byte[PREFIX_BYTES];
    for (int b = 0; b < PREFIX_BYTES; b++) {
      out[b] = (byte) (bits >>> (56 - 8 * b));
    }
    return out;
  }
}
