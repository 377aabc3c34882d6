package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The Space-Saving sketch: bounded counters, a new key replaces the smallest one. */
class HotKeysTest {
  private static byte[] key(String k) {
    return k.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aHeavyKeyStaysTrackedAmongManyLightOnes() {
    HotKeys sketch = new HotKeys(4);
    for (int i = 0; i < 1000; i++) {
      sketch.add(key("hot"), 7, 1, 0);
      sketch.add(key("cold" + i), i, 0, 0.5);
    }
    assertThat(sketch.top()).hasSize(4);
    HotKeys.Counter hot = sketch.top().get(0);
    assertThat(hot.key).isEqualTo(key("hot"));
    assertThat(hot.readUnits).isEqualTo(1000);
    assertThat(hot.error).isZero();
  }

  @Test
  void aNewKeyInheritsTheSmallestCountAsItsError() {
    HotKeys sketch = new HotKeys(2);
    sketch.add(key("a"), 1, 5, 0);
    sketch.add(key("b"), 2, 2, 0);
    HotKeys.Counter c = sketch.add(key("c"), 3, 0, 1);
    assertThat(c.error).isEqualTo(2);
    assertThat(c.weight).isEqualTo(3);
    assertThat(sketch.top()).extracting(k -> k.key).containsExactly(key("a"), key("c"));
    // Same hash, other bytes: a different key.
    assertThat(sketch.add(key("d"), 1, 1, 0)).isNotSameAs(sketch.top().get(0));
  }

  @Test
  void putReplacesTheCounterOfTheSameKey() {
    HotKeys sketch = new HotKeys(2);
    sketch.add(key("a"), 1, 1, 0);
    HotKeys.Counter moved = new HotKeys.Counter(key("a"), 1, 0);
    moved.weight = 9;
    sketch.put(moved);
    assertThat(sketch.top()).containsExactly(moved);
  }
}
