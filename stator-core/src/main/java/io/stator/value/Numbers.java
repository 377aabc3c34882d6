package io.stator.value;

import java.math.BigDecimal;

/**
 * DynamoDB's number rules.
 *
 * <p>A number has at most 38 significant digits and a magnitude between 1E-130 and
 * 9.9999999999999999999999999999999999999E+125 (or is zero). DynamoDB compares numbers by value,
 * so "1.50", "1.5" and "15E-1" are one number; Stator stores and returns the plain, normalised
 * text ("1.5"), and "-0" becomes "0".
 */
public final class Numbers {
  private static final BigDecimal MAX = new BigDecimal("9.9999999999999999999999999999999999999E+125");
  private static final BigDecimal MIN = new BigDecimal("1E-130");

  private Numbers() {}

  /** Normalises {@code text} or throws an {@link InvalidValueException} with DynamoDB's message. */
  public static String normalize(String text) {
    return toText(check(parse(text)));
  }

  /** Parses number text as DynamoDB accepts it, without range checks. */
  public static BigDecimal parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new InvalidValueException("The parameter cannot be converted to a numeric value");
    }
    if (text.length() > 1000 || !plausible(text)) {
      throw notANumber(text);
    }
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException | ArithmeticException e) {
      throw notANumber(text);
    }
  }

  /** Checks precision and magnitude; returns the value with trailing zeros stripped. */
  public static BigDecimal check(BigDecimal value) {
    if (value.signum() == 0) {
      return BigDecimal.ZERO;
    }
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.precision() > 38) {
      throw new InvalidValueException(
          "Attempting to store more than 38 significant digits in a Number");
    }
    BigDecimal magnitude = stripped.abs();
    if (magnitude.compareTo(MAX) > 0) {
      throw overflow();
    }
    if (magnitude.compareTo(MIN) < 0) {
      throw new InvalidValueException(
          "Number underflow. Attempting to store a number with magnitude smaller than supported range");
    }
    return stripped;
  }

  /** DynamoDB's error for a number too large, and for a sum or difference too precise. */
  public static InvalidValueException overflow() {
    return new InvalidValueException(
        "Number overflow. Attempting to store a number with magnitude larger than supported range");
  }

  /** The canonical text of a checked number. */
  public static String toText(BigDecimal checked) {
    return checked.signum() == 0 ? "0" : checked.toPlainString();
  }

  // BigDecimal accepts a few spellings DynamoDB refuses (none known yet beyond whitespace, which
  // BigDecimal rejects too); keep the gate cheap: digits, sign, point and exponent only.
  private static boolean plausible(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
        return false;
      }
    }
    return true;
  }

  private static InvalidValueException notANumber(String text) {
    String shown = text.length() > 64 ? text.substring(0, 64) + "..." : text;
    return new InvalidValueException(
        "The parameter cannot be converted to a numeric value: " + shown);
  }
}
