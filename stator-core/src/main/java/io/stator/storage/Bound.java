package io.stator.storage;

/** One end of a sort-key range. */
public record Bound(byte[] sort, boolean inclusive) {
  public static Bound inclusive(byte[] sort) {
    return new Bound(sort, true);
  }

  public static Bound exclusive(byte[] sort) {
    return new Bound(sort, false);
  }
}
