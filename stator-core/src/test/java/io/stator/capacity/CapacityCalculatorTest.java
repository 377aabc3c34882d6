package io.stator.capacity;

import static io.stator.capacity.ReadConsistency.EVENTUAL;
import static io.stator.capacity.ReadConsistency.STRONG;
import static io.stator.capacity.ReadConsistency.TRANSACTIONAL;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** DynamoDB's documented capacity arithmetic. */
class CapacityCalculatorTest {
  @Test
  void readsArePricedPer4KbBlock() {
    // 0.5, 1, 2 and 4 KB all fit one 4 KB block.
    for (long size : new long[] {512, 1024, 2048, 4096}) {
      assertThat(CapacityCalculator.read(size, STRONG)).as("%d strong", size).isEqualTo(1.0);
      assertThat(CapacityCalculator.read(size, EVENTUAL)).as("%d eventual", size).isEqualTo(0.5);
      assertThat(CapacityCalculator.read(size, TRANSACTIONAL)).isEqualTo(2.0);
    }
    // One byte past 4 KB is a second block.
    assertThat(CapacityCalculator.read(4097, STRONG)).isEqualTo(2.0);
    assertThat(CapacityCalculator.read(4097, EVENTUAL)).isEqualTo(1.0);
    // The guide's example: a 3.5 KB item is rounded to 4 KB, one RCU.
    assertThat(CapacityCalculator.read(3584, STRONG)).isEqualTo(1.0);
    // 8 KB strongly consistent is 2 RCU; eventually consistent 1.
    assertThat(CapacityCalculator.read(8192, STRONG)).isEqualTo(2.0);
    assertThat(CapacityCalculator.read(8192, EVENTUAL)).isEqualTo(1.0);
  }

  @Test
  void missingItemCostsTheMinimumRead() {
    assertThat(CapacityCalculator.getItem(0, EVENTUAL)).isEqualTo(0.5);
    assertThat(CapacityCalculator.getItem(0, STRONG)).isEqualTo(1.0);
  }

  @Test
  void queryRoundsTheTotalOnceWhileBatchGetRoundsEachItem() {
    // The guide's example: 80 items of 100 bytes read by one Query are 8,000 bytes: 2 blocks.
    assertThat(CapacityCalculator.read(80 * 100, STRONG)).isEqualTo(2.0);
    assertThat(CapacityCalculator.read(80 * 100, EVENTUAL)).isEqualTo(1.0);
    // Read one by one (BatchGetItem), each 100-byte item is a block of its own.
    long[] sizes = new long[80];
    java.util.Arrays.fill(sizes, 100);
    assertThat(CapacityCalculator.read(sizes, STRONG)).isEqualTo(80.0);
    assertThat(CapacityCalculator.read(sizes, EVENTUAL)).isEqualTo(40.0);
    // An empty Query still costs the minimum.
    assertThat(CapacityCalculator.read(0, EVENTUAL)).isEqualTo(0.5);
  }

  @Test
  void writesArePricedPerKbOnTheLargerItem() {
    assertThat(CapacityCalculator.write(0, 500, false)).isEqualTo(1.0);
    assertThat(CapacityCalculator.write(0, 1024, false)).isEqualTo(1.0);
    assertThat(CapacityCalculator.write(0, 1536, false)).isEqualTo(2.0);
    assertThat(CapacityCalculator.write(0, 1536, true)).isEqualTo(4.0);
    // PutItem or UpdateItem shrinking a 3 KB item to 500 bytes pays for 3 KB.
    assertThat(CapacityCalculator.write(3 * 1024, 500, false)).isEqualTo(3.0);
    // DeleteItem pays for the deleted item; deleting nothing costs 1.
    assertThat(CapacityCalculator.write(2500, 0, false)).isEqualTo(3.0);
    assertThat(CapacityCalculator.write(0, 0, false)).isEqualTo(1.0);
  }

  @Test
  void failedConditionCostsTheExistingItemAtLeastOne() {
    assertThat(CapacityCalculator.failedCondition(0)).isEqualTo(1.0);
    assertThat(CapacityCalculator.failedCondition(2500)).isEqualTo(3.0);
  }
}
