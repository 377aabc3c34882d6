package io.stator.storage.rocksdb;

import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The RocksDB key of a {@link StorageKey}: {@code escape(partition) 0x00 0x01 sort}.
 *
 * <p>RocksDB compares keys as unsigned bytes, and so does {@link StorageKey}, but a plain
 * concatenation {@code partition sort} would merge partitions that are prefixes of one another
 * (partition "ab" with sort "c" would meet partition "abc"). Escaping every 0x00 of the partition
 * as 0x00 0xFF and ending it with 0x00 0x01 makes the encoding order-preserving and
 * prefix-free:
 *
 * <ul>
 *   <li>the first 0x00 0x01 of an encoded key is always the partition terminator, so the bytes
 *       {@code escape(p) 0x00 0x01} are a prefix of exactly the keys of partition {@code p};
 *   <li>if {@code p} is a proper prefix of {@code q}, the terminator 0x00 0x01 of {@code p} sorts
 *       before whatever {@code q} continues with (a byte ≥ 0x01, or 0x00 0xFF), so every key of
 *       {@code p} sorts before every key of {@code q}, as (partition, sort) order requires;
 *   <li>where {@code p} and {@code q} first differ, an escaped 0x00 (0x00 0xFF) still sorts below
 *       any byte ≥ 0x01.
 * </ul>
 *
 * <p>The sort bytes go last and raw: within one partition the order is theirs.
 */
final class CompositeKey {
  private static final byte ESCAPE = 0x00;
  private static final byte ESCAPED_ZERO = (byte) 0xFF;
  private static final byte TERMINATOR = 0x01;

  private CompositeKey() {}

  static byte[] encode(StorageKey key) {
    return concat(partitionPrefix(key.partition()), key.sort());
  }

  /** The bytes every key of the partition starts with, and no other key does. */
  static byte[] partitionPrefix(byte[] partition) {
    int zeros = 0;
    for (byte b : partition) {
      if (b == ESCAPE) {
        zeros++;
      }
    }
    byte[] out = new byte[partition.length + zeros + 2];
    int i = 0;
    for (byte b : partition) {
      out[i++] = b;
      if (b == ESCAPE) {
        out[i++] = ESCAPED_ZERO;
      }
    }
    out[i++] = ESCAPE;
    out[i] = TERMINATOR;
    return out;
  }

  /** The smallest key greater than every key of the partition (exclusive end of its range). */
  static byte[] partitionEnd(byte[] partition) {
    byte[] end = partitionPrefix(partition);
    end[end.length - 1] = TERMINATOR + 1;
    return end;
  }

  static StorageKey decode(byte[] key) {
    ByteArrayOutputStream partition = new ByteArrayOutputStream(key.length);
    for (int i = 0; i + 1 < key.length; i++) {
      byte b = key[i];
      if (b != ESCAPE) {
        partition.write(b);
      } else if (key[i + 1] == ESCAPED_ZERO) {
        partition.write(ESCAPE);
        i++;
      } else if (key[i + 1] == TERMINATOR) {
        return new StorageKey(partition.toByteArray(), Arrays.copyOfRange(key, i + 2, key.length));
      } else {
        break;
      }
    }
    throw new StorageException("corrupt key: no partition terminator");
  }

  /** The smallest byte string greater than {@code bytes}: {@code bytes 0x00}. */
  static byte[] successor(byte[] bytes) {
    return Arrays.copyOf(bytes, bytes.length + 1);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
