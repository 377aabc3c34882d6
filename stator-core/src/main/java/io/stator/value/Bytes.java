package io.stator.value;

import java.util.Arrays;
import java.util.Base64;

/** An immutable byte string, ordered by unsigned bytes as DynamoDB orders binary values. */
public final class Bytes implements Comparable<Bytes> {
  public static final Bytes EMPTY = new Bytes(new byte[0]);

  private final byte[] bytes;

  private Bytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Copies the array. */
  public static Bytes of(byte[] bytes) {
    return new Bytes(bytes.clone());
  }

  /** Takes ownership of the array: the caller must never change it again. */
  public static Bytes wrap(byte[] bytes) {
    return new Bytes(bytes);
  }

  public static Bytes fromBase64(String base64) {
    return new Bytes(Base64.getDecoder().decode(base64));
  }

  public int length() {
    return bytes.length;
  }

  public byte get(int index) {
    return bytes[index];
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  /** The bytes themselves, without a copy; callers must not change them. */
  public byte[] unsafeArray() {
    return bytes;
  }

  public String toBase64() {
    return Base64.getEncoder().encodeToString(bytes);
  }

  @Override
  public int compareTo(Bytes other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return toBase64();
  }
}
