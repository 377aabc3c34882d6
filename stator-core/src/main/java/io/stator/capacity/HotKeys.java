package io.stator.capacity;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
  // A plain array searched by hash: with a few dozen counters one pass that compares longs finds
  // the key, or the smallest counter to replace, with no hashing of the key's bytes and no map
  // entries to allocate or iterate (this runs on every item request).
  private Counter[] counters;
  private int count;

  HotKeys(int size) {
    this.size = size;
    this.counters = new Counter[Math.max(1, size)];
  }

  /** Adds the units of one request on {@code key}; returns its counter. */
  Counter add(ByteBuffer key, long hash, double readUnits, double writeUnits) {
    Counter c = null;
    int smallest = -1;
    for (int i = 0; i < count; i++) {
      Counter candidate = counters[i];
      if (candidate.hash == hash && candidate.key.equals(key)) {
        c = candidate;
        break;
      }
      if (smallest < 0 || candidate.weight < counters[smallest].weight) {
        smallest = i;
      }
    }
    if (c == null) {
      if (count < size) {
        c = new Counter(key, hash, 0);
        append(c);
      } else {
        c = new Counter(key, hash, counters[smallest].weight);
        counters[smallest] = c;
      }
    }
    c.weight += readUnits + writeUnits;
    c.readUnits += readUnits;
    c.writeUnits += writeUnits;
    return c;
  }

  /** Tracks {@code c} as it is (a counter moved from a partition that split). */
  void put(Counter c) {
    for (int i = 0; i < count; i++) {
      if (counters[i].hash == c.hash && counters[i].key.equals(c.key)) {
        counters[i] = c;
        return;
      }
    }
    append(c);
  }

  private void append(Counter c) {
    if (count == counters.length) {
      counters = Arrays.copyOf(counters, count * 2);
    }
    counters[count++] = c;
  }

  /** The tracked keys, heaviest first. */
  List<Counter> top() {
    List<Counter> out = new ArrayList<>(Arrays.asList(counters).subList(0, count));
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
