package io.stator.capacity;

/** What the engine does when the partition model says DynamoDB would throttle a request. */
public enum CapacityMode {
  /** Serve it anyway; count the would-be throttle and report it. The default. */
  OBSERVE,
  /** Refuse it with ProvisionedThroughputExceededException, as DynamoDB does. */
  ENFORCE;

  /** {@code observe} or {@code enforce}, any case. */
  public static CapacityMode parse(String text) {
    return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
  }
}
