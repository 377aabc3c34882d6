package io.stator.stream;

import io.stator.item.ItemCodec;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.value.AttributeValue;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One stream record as the stream's space keeps it.
 *
 * <p>Key: the shard's key as the partition (in the shared space, after the stream's id; then its
 * starting sequence number, range start and range end, 8 big-endian bytes each, see {@link
 * ShardLayout}) and the sequence number as the sort key
 * (8 big-endian bytes), so GetRecords is one forward range read within a shard.
 *
 * <p>Value: a format version byte (1), then the fields as an item (see {@link ItemCodec}, named
 * fields so later versions can add some): {@code e} the eventName, {@code k} the keys, {@code o}
 * and {@code n} the old and new images when the stream's view type keeps them, {@code it} and
 * {@code ip} the userIdentity's type and principal when the service made the change. The time
 * is not stored: it is in the sequence number.
 *
 * @param oldImage null unless kept by the view type and the item existed before
 * @param newImage null unless kept by the view type and the item exists after
 * @param identityType null for a client's change
 */
record LoggedChange(
    String eventName,
    Map<String, AttributeValue> keys,
    Map<String, AttributeValue> oldImage,
    Map<String, AttributeValue> newImage,
    String identityType,
    String identityPrincipal) {

  static final byte FORMAT_VERSION = 1;

  static StorageKey key(byte[] shard, long sequenceNumber) {
    return new StorageKey(shard, sort(sequenceNumber));
  }

  /**
   * The partition of a shard's records: the stream's prefix (its id in the shared space, empty in
   * a space of its own), then the shard's key (see {@link ShardLayout}).
   */
  static byte[] partition(byte[] prefix, long open, long start, long end) {
    return ByteBuffer.allocate(prefix.length + 24)
        .put(prefix).putLong(open).putLong(start).putLong(end).array();
  }

  static byte[] sort(long sequenceNumber) {
    return ByteBuffer.allocate(8).putLong(sequenceNumber).array();
  }

  static long sequenceNumber(StorageKey key) {
    return ByteBuffer.wrap(key.sort()).getLong();
  }

  byte[] encode() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("e", new AttributeValue.S(eventName));
    m.put("k", new AttributeValue.M(keys));
    if (oldImage != null) {
      m.put("o", new AttributeValue.M(oldImage));
    }
    if (newImage != null) {
      m.put("n", new AttributeValue.M(newImage));
    }
    if (identityType != null) {
      m.put("it", new AttributeValue.S(identityType));
      m.put("ip", new AttributeValue.S(identityPrincipal));
    }
    byte[] fields = ItemCodec.encode(m);
    byte[] out = new byte[fields.length + 1];
    out[0] = FORMAT_VERSION;
    System.arraycopy(fields, 0, out, 1, fields.length);
    return out;
  }

  static LoggedChange decode(byte[] bytes) {
    if (bytes.length == 0 || bytes[0] != FORMAT_VERSION) {
      throw new StorageException(
          "unknown stream record format version "
              + (bytes.length == 0 ? "(empty)" : String.valueOf(bytes[0] & 0xFF))
              + "; this release reads version " + FORMAT_VERSION);
    }
    Map<String, AttributeValue> m = ItemCodec.decode(Arrays.copyOfRange(bytes, 1, bytes.length));
    return new LoggedChange(
        ((AttributeValue.S) m.get("e")).value(),
        map(m.get("k")),
        map(m.get("o")),
        map(m.get("n")),
        m.containsKey("it") ? ((AttributeValue.S) m.get("it")).value() : null,
        m.containsKey("ip") ? ((AttributeValue.S) m.get("ip")).value() : null);
  }

  private static Map<String, AttributeValue> map(AttributeValue v) {
    return v == null ? null : ((AttributeValue.M) v).value();
  }
}
