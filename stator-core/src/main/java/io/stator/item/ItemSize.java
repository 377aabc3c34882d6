package io.stator.item;

import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import io.stator.value.DecimalText;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * DynamoDB's item size: the sum over attributes of the name's UTF-8 length and the value's size.
 * The same figure feeds the 400 KB item limit, capacity units and the 1 MB page limit.
 *
 * <p>Value sizes, as DynamoDB documents them: S is its UTF-8 length; B its length; N about one
 * byte per two significant digits plus one (see {@link #number}); BOOL and NULL one byte; a set
 * the sum of its members; M and L three bytes of overhead plus one per element plus the
 * elements (for M, each entry's name and value).
 */
public final class ItemSize {
  // The text of a number sized in place (see number(String)): longer than any plain number
  // DynamoDB accepts (38 significant digits, a sign, a point, an exponent); longer text is parsed.
  private static final int NUMBER_SCRATCH_BYTES = 64;
  private static final ThreadLocal<byte[]> NUMBER_SCRATCH =
      ThreadLocal.withInitial(() -> new byte[NUMBER_SCRATCH_BYTES]);

  /** DynamoDB's maximum item size: 400 KB. */
  public static final int MAX_ITEM_SIZE = 400 * 1024;

  private ItemSize() {}

  public static long of(Map<String, AttributeValue> item) {
    long size = 0;
    for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
      size += utf8Length(e.getKey()) + of(e.getValue());
    }
    return size;
  }

  public static long of(AttributeValue value) {
    if (value instanceof AttributeValue.S s) {
      return s.hasUtf8() ? s.utf8Length() : utf8Length(s.value());
    } else if (value instanceof AttributeValue.N n) {
      return number(n.value());
    } else if (value instanceof AttributeValue.B b) {
      return b.value().length();
    } else if (value instanceof AttributeValue.Bool || value instanceof AttributeValue.Null) {
      return 1;
    } else if (value instanceof AttributeValue.M m) {
      return 3 + m.value().size() + of(m.value());
    } else if (value instanceof AttributeValue.L l) {
      long size = 3 + l.value().size();
      for (AttributeValue v : l.value()) {
        size += of(v);
      }
      return size;
    } else if (value instanceof AttributeValue.SS ss) {
      long size = 0;
      for (String s : ss.value()) {
        size += utf8Length(s);
      }
      return size;
    } else if (value instanceof AttributeValue.NS ns) {
      long size = 0;
      for (String n : ns.value()) {
        size += number(n);
      }
      return size;
    } else if (value instanceof AttributeValue.BS bs) {
      long size = 0;
      for (Bytes b : bs.value()) {
        size += b.length();
      }
      return size;
    }
    throw new IllegalArgumentException("unknown value " + value);
  }

  /**
   * The size of a number: DynamoDB stores the significant digits in base 100 (two digits per
   * byte) aligned on the decimal exponent, plus one byte of exponent and one more for a negative
   * sign. Zero takes one byte. So 1 and 10 take 2 bytes, 123 takes 3, -1 takes 3.
   *
   * <p>Read straight from the text (this runs for every number of every item read or written);
   * text that is not a plain {@code [+-]digits[.digits][e[+-]digits]} goes through BigDecimal,
   * which gives the same figure or the same NumberFormatException.
   */
  static long number(String text) {
    int n = text.length();
    if (n > NUMBER_SCRATCH_BYTES) {
      return numberParsed(text);
    }
    // Copied into a buffer kept per thread and sized in place, as a stored number is: no
    // DecimalText and no digit array per number of every item written.
    byte[] scratch = NUMBER_SCRATCH.get();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        return numberParsed(text);
      }
      scratch[i] = (byte) c;
    }
    return number(scratch, 0, n);
  }

  private static long numberParsed(String text) {
    DecimalText decimal = DecimalText.parse(text);
    if (decimal == null) {
      return numberThroughBigDecimal(text);
    }
    if (decimal.isZero()) {
      return 1;
    }
    // Exponent of the leading digit: value = d.ddd x 10^e.
    return size(decimal.digits().length, decimal.exponent() - 1, decimal.negative());
  }

  /**
   * {@link #number(String)} of the text in {@code bytes[offset, offset + length)}, read in place:
   * the same scan as {@link DecimalText#parse}, keeping only what the size needs (the count of
   * significant digits, the exponent, the sign), so sizing a stored item allocates nothing per
   * number. Text outside the plain forms goes the String way, with its errors.
   */
  static long number(byte[] bytes, int offset, int length) {
    int n = offset + length;
    int i = offset;
    boolean negative = false;
    if (i < n && (bytes[i] == '-' || bytes[i] == '+')) {
      negative = bytes[i] == '-';
      i++;
    }
    int mantissaDigits = 0; // digits of the mantissa, the point not counted
    int pointAt = -1; // digits before the point, when there is one
    int firstIndex = -1; // indexes among the mantissa digits of the first and last non-zero one
    int lastIndex = -1;
    for (; i < n; i++) {
      byte c = bytes[i];
      if (c >= '0' && c <= '9') {
        if (c != '0') {
          if (firstIndex < 0) {
            firstIndex = mantissaDigits;
          }
          lastIndex = mantissaDigits;
        }
        mantissaDigits++;
      } else if (c == '.' && pointAt < 0) {
        pointAt = mantissaDigits;
      } else {
        break;
      }
    }
    if (mantissaDigits == 0) {
      return numberParsed(new String(bytes, offset, length, StandardCharsets.UTF_8));
    }
    long exponent10 = 0;
    if (i < n && (bytes[i] == 'e' || bytes[i] == 'E')) {
      i++;
      boolean negativeExponent = false;
      if (i < n && (bytes[i] == '-' || bytes[i] == '+')) {
        negativeExponent = bytes[i] == '-';
        i++;
      }
      int start = i;
      for (; i < n && i - start < 10 && bytes[i] >= '0' && bytes[i] <= '9'; i++) {
        exponent10 = exponent10 * 10 + (bytes[i] - '0');
      }
      if (i == start) {
        return numberParsed(new String(bytes, offset, length, StandardCharsets.UTF_8));
      }
      exponent10 = negativeExponent ? -exponent10 : exponent10;
    }
    if (i != n) {
      return numberParsed(new String(bytes, offset, length, StandardCharsets.UTF_8));
    }
    if (firstIndex < 0) {
      return 1; // zero
    }
    long exponent = (pointAt < 0 ? mantissaDigits : pointAt) - firstIndex + exponent10;
    return size(lastIndex - firstIndex + 1, exponent - 1, negative);
  }

  private static long numberThroughBigDecimal(String text) {
    BigDecimal value = new BigDecimal(text);
    if (value.signum() == 0) {
      return 1;
    }
    BigDecimal stripped = value.stripTrailingZeros();
    int digits = stripped.precision();
    return size(digits, (long) digits - stripped.scale() - 1, value.signum() < 0);
  }

  private static long size(int digits, long exponent, boolean negative) {
    // Digits fill base-100 pairs aligned on even exponents: an even digit count whose leading
    // digit sits on an even exponent straddles one more pair than digits/2.
    int pairs = (digits + 1) / 2 + (digits % 2 == 0 && Math.floorMod(exponent, 2) == 0 ? 1 : 0);
    return 1 + pairs + (negative ? 1 : 0);
  }

  private static int utf8Length(String s) {
    int n = s.length();
    int len = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          len += 1;
        } else if (Character.isHighSurrogate(c) && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          len += 2; // 4 bytes for the pair of 2 chars
          i++;
        } else {
          len += 2;
        }
      }
    }
    return len;
  }

  /** The UTF-8 length of a string, without encoding it. */
  public static int utf8(String s) {
    return utf8Length(s);
  }
}
