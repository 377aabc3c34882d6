package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

class PeriodicCollectionTest {
  private static final long GB = PeriodicCollection.LARGE_BYTES;

  @Test
  void turnsOffAboveTheLargeHeapAndBackOnWellBelowIt() {
    assertThat(PeriodicCollection.decide(false, GB / 2)).isNull();
    assertThat(PeriodicCollection.decide(false, GB + 1)).isTrue();
    // Off: stays off until the heap in use falls well below the threshold, so that a heap
    // hovering around it does not flip the setting on every collection.
    assertThat(PeriodicCollection.decide(true, GB + 1)).isNull();
    assertThat(PeriodicCollection.decide(true, GB / 2)).isNull();
    assertThat(PeriodicCollection.decide(true, GB / 8)).isFalse();
  }

  /** The policy relies on the flag being manageable: changed on a running JVM, no restart. */
  @Test
  void theFlagChangesOnARunningG1() {
    HotSpotDiagnosticMXBean vm =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    assumeTrue(vm.getVMOption("UseG1GC").getValue().equals("true"), "G1 is the collector");
    String before = vm.getVMOption("G1PeriodicGCInterval").getValue();
    try {
      vm.setVMOption("G1PeriodicGCInterval", "4321");
      assertThat(vm.getVMOption("G1PeriodicGCInterval").getValue()).isEqualTo("4321");
    } finally {
      vm.setVMOption("G1PeriodicGCInterval", before);
    }
  }
}
