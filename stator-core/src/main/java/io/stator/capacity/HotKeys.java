package io.stator.capacity;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The heaviest partition keys of one partition by capacity units, in bounded memory: the
 * Space-Saving sketch (Metwally, Agrawal, El Abbadi, 2005). It keeps at most {@code size}
 * counters; a key not tracked when all are taken replaces the smallest counter and inherits its
 * count as its possible overestimate ({@code error}). Every key whose true weight exceeds
 * total/size is guaranteed to be tracked, which is exactly the "hot key" question.
 *
 * <p>Keys are the encoded partition keys (hash prefix included), so the hash that places a key
 * in a partition, and the split point between hot keys, come from the key itself.
 */
final class HotKeys {
  private final int size;
  private final Map<ByteBuffer, Counter> counters = new HashMap<>();

  HotKeys(int size) {
    this.size = size;
  }

  /** Adds the units of one request on {@code key}; returns its counter. */
  Counter add(ByteBuffer key, long hash, double readUnits, double writeUnits) {
    Counter c = counters.get(key);
    if (c == null) {
      if (counters.size() < size) {
        c = new Counter(key, hash, 0);
      } else {
        Counter smallest = null;
        for (Counter candidate : counters.values()) {
          if (smallest == null || candidate.weight < smallest.weight) {
            smallest = candidate;
          }
        }
        counters.remove(smallest.key);
        c = new Counter(key, hash, smallest.weight);
      }
      counters.put(key, c);
    }
    c.weight += readUnits + writeUnits;
    c.readUnits += readUnits;
    c.writeUnits += writeUnits;
    return c;
  }

  void put(Counter c) {
    counters.put(c.key, c);
  }

  /** The tracked keys, heaviest first. */
  List<Counter> top() {
    List<Counter> out = new ArrayList<>(counters.values());
    out.sort((a, b) -> Double.compare(b.weight, a.weight));
    return out;
  }

  /** One tracked key. */
  static final class Counter {
    final ByteBuffer key;
    final long hash;
    /** Units counted for this key, including up to {@code error} units of other keys. */
    double weight;
    final double error;
    double readUnits;
    double writeUnits;
    long throttled;

    Counter(ByteBuffer key, long hash, double error) {
      this.key = key;
      this.hash = hash;
      this.weight = error;
      this.error = error;
    }
  }
}
