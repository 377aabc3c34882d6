package io.stator.storage;

import java.util.Arrays;

/** One end of a sort-key range. */
public record Bound(byte[] sort, boolean inclusive) {
  public static Bound inclusive(byte[] sort) {
    return new Bound(sort, true);
  }

  public static Bound exclusive(byte[] sort) {
    return new Bound(sort, false);
  }

  /**
   * The exclusive bound past every sort key that starts with {@code prefix} (the end of a
   * begins_with range): the prefix without its trailing 0xFF bytes, its last byte incremented.
   * Null when no byte string follows them all (an empty or all-0xFF prefix), i.e. no bound.
   */
  public static Bound pastPrefix(byte[] prefix) {
    int end = prefix.length;
    while (end > 0 && prefix[end - 1] == (byte) 0xFF) {
      end--;
    }
    if (end == 0) {
      return null;
    }
    byte[] next = Arrays.copyOf(prefix, end);
    next[end - 1]++;
    return exclusive(next);
  }

  /** True when {@code sort} lies between {@code lower} and {@code upper} (null: unbounded). */
  public static boolean within(byte[] sort, Bound lower, Bound upper) {
    if (lower != null) {
      int c = Arrays.compareUnsigned(sort, lower.sort);
      if (c < 0 || (c == 0 && !lower.inclusive)) {
        return false;
      }
    }
    if (upper != null) {
      int c = Arrays.compareUnsigned(sort, upper.sort);
      if (c > 0 || (c == 0 && !upper.inclusive)) {
        return false;
      }
    }
    return true;
  }
}
