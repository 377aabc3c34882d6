package io.stator.key;

import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import io.stator.value.DecimalText;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The order-preserving key codec: maps key attribute values (S, N, B) to bytes whose unsigned
 * lexicographic order is DynamoDB's order, and back.
 *
 * <ul>
 *   <li>S: the UTF-8 bytes (DynamoDB orders strings by UTF-8 bytes, so {@code ORDER#10} sorts
 *       before {@code ORDER#2}).
 *   <li>B: the bytes themselves (DynamoDB compares binaries as unsigned bytes).
 *   <li>N: a sign byte, then a one-byte decimal exponent, then the significant digits two per
 *       byte, then a terminator; for negatives the exponent and digits are inverted so that a
 *       larger magnitude sorts first. See {@link #number}.
 * </ul>
 *
 * <p>Partition bytes are {@code hash(value) (8 bytes) | escaped value}. The hash spreads partition
 * keys over the key space as DynamoDB's partitioning does, makes Scan walk hash order and makes
 * parallel Scan segments contiguous ranges of the hash space. The value part is self-delimiting
 * (zero bytes escaped, then a {@code 00 00} terminator; numbers end in their own terminator), so
 * a partition key is never a prefix of another and a storage may concatenate partition and sort
 * bytes. Sort bytes are the plain encoding: they are last in a key, and plain bytes make a
 * {@code begins_with} prefix a contiguous range.
 */
public final class KeyCodec {
  /** The length of the hash prefix of partition bytes. */
  public static final int HASH_LENGTH = 8;

  private static final byte NEGATIVE = 0x01;
  private static final byte ZERO = 0x02;
  private static final byte POSITIVE = 0x03;
  // The decimal exponent of a normalised number 0.d1d2... x 10^e lies in [-129, 126] (1E-130 is
  // 0.1E-129; 9.99..E+125 is 0.999..E+126), so e + EXPONENT_BIAS fits one unsigned byte.
  private static final int EXPONENT_BIAS = 129;

  private KeyCodec() {}

  // ---- whole keys --------------------------------------------------------------------------

  /** The partition bytes of a partition key value: 8-byte hash, then the escaped value. */
  public static byte[] partition(AttributeValue value) {
    byte[] escaped = escaped(value);
    long hash = hash(escaped);
    byte[] out = new byte[HASH_LENGTH + escaped.length];
    for (int i = 0; i < HASH_LENGTH; i++) {
      out[i] = (byte) (hash >>> (56 - 8 * i));
    }
    System.arraycopy(escaped, 0, out, HASH_LENGTH, escaped.length);
    return out;
  }

  /** The sort bytes of a sort key value. */
  public static byte[] sort(AttributeValue value) {
    if (value instanceof AttributeValue.S s) {
      return s.value().getBytes(StandardCharsets.UTF_8);
    }
    if (value instanceof AttributeValue.B b) {
      return b.value().toByteArray();
    }
    if (value instanceof AttributeValue.N n) {
      return number(n.value());
    }
    throw new IllegalArgumentException("not a key type: " + value.type());
  }

  /** The partition key value back from partition bytes, given the key's type (S, N or B). */
  public static AttributeValue decodePartition(byte[] partition, String type) {
    byte[] value = Arrays.copyOfRange(partition, HASH_LENGTH, partition.length);
    if (type.equals("N")) {
      return decodeSort(value, type);
    }
    return decodeSort(unescape(value), type);
  }

  /** The sort key value back from sort bytes, given the key's type (S, N or B). */
  public static AttributeValue decodeSort(byte[] sort, String type) {
    return switch (type) {
      case "S" -> new AttributeValue.S(new String(sort, StandardCharsets.UTF_8));
      case "B" -> new AttributeValue.B(Bytes.of(sort));
      case "N" -> new AttributeValue.N(decodeNumber(sort));
      default -> throw new IllegalArgumentException("not a key type: " + type);
    };
  }

  /** The first {@link #HASH_LENGTH} bytes of partition bytes, as an unsigned 64-bit value. */
  public static long hashOf(byte[] partition) {
    long h = 0;
    for (int i = 0; i < HASH_LENGTH; i++) {
      h = (h << 8) | (partition[i] & 0xFF);
    }
    return h;
  }

  // ---- strings and binaries in partition keys ------------------------------------------------

  private static byte[] escaped(AttributeValue value) {
    if (value instanceof AttributeValue.N n) {
      return number(n.value()); // self-delimiting already
    }
    byte[] raw = sort(value);
    // 00 -> 00 FF keeps order and leaves 00 00 free as the terminator. Built in one exact array:
    // every key of every item request passes here.
    int zeros = 0;
    for (byte b : raw) {
      if (b == 0) {
        zeros++;
      }
    }
    byte[] out = new byte[raw.length + zeros + 2];
    int n = 0;
    for (byte b : raw) {
      out[n++] = b;
      if (b == 0) {
        out[n++] = (byte) 0xFF;
      }
    }
    // the last two bytes stay 0: the terminator
    return out;
  }

  private static byte[] unescape(byte[] escaped) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(escaped.length);
    for (int i = 0; i < escaped.length; i++) {
      byte b = escaped[i];
      if (b == 0) {
        if (i + 1 < escaped.length && escaped[i + 1] == (byte) 0xFF) {
          out.write(0);
          i++;
          continue;
        }
        break; // terminator
      }
      out.write(b);
    }
    return out.toByteArray();
  }

  // A 64-bit FNV-1a followed by a MurmurHash3 finaliser: cheap, stable across releases and
  // platforms (it is persisted in every key), and well spread even for sequential keys.
  static long hash(byte[] bytes) {
    long h = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      h ^= b & 0xFF;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  // ---- numbers --------------------------------------------------------------------------------

  /**
   * Encodes a number so that unsigned byte order is numeric order. The number is written as
   * {@code 0.d1d2...dn x 10^e} with {@code d1 != 0} and no trailing zero digit: a sign byte
   * (negative < zero < positive), the exponent {@code e + 129} in one byte, the digits two per
   * byte as {@code 1 + 10*hi + lo} (1..100; an odd count is padded with a 0 digit, which is
   * harmless because the value has no trailing zeros), and a 0 terminator so that a shorter
   * mantissa sorts before a longer one it prefixes. For negatives the exponent, digit bytes and
   * terminator are inverted, so larger magnitudes sort first.
   */
  static byte[] number(BigDecimal value) {
    if (value.signum() == 0) {
      return new byte[] {ZERO};
    }
    BigDecimal stripped = value.stripTrailingZeros();
    String text = stripped.unscaledValue().abs().toString();
    byte[] digits = new byte[text.length()];
    for (int i = 0; i < digits.length; i++) {
      digits[i] = (byte) (text.charAt(i) - '0');
    }
    int exponent = digits.length - stripped.scale(); // value = 0.digits x 10^exponent
    int biased = exponent + EXPONENT_BIAS;
    if (biased < 0 || biased > 255) {
      throw new IllegalArgumentException("number out of DynamoDB's range: " + value);
    }
    return number(value.signum() < 0, digits, biased);
  }

  /**
   * The same encoding from a number's text, read without BigDecimal (every key carries one when
   * the key is a number); unusual text and numbers out of range go through BigDecimal, which
   * gives the same bytes or the same exception.
   */
  static byte[] number(String text) {
    DecimalText decimal = DecimalText.parse(text);
    if (decimal == null) {
      return number(new BigDecimal(text));
    }
    if (decimal.isZero()) {
      return new byte[] {ZERO};
    }
    long biased = decimal.exponent() + EXPONENT_BIAS;
    if (biased < 0 || biased > 255) {
      return number(new BigDecimal(text));
    }
    return number(decimal.negative(), decimal.digits(), (int) biased);
  }

  private static byte[] number(boolean negative, byte[] digits, int biased) {
    int pairs = (digits.length + 1) / 2;
    byte[] out = new byte[2 + pairs + 1];
    out[0] = negative ? NEGATIVE : POSITIVE;
    out[1] = (byte) biased;
    for (int i = 0; i < pairs; i++) {
      int hi = digits[2 * i];
      int lo = 2 * i + 1 < digits.length ? digits[2 * i + 1] : 0;
      out[2 + i] = (byte) (1 + 10 * hi + lo);
    }
    out[out.length - 1] = 0;
    if (negative) {
      for (int i = 1; i < out.length; i++) {
        out[i] = (byte) ~out[i];
      }
    }
    return out;
  }

  static String decodeNumber(byte[] bytes) {
    if (bytes[0] == ZERO) {
      return "0";
    }
    boolean negative = bytes[0] == NEGATIVE;
    int mask = negative ? 0xFF : 0;
    int exponent = ((bytes[1] ^ mask) & 0xFF) - EXPONENT_BIAS;
    StringBuilder digits = new StringBuilder();
    for (int i = 2; i < bytes.length; i++) {
      int b = (bytes[i] ^ mask) & 0xFF;
      if (b == 0) {
        break;
      }
      int pair = b - 1;
      digits.append((char) ('0' + pair / 10)).append((char) ('0' + pair % 10));
    }
    BigDecimal unscaled = new BigDecimal(new BigInteger(digits.toString()));
    BigDecimal value = unscaled.scaleByPowerOfTen(exponent - digits.length());
    if (negative) {
      value = value.negate();
    }
    return io.stator.value.Numbers.toText(value.stripTrailingZeros());
  }
}
