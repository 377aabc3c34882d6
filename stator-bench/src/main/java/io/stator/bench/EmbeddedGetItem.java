package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.value.AttributeValue;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The embedded target of the performance issue: {@code Database.getItem} (ConsistentRead) on the
 * in-memory engine, no HTTP and no JSON, one thread, a random key of the table per call, in
 * calls per second. The table is the benchmarks' usual one (items of ~1 KB, 10 per partition)
 * at 10,000 and 100,000 items; the larger one no longer fits in the CPU's caches.
 *
 * <p>The keys are drawn in advance, so the figure is the engine's and not the random generator's;
 * each call builds its request, as an application does (from the partition's key string and the
 * sort key's text, prepared once).
 *
 * <p>JMH's figure is wall-clock throughput, which on a shared machine is also the scheduler's.
 * {@code main} runs the same calls and reports them per second of the thread's own CPU time too:
 *
 * <pre>java -cp stator-bench/target/benchmarks.jar io.stator.bench.EmbeddedGetItem [items...]</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class EmbeddedGetItem {
  @Param({"10000", "100000"})
  public int items;

  private Database database;
  private String[] partitionKeys;
  private final AttributeValue[] sortKeys = new AttributeValue[Data.PER_PARTITION];
  private int[] order;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    database = Stator.inMemory();
    database.createTable(Data.createTable());
    partitionKeys = new String[items / Data.PER_PARTITION];
    for (int p = 0; p < partitionKeys.length; p++) {
      partitionKeys[p] = Data.pk(p);
    }
    for (int s = 0; s < Data.PER_PARTITION; s++) {
      sortKeys[s] = AttributeValue.n(Integer.toString(s));
    }
    for (int i = 0; i < items; i++) {
      database.putItem(Data.put(Data.item(i / Data.PER_PARTITION, i % Data.PER_PARTITION, i)));
    }
    SplittableRandom random = new SplittableRandom(42);
    order = new int[1 << 20];
    for (int i = 0; i < order.length; i++) {
      order[i] = random.nextInt(items);
    }
    GetItemResponse check = database.getItem(request(items - 1));
    if (check.item() == null) {
      throw new IllegalStateException("the table was not loaded");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    database.close();
  }

  @Benchmark
  public GetItemResponse getItem() {
    return database.getItem(request(order[next++ & (order.length - 1)]));
  }

  private GetItemRequest request(int i) {
    return new GetItemRequest(
        Data.TABLE,
        Map.of("pk", AttributeValue.s(partitionKeys[i / Data.PER_PARTITION]),
            "sk", sortKeys[i % Data.PER_PARTITION]),
        true, null, null, null, null);
  }

  /** Calls per second of wall-clock and of thread CPU time, 7 rounds of 2 s after 3 of warm-up. */
  public static void main(String[] args) {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    String[] sizes = args.length > 0 ? args : new String[] {"10000", "100000"};
    for (String size : sizes) {
      EmbeddedGetItem bench = new EmbeddedGetItem();
      bench.items = Integer.parseInt(size);
      bench.setUp();
      long[] perCpuSecond = new long[7];
      long[] perSecond = new long[7];
      Object sink = null;
      for (int round = -3; round < perCpuSecond.length; round++) {
        long calls = 0;
        long wall0 = System.nanoTime();
        long cpu0 = threads.getCurrentThreadCpuTime();
        while (System.nanoTime() - wall0 < 2_000_000_000L) {
          for (int k = 0; k < 1000; k++) {
            sink = bench.getItem();
          }
          calls += 1000;
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        long wall = System.nanoTime() - wall0;
        if (round >= 0) {
          perCpuSecond[round] = calls * 1_000_000_000L / cpu;
          perSecond[round] = calls * 1_000_000_000L / wall;
        }
      }
      java.util.Arrays.sort(perCpuSecond);
      java.util.Arrays.sort(perSecond);
      System.out.printf("items %d: GetItem per CPU second: median %d (min %d, max %d); per"
              + " wall-clock second: median %d; %s%n",
          bench.items, perCpuSecond[3], perCpuSecond[0], perCpuSecond[6], perSecond[3],
          sink != null ? "ok" : "");
      bench.tearDown();
    }
  }
}
