package io.stator.capacity;

/**
 * How a read is served, which sets its price: an eventually consistent read costs half a read
 * capacity unit per 4 KB, a strongly consistent read one, a transactional read two.
 */
public enum ReadConsistency {
  EVENTUAL(0.5),
  STRONG(1),
  TRANSACTIONAL(2);

  private final double unitsPerBlock;

  ReadConsistency(double unitsPerBlock) {
    this.unitsPerBlock = unitsPerBlock;
  }

  /** EVENTUAL unless ConsistentRead is true, as DynamoDB defaults. */
  public static ReadConsistency of(Boolean consistentRead) {
    return Boolean.TRUE.equals(consistentRead) ? STRONG : EVENTUAL;
  }

  double unitsPerBlock() {
    return unitsPerBlock;
  }
}
