package io.stator.index;

import io.stator.item.ItemCodec;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * One committed change of one item, as the change log of a table keeps it: the item before and
 * after the write. The GSI propagator reads it; a stream log can reuse it, which is why it keeps
 * whole images rather than only what the indexes need.
 *
 * <p>Key: the sequence number as 8 big-endian bytes (the partition bytes; no sort bytes), so a
 * scan of the log space returns records in sequence order.
 *
 * <p>Value, format version 1:
 *
 * <pre>
 *   byte    format version (1)
 *   long    the writer's clock, epoch milliseconds, when the record was made (for --gsi-lag)
 *   byte    flags: 1 = old image present, 2 = new image present
 *   int     length of the old image, if present
 *   bytes   old image (item codec), if present
 *   bytes   new image (item codec, to the end), if present
 * </pre>
 *
 * A reader refuses other versions loudly rather than guess.
 *
 * @param oldImage the item before the write, or null if it did not exist
 * @param newImage the item after the write, or null if the write deleted it
 */
record ChangeRecord(
    long sequence, long timestamp, Map<String, AttributeValue> oldImage,
    Map<String, AttributeValue> newImage) {

  static final byte FORMAT_VERSION = 1;

  /** An image of the item (the new one, else the old one): for its table key. */
  Map<String, AttributeValue> image() {
    return newImage != null ? newImage : oldImage;
  }

  static StorageKey key(long sequence) {
    return StorageKey.of(ByteBuffer.allocate(8).putLong(sequence).array());
  }

  static long sequence(StorageKey key) {
    return ByteBuffer.wrap(key.partition()).getLong();
  }

  /**
   * A record's value from its images in the item codec (null: absent); a writer that holds the
   * stored old item and the new item's bytes passes them, saving two encodings per write.
   */
  static byte[] encode(long timestamp, byte[] oldBytes, byte[] newBytes) {
    int oldLength = oldBytes == null ? 0 : oldBytes.length;
    int newLength = newBytes == null ? 0 : newBytes.length;
    ByteBuffer out = ByteBuffer.allocate(1 + 8 + 1 + 4 + oldLength + newLength);
    out.put(FORMAT_VERSION);
    out.putLong(timestamp);
    out.put((byte) ((oldBytes != null ? 1 : 0) | (newBytes != null ? 2 : 0)));
    out.putInt(oldLength);
    if (oldBytes != null) {
      out.put(oldBytes);
    }
    if (newBytes != null) {
      out.put(newBytes);
    }
    return out.array();
  }

  static ChangeRecord decode(StorageKey key, byte[] bytes) {
    if (bytes.length < 14 || bytes[0] != FORMAT_VERSION) {
      throw new StorageException(
          "unknown change log format version "
              + (bytes.length == 0 ? "(empty)" : String.valueOf(bytes[0] & 0xFF))
              + "; this release reads version " + FORMAT_VERSION);
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    in.get();
    long timestamp = in.getLong();
    int flags = in.get();
    int oldLength = in.getInt();
    int start = in.position();
    Map<String, AttributeValue> oldImage =
        (flags & 1) != 0 ? ItemCodec.decode(Arrays.copyOfRange(bytes, start, start + oldLength))
            : null;
    Map<String, AttributeValue> newImage =
        (flags & 2) != 0
            ? ItemCodec.decode(Arrays.copyOfRange(bytes, start + oldLength, bytes.length))
            : null;
    return new ChangeRecord(sequence(key), timestamp, oldImage, newImage);
  }
}
