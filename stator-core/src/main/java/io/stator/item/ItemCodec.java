package io.stator.item;

import io.stator.storage.StorageException;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stored form of an item: a compact binary encoding, not JSON.
 *
 * <p>Layout: a format version byte ({@link #VERSION}), then a varint attribute count and, per
 * attribute, a length-prefixed UTF-8 name and a value. A value is a one-byte type tag followed
 * by: a length-prefixed payload (S as UTF-8, N as its normalised decimal text, B as bytes), a
 * count and members (SS, NS, BS, L), a count and name/value entries (M), or nothing (NULL, and
 * BOOL whose tag carries the value). Lengths and counts are unsigned LEB128 varints.
 *
 * <p>Numbers are kept as their normalised text, which is already canonical and usually shorter
 * than a binary decimal for the values people store; decoding needs no arithmetic.
 *
 * <p>The version byte lets a later release change the layout and still read, or loudly refuse,
 * old data: an unknown version is a {@link StorageException}, never a silently wrong item.
 * Version {@link #WITH_STREAM_NUMBER} is version 1 with, between the version byte and the
 * attributes, the sequence number (8 bytes, big-endian) of the stream record of the write that
 * stored it ({@link #withStreamNumber}): the next change of the item numbers its record above it,
 * whichever server makes it and whatever its clock says.
 */
public final class ItemCodec {
  /** The current format version, the first byte of every encoded item. */
  public static final int VERSION = 1;
  /** The format of an item stored with its last stream record's sequence number. */
  public static final int WITH_STREAM_NUMBER = 2;

  private static final int S = 1;
  private static final int N = 2;
  private static final int B = 3;
  private static final int TRUE = 4;
  private static final int FALSE = 5;
  private static final int NULL = 6;
  private static final int M = 7;
  private static final int L = 8;
  private static final int SS = 9;
  private static final int NS = 10;
  private static final int BS = 11;

  private ItemCodec() {}

  /**
   * Each thread's encoding buffer. Encoding into a fresh buffer that doubled as it filled made
   * about three times the item's size in garbage per item written (128, 256, ... bytes, then the
   * exact copy); a buffer kept per thread leaves only the exact copy.
   */
  private static final ThreadLocal<Writer> WRITERS = ThreadLocal.withInitial(Writer::new);

  public static byte[] encode(Map<String, AttributeValue> item) {
    Writer w = WRITERS.get();
    w.clear(); // empty, also after an earlier encoding on this thread that failed half way
    w.byte_(VERSION);
    writeMap(w, item);
    return w.takeBytes();
  }

  /**
   * The encoded item {@code encoded} (version 1) stored with {@code sequenceNumber}, the number of
   * the stream record its write makes (version {@link #WITH_STREAM_NUMBER}).
   */
  public static byte[] withStreamNumber(byte[] encoded, long sequenceNumber) {
    int from = attributesAt(encoded);
    return ByteBuffer.allocate(1 + Long.BYTES + encoded.length - from)
        .put((byte) WITH_STREAM_NUMBER).putLong(sequenceNumber)
        .put(encoded, from, encoded.length - from).array();
  }

  /** The sequence number an item was stored with ({@link #withStreamNumber}), or -1. */
  public static long streamNumber(byte[] encoded) {
    return attributesAt(encoded) == 1 ? -1 : ByteBuffer.wrap(encoded).getLong(1);
  }

  /** Where the attributes of an encoded item start, after its version (and stream number). */
  private static int attributesAt(byte[] bytes) {
    int version = bytes.length == 0 ? -1 : bytes[0] & 0xFF;
    if (version == VERSION) {
      return 1;
    }
    if (version == WITH_STREAM_NUMBER && bytes.length > Long.BYTES) {
      return 1 + Long.BYTES;
    }
    throw new StorageException(
        "unknown item format version "
            + (bytes.length == 0 ? "(empty)" : String.valueOf(version))
            + "; this release reads versions " + VERSION + " and " + WITH_STREAM_NUMBER);
  }

  public static Map<String, AttributeValue> decode(byte[] bytes) {
    Reader r = new Reader(bytes, attributesAt(bytes));
    try {
      Map<String, AttributeValue> item = readMap(r);
      if (r.pos != bytes.length) {
        throw new StorageException("corrupt item: trailing bytes");
      }
      return item;
    } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
      throw new StorageException("corrupt item", e);
    }
  }

  /**
   * DynamoDB's size of the encoded item ({@link ItemSize#of} of its decoded form), read from the
   * bytes without building the item: names and strings are stored as UTF-8, so their sizes are
   * their stored lengths. A read charges capacity on this size whatever it projects.
   */
  public static long size(byte[] bytes) {
    Reader r = new Reader(bytes, attributesAt(bytes));
    try {
      long size = sizeOfMap(r);
      if (r.pos != bytes.length) {
        throw new StorageException("corrupt item: trailing bytes");
      }
      return size;
    } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
      throw new StorageException("corrupt item", e);
    }
  }

  private static long sizeOfMap(Reader r) {
    int count = r.varint();
    long size = 0;
    for (int i = 0; i < count; i++) {
      size += r.skip() + sizeOfValue(r);
    }
    return size;
  }

  private static long sizeOfValue(Reader r) {
    int tag = r.byte_();
    switch (tag) {
      case S:
      case B:
        return r.skip();
      case N:
        return r.numberSize();
      case TRUE:
      case FALSE:
      case NULL:
        return 1;
      case M: {
        int mark = r.pos;
        int count = r.varint();
        r.pos = mark;
        return 3 + count + sizeOfMap(r);
      }
      case L: {
        int count = r.varint();
        long size = 3 + count;
        for (int i = 0; i < count; i++) {
          size += sizeOfValue(r);
        }
        return size;
      }
      case SS:
      case BS: {
        int count = r.varint();
        long size = 0;
        for (int i = 0; i < count; i++) {
          size += r.skip();
        }
        return size;
      }
      case NS: {
        int count = r.varint();
        long size = 0;
        for (int i = 0; i < count; i++) {
          size += r.numberSize();
        }
        return size;
      }
      default:
        throw new IllegalArgumentException("unknown type tag " + tag);
    }
  }

  private static void writeMap(Writer w, Map<String, AttributeValue> map) {
    w.varint(map.size());
    for (Map.Entry<String, AttributeValue> e : map.entrySet()) {
      w.text(e.getKey());
      writeValue(w, e.getValue());
    }
  }

  private static void writeValue(Writer w, AttributeValue value) {
    if (value instanceof AttributeValue.S s) {
      w.byte_(S);
      if (s.hasUtf8()) {
        w.bytes(s.unsafeUtf8Array(), s.utf8Offset(), s.utf8Length());
      } else {
        w.text(s.value());
      }
    } else if (value instanceof AttributeValue.N n) {
      w.byte_(N);
      w.text(n.value());
    } else if (value instanceof AttributeValue.B b) {
      w.byte_(B);
      w.bytes(b.value().unsafeArray());
    } else if (value instanceof AttributeValue.Bool bool) {
      w.byte_(bool.value() ? TRUE : FALSE);
    } else if (value instanceof AttributeValue.Null) {
      w.byte_(NULL);
    } else if (value instanceof AttributeValue.M m) {
      w.byte_(M);
      writeMap(w, m.value());
    } else if (value instanceof AttributeValue.L l) {
      w.byte_(L);
      w.varint(l.value().size());
      for (AttributeValue v : l.value()) {
        writeValue(w, v);
      }
    } else if (value instanceof AttributeValue.SS ss) {
      w.byte_(SS);
      w.varint(ss.value().size());
      ss.value().forEach(w::text);
    } else if (value instanceof AttributeValue.NS ns) {
      w.byte_(NS);
      w.varint(ns.value().size());
      ns.value().forEach(w::text);
    } else if (value instanceof AttributeValue.BS bs) {
      w.byte_(BS);
      w.varint(bs.value().size());
      for (Bytes b : bs.value()) {
        w.bytes(b.unsafeArray());
      }
    } else {
      throw new IllegalArgumentException("unknown value " + value);
    }
  }

  private static Map<String, AttributeValue> readMap(Reader r) {
    int size = r.varint();
    Map<String, AttributeValue> map = new LinkedHashMap<>(Math.max(4, size * 2));
    for (int i = 0; i < size; i++) {
      String name = r.text();
      map.put(name, readValue(r));
    }
    return map;
  }

  private static AttributeValue readValue(Reader r) {
    int tag = r.byte_();
    switch (tag) {
      case S:
        return r.string();
      case N:
        return new AttributeValue.N(r.text());
      case B:
        return new AttributeValue.B(Bytes.wrap(r.bytes()));
      case TRUE:
        return new AttributeValue.Bool(true);
      case FALSE:
        return new AttributeValue.Bool(false);
      case NULL:
        return AttributeValue.NULL;
      case M:
        return new AttributeValue.M(readMap(r));
      case L: {
        int size = r.varint();
        List<AttributeValue> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          list.add(readValue(r));
        }
        return new AttributeValue.L(list);
      }
      case SS:
      case NS: {
        int size = r.varint();
        Set<String> set = new LinkedHashSet<>();
        for (int i = 0; i < size; i++) {
          set.add(r.text());
        }
        return tag == SS ? new AttributeValue.SS(set) : new AttributeValue.NS(set);
      }
      case BS: {
        int size = r.varint();
        Set<Bytes> set = new LinkedHashSet<>();
        for (int i = 0; i < size; i++) {
          set.add(Bytes.wrap(r.bytes()));
        }
        return new AttributeValue.BS(set);
      }
      default:
        throw new IllegalArgumentException("unknown type tag " + tag);
    }
  }

  private static final class Writer {
    private static final int INITIAL_BYTES = 1024;
    // A buffer grown past this by a large item is not kept for the next one.
    private static final int KEPT_BYTES = 64 * 1024;

    private byte[] buf = new byte[INITIAL_BYTES];
    private int len;

    void byte_(int b) {
      ensure(1);
      buf[len++] = (byte) b;
    }

    void varint(int v) {
      ensure(5);
      while ((v & ~0x7F) != 0) {
        buf[len++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      buf[len++] = (byte) v;
    }

    void bytes(byte[] b) {
      bytes(b, 0, b.length);
    }

    void bytes(byte[] b, int offset, int length) {
      varint(length);
      ensure(length);
      System.arraycopy(b, offset, buf, len, length);
      len += length;
    }

    void text(String s) {
      bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private void ensure(int n) {
      if (len + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
      }
    }

    void clear() {
      len = 0;
    }

    /** The bytes written, as a new array; a buffer grown past {@link #KEPT_BYTES} is let go. */
    byte[] takeBytes() {
      byte[] out = Arrays.copyOf(buf, len);
      if (buf.length > KEPT_BYTES) {
        buf = new byte[INITIAL_BYTES];
      }
      return out;
    }
  }

  /**
   * Strings of this many UTF-8 bytes or more decode to a string over the item's bytes, made into
   * a String only if asked for: an item's long strings (its payload) are mostly written out as
   * bytes again. Shorter ones are made at once: a String costs them little more than the S that
   * would point into the item.
   */
  static final int LAZY_STRING_BYTES = 32;

  private static final class Reader {
    private final byte[] buf;
    private int pos;

    Reader(byte[] buf, int pos) {
      this.buf = buf;
      this.pos = pos;
    }

    int byte_() {
      return buf[pos++] & 0xFF;
    }

    int varint() {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = byte_();
        v |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          if (v < 0) {
            throw new IllegalArgumentException("negative length");
          }
          return v;
        }
      }
      throw new IllegalArgumentException("varint too long");
    }

    /** A length prefix, checked against the bytes left after it. */
    private int length() {
      int n = varint();
      if (n > buf.length - pos) {
        throw new IllegalArgumentException("length beyond end");
      }
      return n;
    }

    byte[] bytes() {
      int n = length();
      byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return out;
    }

    /** Steps over a length-prefixed payload; returns its length. */
    int skip() {
      int n = length();
      pos += n;
      return n;
    }

    /** The size of a stored number, from its ASCII text in place (no String, no digits). */
    long numberSize() {
      int n = length();
      long size = ItemSize.number(buf, pos, n);
      pos += n;
      return size;
    }

    /**
     * A string value: one of {@link #LAZY_STRING_BYTES} or more keeps its place in the item's
     * bytes (see {@link AttributeValue.S#ofUtf8}), a shorter one is made at once.
     */
    AttributeValue.S string() {
      int n = length();
      AttributeValue.S s =
          n < LAZY_STRING_BYTES
              ? new AttributeValue.S(new String(buf, pos, n, StandardCharsets.UTF_8))
              : AttributeValue.S.ofUtf8(buf, pos, n);
      pos += n;
      return s;
    }

    String text() {
      int n = length();
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }
  }
}
