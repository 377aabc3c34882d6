package io.stator.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.StorageKey;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class CompositeKeyTest {
  @Property
  void decodeInvertsEncode(@ForAll byte[] partition, @ForAll byte[] sort) {
    StorageKey key = new StorageKey(partition, sort);
    assertThat(CompositeKey.decode(CompositeKey.encode(key))).isEqualTo(key);
  }

  @Property
  void encodingPreservesStorageKeyOrder(
      @ForAll byte[] p1, @ForAll byte[] s1, @ForAll byte[] p2, @ForAll byte[] s2) {
    StorageKey a = new StorageKey(p1, s1);
    StorageKey b = new StorageKey(p2, s2);
    assertThat(Integer.signum(
            Arrays.compareUnsigned(CompositeKey.encode(a), CompositeKey.encode(b))))
        .isEqualTo(Integer.signum(a.compareTo(b)));
  }

  @Property
  void thePartitionPrefixMatchesExactlyThatPartition(
      @ForAll byte[] p1, @ForAll byte[] p2, @ForAll byte[] sort) {
    byte[] encoded = CompositeKey.encode(new StorageKey(p2, sort));
    byte[] prefix = CompositeKey.partitionPrefix(p1);
    boolean startsWith =
        encoded.length >= prefix.length
            && Arrays.equals(encoded, 0, prefix.length, prefix, 0, prefix.length);
    assertThat(startsWith).isEqualTo(Arrays.equals(p1, p2));
  }

  @Test
  void layoutIsEscapedPartitionTerminatorThenSort() {
    byte[] encoded =
        CompositeKey.encode(new StorageKey(new byte[] {'a', 0, 'b'}, new byte[] {0, 1}));
    assertThat(encoded).containsExactly('a', 0, 0xFF, 'b', 0, 1, 0, 1);
    assertThat(CompositeKey.partitionEnd(new byte[] {'a'})).containsExactly('a', 0, 2);
  }
}
