package io.stator.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * Round-trip latency of the storage's operations on the one test node, one thread at a time,
 * printed to the test's output (target/surefire-reports): a first figure for docs/cassandra.md,
 * not a benchmark. It asserts only that each operation finishes within the driver's timeout.
 */
class CassandraLatencyTest {
  private static final int ROUNDS = 200;

  @Test
  void measureOneThreadLatencies() {
    try (CassandraStorage storage =
        CassandraStorage.open(TestCluster.session(), TestCluster.KEYSPACE, "latency-" + System.nanoTime())) {
      storage.createSpace("items");
      storage.createSpace("index");
      byte[] value = new byte[200];

      report("put (no expectation)", i -> storage.commit(new Commit().put("items", key(i), value)));
      report("get", i -> assertThat(storage.get("items", key(i))).isPresent());
      report(
          "conditional put (expects the version read)",
          i -> {
            long version = storage.get("items", key(i)).orElseThrow().version();
            storage.commit(new Commit().put("items", key(i), value).expect("items", key(i), version));
          });
      report(
          "two spaces, two expectations (item + index entry)",
          i ->
              storage.commit(
                  new Commit()
                      .put("items", key(ROUNDS + i), value)
                      .put("index", key(i), value)
                      .expect("items", key(ROUNDS + i), Commit.Expectation.ABSENT)
                      .expect("index", key(i), Commit.Expectation.ABSENT)));
      report(
          "query of one partition (limit 10)",
          i -> storage.query("items", "p".getBytes(StandardCharsets.UTF_8), null, null, true, 10));

      // A small table's full scan: its buckets are read ahead in parallel, empty ones too.
      storage.createSpace("small");
      storage.createSpace("empty");
      Commit small = new Commit();
      for (int i = 0; i < 10; i++) {
        small.put("small", new StorageKey(new byte[] {(byte) (i * 25), 1, 2, 3}, new byte[0]), value);
      }
      storage.commit(small);
      report("full scan of 10 records in 10 buckets (limit 100)",
          i -> assertThat(storage.scan("small", null, null, null, 100)).hasSize(10));
      report("full scan of an empty space (limit 100)",
          i -> assertThat(storage.scan("empty", null, null, null, 100)).isEmpty());
      report("stats of 10 records", i -> assertThat(storage.stats("small").records()).isEqualTo(10));
    }
  }

  private static StorageKey key(int i) {
    return new StorageKey(
        "p".getBytes(StandardCharsets.UTF_8), String.format("%05d", i).getBytes(StandardCharsets.UTF_8));
  }

  private static void report(String what, IntConsumer operation) {
    long[] nanos = new long[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
      long start = System.nanoTime();
      operation.accept(i);
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    System.out.printf(
        "latency %-50s median %6.2f ms  p90 %6.2f ms  p99 %6.2f ms  (%d rounds)%n",
        what, nanos[ROUNDS / 2] / 1e6, nanos[ROUNDS * 9 / 10] / 1e6, nanos[ROUNDS * 99 / 100] / 1e6,
        ROUNDS);
  }
}
