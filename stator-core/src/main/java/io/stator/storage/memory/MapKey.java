package io.stator.storage.memory;

import io.stator.storage.StorageKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A key of a space's maps (of its records by key, of its partitions by hash and in key order,
 * the last with an empty sort): the partition and sort bytes of a {@link StorageKey} (shared,
 * not copied) and the first 8 partition bytes as one unsigned {@code long}, in the same order.
 *
 * <p>Why: a walk down a sorted map makes ~log2(n) comparisons, and comparing two
 * {@code StorageKey}s calls {@link Arrays#compareUnsigned} on arrays reached through two more
 * pointers. Partition bytes start with the key's 8-byte hash (see {@code io.stator.key}), so two
 * different partitions almost always differ in their first 8 bytes: comparing the cached heads
 * decides nearly every comparison of the descent with one instruction and no array access. Only
 * equal heads (the same partition, or partitions shorter than 8 bytes) fall back to comparing
 * the arrays. The head pads short partitions with zero bytes, so it never orders two keys
 * differently from the bytes: it can only tie where the bytes differ, never disagree.
 */
final class MapKey implements Comparable<MapKey> {
  private static final VarHandle LONG_BIG_ENDIAN =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final long head;
  private final byte[] partition;
  private final byte[] sort;

  /** A map key over the arrays of {@code key}; the caller copies them first if they may change. */
  MapKey(StorageKey key) {
    this(key.partition(), key.sort());
  }

  MapKey(byte[] partition, byte[] sort) {
    this.partition = partition;
    this.sort = sort;
    this.head = head(partition);
  }

  private static long head(byte[] bytes) {
    if (bytes.length >= Long.BYTES) {
      return (long) LONG_BIG_ENDIAN.get(bytes, 0);
    }
    long head = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      head = (head << 8) | (i < bytes.length ? bytes[i] & 0xFF : 0);
    }
    return head;
  }

  StorageKey storageKey() {
    return new StorageKey(partition, sort);
  }

  @Override
  public int compareTo(MapKey o) {
    if (head != o.head) {
      return Long.compareUnsigned(head, o.head);
    }
    int c = Arrays.compareUnsigned(partition, o.partition);
    return c != 0 ? c : Arrays.compareUnsigned(sort, o.sort);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MapKey k
        && head == k.head
        && Arrays.equals(partition, k.partition)
        && Arrays.equals(sort, k.sort);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(partition) + Arrays.hashCode(sort);
  }

  @Override
  public String toString() {
    return storageKey().toString();
  }
}
