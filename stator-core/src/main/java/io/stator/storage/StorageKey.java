package io.stator.storage;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A key in a space: partition bytes and sort bytes (empty for tables without a sort key). Keys
 * order by partition, then sort, as unsigned bytes.
 */
public record StorageKey(byte[] partition, byte[] sort) implements Comparable<StorageKey> {
  private static final byte[] NONE = new byte[0];

  public StorageKey {
    if (partition == null) {
      throw new NullPointerException("partition");
    }
    if (sort == null) {
      sort = NONE;
    }
  }

  public static StorageKey of(byte[] partition) {
    return new StorageKey(partition, NONE);
  }

  @Override
  public int compareTo(StorageKey o) {
    int c = Arrays.compareUnsigned(partition, o.partition);
    return c != 0 ? c : Arrays.compareUnsigned(sort, o.sort);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StorageKey k
        && Arrays.equals(partition, k.partition)
        && Arrays.equals(sort, k.sort);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(partition) + Arrays.hashCode(sort);
  }

  @Override
  public String toString() {
    return HexFormat.of().formatHex(partition) + "/" + HexFormat.of().formatHex(sort);
  }
}
