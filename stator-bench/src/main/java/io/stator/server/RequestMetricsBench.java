package io.stator.server;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.ErrorType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the metrics cost a request: {@link RequestMetrics#record}, which the server calls once
 * per answer (a request count by operation and outcome, and its latency in the histogram), on
 * its own, from one thread and from two threads counting the same operation (the contended
 * case). In the server's package because the metrics are package-private. Compare with a whole
 * request's CPU ({@code CpuPerCall}, docs/performance.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RequestMetricsBench {
  private Database database;
  private RequestMetrics metrics;

  @Setup
  public void setUp() {
    database = Stator.inMemory();
    metrics = new RequestMetrics(database, new ConnectionLimit(1000));
  }

  @TearDown
  public void tearDown() {
    database.close();
  }

  @Benchmark
  public void success() {
    metrics.record("GetItem", null, 4_000);
  }

  @Benchmark
  public void error() {
    metrics.record("PutItem", ErrorType.ConditionalCheckFailedException, 6_000);
  }

  @Benchmark
  @Threads(2)
  public void successFromTwoThreads() {
    metrics.record("GetItem", null, 4_000);
  }
}
