package io.stator.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.StorageKey;
import org.junit.jupiter.api.Test;

/** Which buckets a scan reads, and where it cuts the first and the last (no Cassandra needed). */
class ScanRangeTest {
  @Test
  void aPartitionsBucketIsItsFirstByteUnsigned() {
    assertThat(ScanRange.bucket(bytes())).isZero();
    assertThat(ScanRange.bucket(bytes(0x00, 0xFF))).isZero();
    assertThat(ScanRange.bucket(bytes(0x7F))).isEqualTo(0x7F);
    assertThat(ScanRange.bucket(bytes(0x80, 0x00))).isEqualTo(0x80);
    assertThat(ScanRange.bucket(bytes(0xFF))).isEqualTo(255);
  }

  @Test
  void aWholeScanReadsEveryBucketUncut() {
    ScanRange all = ScanRange.of(null, null, null);
    assertThat(all.first()).isZero();
    assertThat(all.last()).isEqualTo(255);
    assertThat(all.cutAtStart(0)).isFalse();
    assertThat(all.cutAtEnd(255)).isFalse();
  }

  @Test
  void theStartIsTheLaterOfTheFromPartitionAndTheKeyAfter() {
    ScanRange from = ScanRange.of(bytes(0x40, 0x01), null, StorageKey.of(bytes(0x10)));
    assertThat(from.first()).isEqualTo(0x40);
    assertThat(from.start()).isInstanceOf(ScanRange.AtPartition.class);
    assertThat(from.cutAtStart(0x40)).isTrue();
    assertThat(from.cutAtStart(0x41)).isFalse();

    ScanRange after = ScanRange.of(bytes(0x40), null, StorageKey.of(bytes(0x90, 0x01)));
    assertThat(after.first()).isEqualTo(0x90);
    assertThat(after.start()).isInstanceOf(ScanRange.AfterKey.class);
  }

  @Test
  void anEndOfOneByteStopsWithTheBucketBeforeIt() {
    ScanRange range = ScanRange.of(null, bytes(0x80), null);
    assertThat(range.last()).isEqualTo(0x7F);
    assertThat(range.cutAtEnd(0x7F)).isFalse();

    ScanRange longer = ScanRange.of(null, bytes(0x80, 0x00), null);
    assertThat(longer.last()).isEqualTo(0x80);
    assertThat(longer.cutAtEnd(0x80)).isTrue();
    assertThat(longer.endBefore()).isEqualTo(bytes(0x80, 0x00));
  }

  @Test
  void anEndOfZeroStillReadsTheEmptyPartitionOfBucketZero() {
    ScanRange range = ScanRange.of(null, bytes(0x00), null);
    assertThat(range.first()).isZero();
    assertThat(range.last()).isZero();
    assertThat(range.cutAtEnd(0)).isTrue();
  }

  @Test
  void rangesThatHoldNothingReadNoBucket() {
    assertThat(ScanRange.of(null, bytes(), null)).isNull();
    assertThat(ScanRange.of(StorageKey.of(bytes()).partition(), bytes(), null)).isNull();
    assertThat(ScanRange.of(bytes(0x50), bytes(0x50), null)).isNull();
    assertThat(ScanRange.of(bytes(0x50, 0x01), bytes(0x50), null)).isNull();
    assertThat(ScanRange.of(null, bytes(0x50), StorageKey.of(bytes(0x50)))).isNull();
    assertThat(ScanRange.of(bytes(0x50, 0x01), bytes(0x51), null).last()).isEqualTo(0x50);
  }

  private static byte[] bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return out;
  }
}
