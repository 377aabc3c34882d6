package io.stator.capacity;

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
 *
 * <p>A partition keeps one sketch per lane of calling threads and merges them when read (see
 * {@link HotKeyLanes}): every request is counted, exactly as before when one thread sends them.
 */
final class HotKeys {
  private final int size;
  // Plain arrays searched by hash: with a few dozen counters one pass over contiguous longs and
  // doubles finds the key, or the smallest counter to replace, without hashing the key's bytes,
  // allocating map entries, or visiting each counter object (cache misses on a busy machine);
  // this runs on every item request. hashes[i] and weights[i] mirror counters[i].
  private Counter[] counters;
  private long[] hashes;
  private double[] weights;
  private int count;

  HotKeys(int size) {
    this.size = size;
    int capacity = Math.max(1, size);
    this.counters = new Counter[capacity];
    this.hashes = new long[capacity];
    this.weights = new double[capacity];
  }

  /** Adds the units of one request on {@code key}; returns its counter. */
  Counter add(byte[] key, long hash, double readUnits, double writeUnits) {
    int found = -1;
    int smallest = -1;
    for (int i = 0; i < count; i++) {
      if (hashes[i] == hash && Arrays.equals(counters[i].key, key)) {
        found = i;
        break;
      }
      if (smallest < 0 || weights[i] < weights[smallest]) {
        smallest = i;
      }
    }
    if (found < 0) {
      if (count < size) {
        found = append(new Counter(key, hash, 0));
      } else {
        found = smallest;
        set(found, new Counter(key, hash, weights[smallest]));
      }
    }
    Counter c = counters[found];
    c.weight += readUnits + writeUnits;
    c.readUnits += readUnits;
    c.writeUnits += writeUnits;
    weights[found] = c.weight;
    return c;
  }

  /** Tracks {@code c} as it is (a counter moved from a partition that split). */
  void put(Counter c) {
    for (int i = 0; i < count; i++) {
      if (hashes[i] == c.hash && Arrays.equals(counters[i].key, c.key)) {
        set(i, c);
        return;
      }
    }
    append(c);
  }

  private int append(Counter c) {
    if (count == counters.length) {
      counters = Arrays.copyOf(counters, count * 2);
      hashes = Arrays.copyOf(hashes, count * 2);
      weights = Arrays.copyOf(weights, count * 2);
    }
    set(count, c);
    return count++;
  }

  private void set(int i, Counter c) {
    counters[i] = c;
    hashes[i] = c.hash;
    weights[i] = c.weight;
  }

  /** How many keys are tracked. */
  int tracked() {
    return count;
  }

  /** The smallest count tracked (0 when none is). */
  double smallest() {
    double min = count == 0 ? 0 : weights[0];
    for (int i = 1; i < count; i++) {
      min = Math.min(min, weights[i]);
    }
    return min;
  }

  /** Whether {@code key} (whose hash is {@code hash}) is tracked. */
  boolean tracks(byte[] key, long hash) {
    for (int i = 0; i < count; i++) {
      if (hashes[i] == hash && Arrays.equals(counters[i].key, key)) {
        return true;
      }
    }
    return false;
  }

  /** The tracked keys, heaviest first. */
  List<Counter> top() {
    List<Counter> out = new ArrayList<>(Arrays.asList(counters).subList(0, count));
    out.sort((a, b) -> Double.compare(b.weight, a.weight));
    return out;
  }

  /** One tracked key. */
  static final class Counter {
    /** The encoded partition key (not copied: callers never change a key's bytes). */
    final byte[] key;
    final long hash;
    /** Units counted for this key, including up to {@code error} units of other keys. */
    double weight;
    final double error;
    double readUnits;
    double writeUnits;
    long throttled;

    Counter(byte[] key, long hash, double error) {
      this.key = key;
      this.hash = hash;
      this.weight = error;
      this.error = error;
    }
  }
}
