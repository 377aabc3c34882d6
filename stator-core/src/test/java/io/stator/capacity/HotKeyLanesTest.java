package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A partition's hot-key sketch kept per lane of threads, merged when read. */
class HotKeyLanesTest {
  private static byte[] key(String k) {
    return k.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void oneThreadReadsBackExactlyAsOneSketch() {
    HotKeyLanes lanes = new HotKeyLanes(4);
    HotKeys sketch = new HotKeys(4);
    for (int i = 0; i < 500; i++) {
      String k = i % 3 == 0 ? "hot" : "cold" + i;
      lanes.add(key(k), k.hashCode(), 1, i % 2);
      sketch.add(key(k), k.hashCode(), 1, i % 2);
    }
    assertThat(lanes.top()).extracting(c -> new String(c.key, StandardCharsets.UTF_8))
        .containsExactlyElementsOf(
            sketch.top().stream().map(c -> new String(c.key, StandardCharsets.UTF_8)).toList());
    assertThat(lanes.top()).extracting(c -> c.weight)
        .containsExactlyElementsOf(sketch.top().stream().map(c -> c.weight).toList());
    assertThat(lanes.top().get(0).readUnits).isEqualTo(167);
  }

  @Test
  void lanesThatAreNotFullMergeToExactSums() {
    HotKeyLanes lanes = new HotKeyLanes(4);
    lanes.lane(0).add(key("a"), 1, 3, 0);
    lanes.lane(0).add(key("b"), 2, 1, 0);
    lanes.lane(1).add(key("a"), 1, 2, 5).throttled = 2;
    lanes.lane(1).add(key("c"), 3, 0, 1);
    List<HotKeys.Counter> top = lanes.top();
    assertThat(top).extracting(c -> new String(c.key, StandardCharsets.UTF_8))
        .containsExactly("a", "b", "c");
    HotKeys.Counter a = top.get(0);
    assertThat(a.readUnits).isEqualTo(5);
    assertThat(a.writeUnits).isEqualTo(5);
    assertThat(a.weight).isEqualTo(10);
    assertThat(a.throttled).isEqualTo(2);
    assertThat(a.error).isZero();
  }

  @Test
  void aKeyAFullLaneDoesNotTrackMayHaveItsSmallestCount() {
    HotKeyLanes lanes = new HotKeyLanes(2);
    lanes.lane(0).add(key("x"), 1, 10, 0);
    lanes.lane(0).add(key("y"), 2, 4, 0); // lane 0 full, smallest 4
    lanes.lane(1).add(key("z"), 3, 7, 0);
    List<HotKeys.Counter> top = lanes.top();
    // z: 7 counted, and up to 4 more that lane 0 could have dropped; x and y: lane 1 is not
    // full, so it dropped nothing. The two heaviest are kept.
    assertThat(top).extracting(c -> new String(c.key, StandardCharsets.UTF_8))
        .containsExactly("z", "x");
    assertThat(top.get(0).weight).isEqualTo(11);
    assertThat(top.get(0).error).isEqualTo(4);
    assertThat(top.get(0).readUnits).isEqualTo(7);
    assertThat(top.get(1).error).isZero();
  }

  @Test
  void twoThreadsChargingOneKeyAreReportedTogether() throws Exception {
    HotKeyLanes lanes = new HotKeyLanes(16);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Runnable feed = () -> {
      for (int i = 0; i < 1000; i++) {
        synchronized (lanes) { // the table's lock, as in TableThroughput
          lanes.add(key("hot"), 42, 1, 0);
        }
      }
    };
    Thread a = new Thread(feed);
    Thread b = new Thread(feed);
    a.setUncaughtExceptionHandler((t, e) -> failure.set(e));
    b.setUncaughtExceptionHandler((t, e) -> failure.set(e));
    a.start();
    b.start();
    a.join();
    b.join();
    assertThat(failure.get()).isNull();
    assertThat(lanes.top()).singleElement().satisfies(c -> {
      assertThat(c.readUnits).isEqualTo(2000);
      assertThat(c.error).isZero();
    });
  }
}
