package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RequestIdsTest {
  @Test
  void idsAreDistinctUuidsEvenFromManyThreads() throws InterruptedException {
    Set<String> ids = java.util.concurrent.ConcurrentHashMap.newKeySet();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          ids.add(RequestIds.next());
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(ids).hasSize(40_000);
    Set<Long> processes = new HashSet<>();
    for (String id : ids) {
      assertThat(UUID.fromString(id).toString()).isEqualTo(id);
      processes.add(UUID.fromString(id).getMostSignificantBits());
    }
    assertThat(processes).hasSize(1);
  }
}
