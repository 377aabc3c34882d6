package io.stator.capacity;

/**
 * Capacity units that accumulate at {@code rate} per second up to {@code capacity}. A request
 * is admitted when the bucket holds its units, or when the bucket is full (so a request larger
 * than the whole bucket, like a 1 MB strongly consistent Scan page on a tiny table, is not
 * starved forever: it runs once the bucket has filled and leaves it in debt).
 */
final class TokenBucket {
  private static final double EPSILON = 1e-9;

  private double rate;
  private double capacity;
  private double tokens;
  private long lastMillis;

  TokenBucket(double rate, double capacity, long nowMillis) {
    this.rate = rate;
    this.capacity = capacity;
    this.tokens = capacity;
    this.lastMillis = nowMillis;
  }

  void refill(long nowMillis) {
    if (nowMillis > lastMillis) {
      tokens = Math.min(capacity, tokens + rate * (nowMillis - lastMillis) / 1000.0);
      lastMillis = nowMillis;
    }
  }

  boolean admits(double units) {
    return tokens + EPSILON >= units || tokens + EPSILON >= capacity;
  }

  void take(double units) {
    tokens -= units;
  }

  void resize(double newRate, double newCapacity) {
    rate = newRate;
    capacity = newCapacity;
    tokens = Math.min(tokens, capacity);
  }

  double tokens() {
    return tokens;
  }

  double rate() {
    return rate;
  }
}
