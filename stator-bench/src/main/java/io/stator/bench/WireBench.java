package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.server.wire.WireProtocol;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The server's wire codec: an AWS JSON 1.0 request body read into a typed request, and the
 * typed response written as JSON, through {@link WireProtocol#invoke}, without HTTP.
 *
 * <p>The {@code *Codec} benchmarks answer from a {@link CannedDatabase}, so they measure the JSON
 * work alone; the {@code *OnMemoryEngine} ones run the real in-memory engine behind it, which is
 * everything a request costs except HTTP and Netty.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WireBench {
  private final Database canned = new CannedDatabase();
  private Database engine;
  private final byte[] getItem = Data.getItemJson(7, 3);
  private final byte[] putItem = Data.putItemJson(7, 3, 12345);
  private final byte[] query = Data.queryJson(7);
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);

  @Setup
  public void setUp() {
    engine = Stator.inMemory();
    Data.load(engine);
  }

  @TearDown
  public void tearDown() {
    engine.close();
  }

  private int invoke(Database database, String operation, byte[] body) throws IOException {
    out.reset();
    WireProtocol.invoke(database, operation, new ByteArrayInputStream(body), out);
    return out.size();
  }

  @Benchmark
  public int getItemCodec() throws IOException {
    return invoke(canned, "GetItem", getItem);
  }

  @Benchmark
  public int putItemCodec() throws IOException {
    return invoke(canned, "PutItem", putItem);
  }

  @Benchmark
  public int queryCodec() throws IOException {
    return invoke(canned, "Query", query);
  }

  @Benchmark
  public int getItemOnMemoryEngine() throws IOException {
    return invoke(engine, "GetItem", getItem);
  }

  @Benchmark
  public int putItemOnMemoryEngine() throws IOException {
    return invoke(engine, "PutItem", putItem);
  }

  @Benchmark
  public int queryOnMemoryEngine() throws IOException {
    return invoke(engine, "Query", query);
  }
}
