package io.stator.capacity;

import io.stator.value.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One partition's hot-key sketch, kept as one {@link HotKeys} per lane of calling threads and
 * merged when read (for a report, or to find a split point for heat).
 *
 * <p>Why lanes: the sketch is fed on every item request, and the server's event loops (one per
 * core) all charge the same benchmark-like table. With one sketch per partition, each request
 * rewrote counters that the other core had just written, so the sketch's few cache lines moved
 * between cores on nearly every request: in the GetItem profile it cost about 0.9 µs of a
 * request's ~20 µs, against ~30 ns for the same work on one thread. Each thread now writes the
 * sketch of its own lane, which stays in its core's cache. Everything still runs under the
 * table's lock ({@link TableThroughput}); lanes are about memory, not about locking.
 *
 * <p>Lanes are handed to threads by {@link Lanes}. What a report shows stays exact where it
 * was exact: requests from one thread fill one lane, and a single lane reads back exactly as the
 * one sketch did. Several lanes merge as mergeable Space-Saving summaries do (Agarwal et al.,
 * "Mergeable Summaries", 2012): a key's weight is the sum of its weights in the lanes that track
 * it plus, for each full lane that does not, that lane's smallest count (which bounds what the
 * key could have had there); the same amounts are added to its possible overestimate ({@code
 * error}); the read and write units and throttles are the sums of what the lanes counted for it.
 * The merged sketch keeps the {@code size} heaviest keys. A key heavier than total/size in every
 * lane is tracked in every lane, so the merge adds no error of its own to it; in general a key's
 * weight stays an upper bound of its true weight, overestimated by at most the sum of the lanes'
 * bounds, and the {@code error} each key reports says by how much at most.
 */
final class HotKeyLanes {
  private final int size;
  /** By lane; a lane's sketch is created when a thread of that lane first counts here. */
  private final HotKeys[] lanes = new HotKeys[Lanes.COUNT];

  HotKeyLanes(int size) {
    this.size = size;
  }

  /** The sketch of {@code lane} (tests feed lanes directly). */
  HotKeys lane(int lane) {
    HotKeys k = lanes[lane];
    if (k == null) {
      k = lanes[lane] = new HotKeys(size);
    }
    return k;
  }

  /** Adds the units of one request on {@code key} to the calling thread's lane. */
  HotKeys.Counter add(byte[] key, long hash, double readUnits, double writeUnits) {
    return add(Lanes.current(), key, hash, readUnits, writeUnits);
  }

  /** Adds the units of one request on {@code key} to {@code lane}. */
  HotKeys.Counter add(int lane, byte[] key, long hash, double readUnits, double writeUnits) {
    return lane(lane).add(key, hash, readUnits, writeUnits);
  }

  /** Tracks {@code c} as it is, in the calling thread's lane (a counter moved by a split). */
  void put(HotKeys.Counter c) {
    lane(Lanes.current()).put(c);
  }

  /** The tracked keys, merged across lanes, heaviest first (at most {@code size}). */
  List<HotKeys.Counter> top() {
    HotKeys only = null;
    int used = 0;
    for (HotKeys k : lanes) {
      if (k != null && k.tracked() > 0) {
        only = k;
        used++;
      }
    }
    if (used == 0) {
      return new ArrayList<>();
    }
    if (used == 1) {
      return only.top();
    }
    return merge();
  }

  private List<HotKeys.Counter> merge() {
    // Per key: weight, error, read units, write units, throttles, summed over the lanes.
    Map<Bytes, double[]> sums = new HashMap<>();
    Map<Bytes, HotKeys.Counter> any = new HashMap<>();
    for (HotKeys k : lanes) {
      if (k == null) {
        continue;
      }
      for (HotKeys.Counter c : k.top()) {
        Bytes key = Bytes.wrap(c.key);
        double[] s = sums.computeIfAbsent(key, x -> new double[5]);
        s[0] += c.weight;
        s[1] += c.error;
        s[2] += c.readUnits;
        s[3] += c.writeUnits;
        s[4] += c.throttled;
        any.putIfAbsent(key, c);
      }
    }
    // A full lane that does not track a key may have counted it up to its smallest count.
    for (HotKeys k : lanes) {
      if (k == null || k.tracked() < size) {
        continue;
      }
      double smallest = k.smallest();
      for (Map.Entry<Bytes, double[]> e : sums.entrySet()) {
        HotKeys.Counter c = any.get(e.getKey());
        if (!k.tracks(c.key, c.hash)) {
          e.getValue()[0] += smallest;
          e.getValue()[1] += smallest;
        }
      }
    }
    List<HotKeys.Counter> out = new ArrayList<>(sums.size());
    for (Map.Entry<Bytes, double[]> e : sums.entrySet()) {
      double[] s = e.getValue();
      HotKeys.Counter first = any.get(e.getKey());
      HotKeys.Counter c = new HotKeys.Counter(first.key, first.hash, s[1]);
      c.weight = s[0];
      c.readUnits = s[2];
      c.writeUnits = s[3];
      c.throttled = (long) s[4];
      out.add(c);
    }
    out.sort((a, b) -> Double.compare(b.weight, a.weight));
    return out.size() > size ? new ArrayList<>(out.subList(0, size)) : out;
  }
}
