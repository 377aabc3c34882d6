package io.stator.value;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A DynamoDB attribute value: one type per DynamoDB data type (records, and a class for S).
 *
 * <p>Instances are immutable and always valid: a number is already normalised (see {@link
 * Numbers}), a set is non-empty and free of duplicates. Factories that take user input ({@link
 * #n(String)}, {@link #ss(java.util.Collection)} ...) throw an {@link InvalidValueException}
 * when the input breaks DynamoDB's rules, so no invalid value reaches the engine.
 */
public sealed interface AttributeValue {

  /** The DynamoDB type descriptor: "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS". */
  String type();

  /**
   * A string. May be empty outside of key attributes.
   *
   * <p>A string decoded from a stored item ({@link #ofUtf8}) keeps the item's UTF-8 bytes and
   * makes its {@code String} only when {@link #value()} is first asked for. Most of an item's
   * long strings are never asked for: a read writes them out as UTF-8 again, a write that
   * replaces the item only measures and compares them, an UpdateItem encodes them back as they
   * were. Equal strings are equal whichever way they were made.
   */
  final class S implements AttributeValue {
    private final String text; // null when made from bytes
    private final byte[] utf8; // null when made from a String
    private final int offset;
    private final int length;
    private String made; // the String of the bytes, once asked for; racy but idempotent

    public S(String value) {
      this.text = Objects.requireNonNull(value, "value");
      this.utf8 = null;
      this.offset = 0;
      this.length = 0;
    }

    private S(byte[] utf8, int offset, int length) {
      Objects.checkFromIndexSize(offset, length, utf8.length);
      this.text = null;
      this.utf8 = utf8;
      this.offset = offset;
      this.length = length;
    }

    /**
     * The string whose UTF-8 encoding is {@code length} bytes of {@code utf8} from {@code
     * offset}; the bytes are kept, not copied. For a stored item's bytes only: they must be valid
     * UTF-8 (equality and the JSON written rely on it) and must never change. The S keeps the
     * whole array alive, so a caller that keeps one long value of a large item keeps the item.
     */
    public static S ofUtf8(byte[] utf8, int offset, int length) {
      return new S(utf8, offset, length);
    }

    public String value() {
      if (text != null) {
        return text;
      }
      String v = made;
      if (v == null) {
        v = new String(utf8, offset, length, StandardCharsets.UTF_8);
        made = v;
      }
      return v;
    }

    /** Whether the UTF-8 bytes are at hand: {@link #unsafeUtf8Array()} and the two below. */
    public boolean hasUtf8() {
      return utf8 != null;
    }

    /**
     * The array holding the UTF-8 bytes, shared with the storage that holds the item: read it,
     * never write it. Null unless {@link #hasUtf8()}.
     */
    public byte[] unsafeUtf8Array() {
      return utf8;
    }

    public int utf8Offset() {
      return offset;
    }

    /** The length of the UTF-8 bytes when {@link #hasUtf8()}. */
    public int utf8Length() {
      return length;
    }

    @Override
    public String type() {
      return "S";
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof S other)) {
        return false;
      }
      if (utf8 != null && other.utf8 != null) {
        return Arrays.equals(
            utf8, offset, offset + length, other.utf8, other.offset, other.offset + other.length);
      }
      if (utf8 != null) {
        return sameText(other.text);
      }
      if (other.utf8 != null) {
        return other.sameText(text);
      }
      return text.equals(other.text);
    }

    /**
     * Whether {@code text} is this string, compared with the bytes without making a String
     * while both are ASCII (the first difference usually ends it there).
     */
    private boolean sameText(String text) {
      int n = text.length();
      if (n > length) {
        return false; // every character takes at least one byte
      }
      for (int i = 0; i < n; i++) {
        char c = text.charAt(i);
        byte b = utf8[offset + i];
        if (c >= 0x80 || b < 0) {
          return text.equals(value());
        }
        if (c != b) {
          return false;
        }
      }
      return n == length;
    }

    @Override
    public int hashCode() {
      return value().hashCode();
    }

    @Override
    public String toString() {
      return "S[value=" + value() + "]";
    }
  }

  /** A number, held as its normalised decimal text (e.g. "1.5", "1000", "-0.001"). */
  record N(String value) implements AttributeValue {
    public N {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String type() {
      return "N";
    }

    public java.math.BigDecimal decimal() {
      return new java.math.BigDecimal(value);
    }
  }

  /** A binary value. May be empty outside of key attributes. */
  record B(Bytes value) implements AttributeValue {
    public B {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String type() {
      return "B";
    }
  }

  record Bool(boolean value) implements AttributeValue {
    @Override
    public String type() {
      return "BOOL";
    }
  }

  /** The NULL type. Its only value is {@code true}. */
  record Null() implements AttributeValue {
    @Override
    public String type() {
      return "NULL";
    }
  }

  /** A map of attribute names to values, in insertion order. */
  record M(Map<String, AttributeValue> value) implements AttributeValue {
    public M {
      value = Collections.unmodifiableMap(new java.util.LinkedHashMap<>(value));
    }

    @Override
    public String type() {
      return "M";
    }
  }

  /** A list of values. */
  record L(List<AttributeValue> value) implements AttributeValue {
    public L {
      value = List.copyOf(value);
    }

    @Override
    public String type() {
      return "L";
    }
  }

  /** A string set: non-empty, no duplicates, insertion order kept. */
  record SS(Set<String> value) implements AttributeValue {
    public SS {
      value = Collections.unmodifiableSet(new LinkedHashSet<>(value));
    }

    @Override
    public String type() {
      return "SS";
    }
  }

  /** A number set: normalised numbers, non-empty, no duplicates. */
  record NS(Set<String> value) implements AttributeValue {
    public NS {
      value = Collections.unmodifiableSet(new LinkedHashSet<>(value));
    }

    @Override
    public String type() {
      return "NS";
    }
  }

  /** A binary set: non-empty, no duplicates. */
  record BS(Set<Bytes> value) implements AttributeValue {
    public BS {
      value = Collections.unmodifiableSet(new LinkedHashSet<>(value));
    }

    @Override
    public String type() {
      return "BS";
    }
  }

  /**
   * A key value as a person reads it: a string itself, a number's digits, a binary in base64
   * (error messages, the partition report, policies' leading keys); other types as their record.
   */
  static String keyText(AttributeValue value) {
    if (value instanceof S s) {
      return s.value();
    }
    if (value instanceof N n) {
      return n.value();
    }
    if (value instanceof B b) {
      return b.value().toBase64();
    }
    return String.valueOf(value);
  }

  // ---- factories that validate user input -------------------------------------------------

  static S s(String value) {
    return new S(value);
  }

  /** A number from its text; normalises it or throws {@link InvalidValueException}. */
  static N n(String text) {
    return new N(Numbers.normalize(text));
  }

  static B b(byte[] value) {
    return new B(Bytes.of(value));
  }

  static Bool bool(boolean value) {
    return new Bool(value);
  }

  Null NULL = new Null();

  static M m(Map<String, AttributeValue> value) {
    return new M(value);
  }

  static L l(List<AttributeValue> value) {
    return new L(value);
  }

  /** A string set; throws {@link InvalidValueException} when empty or when it holds duplicates. */
  static SS ss(java.util.Collection<String> values) {
    return new SS(Sets.checked(values, "SS"));
  }

  /** A number set; normalises every member, then rejects empty sets and duplicates. */
  static NS ns(java.util.Collection<String> values) {
    List<String> normalized = values.stream().map(Numbers::normalize).toList();
    return new NS(Sets.checked(normalized, "NS"));
  }

  /** A binary set; throws {@link InvalidValueException} when empty or when it holds duplicates. */
  static BS bs(java.util.Collection<Bytes> values) {
    return new BS(Sets.checked(values, "BS"));
  }
}
