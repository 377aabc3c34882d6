package io.stator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SegmentTest {

  @Test
  void theByteOrderSplitsTheEightBytePrefixesContiguously() {
    assertThat(Segment.ofByteOrder(0, 4).fromPartition()).isNull();
    assertThat(Segment.ofByteOrder(3, 4).toPartition()).isNull();
    assertThat(Segment.ofByteOrder(1, 4).fromPartition())
        .containsExactly(0x40, 0, 0, 0, 0, 0, 0, 0);
    assertThat(Segment.ofByteOrder(1, 4).toPartition())
        .containsExactly(0x80, 0, 0, 0, 0, 0, 0, 0);
    assertThat(Segment.ofByteOrder(2, 4).fromPartition())
        .containsExactly(0x80, 0, 0, 0, 0, 0, 0, 0);
    Segment only = Segment.ofByteOrder(0, 1);
    assertThat(only.fromPartition()).isNull();
    assertThat(only.toPartition()).isNull();
  }

  @Test
  void aKeyBelongsToTheSegmentItsPartitionFallsIn() {
    StorageKey low = new StorageKey(new byte[] {0x3F, (byte) 0xFF}, new byte[] {1});
    StorageKey edge = new StorageKey(new byte[] {0x40, 0, 0, 0, 0, 0, 0, 0}, new byte[0]);
    assertThat(Segment.ofByteOrder(0, 4).contains(low)).isTrue();
    assertThat(Segment.ofByteOrder(1, 4).contains(low)).isFalse();
    assertThat(Segment.ofByteOrder(0, 4).contains(edge)).isFalse();
    assertThat(Segment.ofByteOrder(1, 4).contains(edge)).isTrue();
  }
}
