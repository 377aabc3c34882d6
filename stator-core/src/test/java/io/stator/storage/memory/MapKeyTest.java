package io.stator.storage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.StorageKey;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class MapKeyTest {
  /** The cached head must never order two keys differently from their bytes. */
  @Property(tries = 2000)
  void ordersExactlyAsStorageKeys(
      @ForAll @Size(max = 12) byte[] p1, @ForAll @Size(max = 3) byte[] s1,
      @ForAll @Size(max = 12) byte[] p2, @ForAll @Size(max = 3) byte[] s2) {
    int expected = Integer.signum(new StorageKey(p1, s1).compareTo(new StorageKey(p2, s2)));
    assertThat(Integer.signum(new MapKey(p1, s1).compareTo(new MapKey(p2, s2))))
        .isEqualTo(expected);
    assertThat(new MapKey(p1, s1).equals(new MapKey(p2, s2))).isEqualTo(expected == 0);
  }

  @Test
  void shortPartitionsPaddedWithZerosStillOrderByLength() {
    // Equal heads (a0 00.. and a0 00 00), different bytes: the shorter sorts first.
    assertThat(new MapKey(new byte[] {(byte) 0xa0}, new byte[0])
            .compareTo(new MapKey(new byte[] {(byte) 0xa0, 0, 0}, new byte[0])))
        .isNegative();
    // Unsigned: 0xff sorts after 0x01 in the head as in the bytes.
    byte[] high = {(byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 1};
    byte[] low = {1, 0, 0, 0, 0, 0, 0, 0, 1};
    assertThat(new MapKey(high, new byte[0]).compareTo(new MapKey(low, new byte[0])))
        .isPositive();
  }
}
