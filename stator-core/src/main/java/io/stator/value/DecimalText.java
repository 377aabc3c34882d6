package io.stator.value;

/**
 * The significant digits and decimal exponent of a number's text, read without BigDecimal: the
 * number is {@code 0.d1d2...dn x 10^exponent} with {@code d1 != 0} and {@code dn != 0} (zero has
 * no digits). The item size and the key codec need these for every number they see, and
 * BigDecimal's parsing, stripping and precision cost several times the scan.
 *
 * @param digits the significant digits, 0 to 9 each; empty for zero
 */
public record DecimalText(boolean negative, byte[] digits, long exponent) {
  /**
   * Reads {@code [+-]digits[.digits][(e|E)[+-]digits]} (the forms DynamoDB and BigDecimal
   * accept with at most 10 exponent digits); returns null for any other text, for which the
   * caller falls back to BigDecimal (and its NumberFormatException).
   */
  public static DecimalText parse(String text) {
    int n = text.length();
    int i = 0;
    boolean negative = false;
    if (i < n && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
      negative = text.charAt(i) == '-';
      i++;
    }
    int mantissaDigits = 0; // digits of the mantissa, the point not counted
    int pointAt = -1; // digits before the point, when there is one
    int first = -1; // positions in the text of the first and last non-zero digits
    int last = -1;
    int firstIndex = -1; // index of the first non-zero digit among the mantissa digits
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        if (c != '0') {
          if (first < 0) {
            first = i;
            firstIndex = mantissaDigits;
          }
          last = i;
        }
        mantissaDigits++;
      } else if (c == '.' && pointAt < 0) {
        pointAt = mantissaDigits;
      } else {
        break;
      }
    }
    if (mantissaDigits == 0) {
      return null;
    }
    long exponent10 = 0;
    if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
      i++;
      boolean negativeExponent = false;
      if (i < n && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
        negativeExponent = text.charAt(i) == '-';
        i++;
      }
      int start = i;
      for (; i < n && i - start < 10 && text.charAt(i) >= '0' && text.charAt(i) <= '9'; i++) {
        exponent10 = exponent10 * 10 + (text.charAt(i) - '0');
      }
      if (i == start) {
        return null;
      }
      exponent10 = negativeExponent ? -exponent10 : exponent10;
    }
    if (i != n) {
      return null;
    }
    if (first < 0) {
      return new DecimalText(negative, new byte[0], 0);
    }
    byte[] digits = new byte[last - first + 1 - (pointAt >= 0 && hasPointBetween(text, first,
        last) ? 1 : 0)];
    int d = 0;
    for (int k = first; k <= last; k++) {
      char c = text.charAt(k);
      if (c != '.') {
        digits[d++] = (byte) (c - '0');
      }
    }
    long exponent = (pointAt < 0 ? mantissaDigits : pointAt) - firstIndex + exponent10;
    return new DecimalText(negative, digits, exponent);
  }

  private static boolean hasPointBetween(String text, int from, int to) {
    for (int k = from; k <= to; k++) {
      if (text.charAt(k) == '.') {
        return true;
      }
    }
    return false;
  }

  public boolean isZero() {
    return digits.length == 0;
  }
}
