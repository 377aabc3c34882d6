package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
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
 * <p>The keys are drawn in advance, so the figure is the engine's and not the random generator's.
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
  private GetItemRequest[] gets;
  private int[] order;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    database = Stator.inMemory();
    database.createTable(Data.createTable());
    gets = new GetItemRequest[items];
    for (int i = 0; i < items; i++) {
      int p = i / Data.PER_PARTITION;
      int s = i % Data.PER_PARTITION;
      database.putItem(Data.put(Data.item(p, s, i)));
      gets[i] = Data.consistentGet(p, s);
    }
    SplittableRandom random = new SplittableRandom(42);
    order = new int[1 << 20];
    for (int i = 0; i < order.length; i++) {
      order[i] = random.nextInt(items);
    }
    GetItemResponse check = database.getItem(gets[items - 1]);
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
    int i = order[next++ & (order.length - 1)];
    return database.getItem(gets[i]);
  }
}
