package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.api.PutItemResponse;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The engine without HTTP or JSON: GetItem (ConsistentRead), PutItem (overwriting an item) and
 * Query (one partition of 10 items) on the preloaded table of 10,000 items of ~1 KB, on the
 * in-memory storage and on RocksDB (in a temporary directory), one random key per call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EngineBench {
  @Param({"memory", "rocksdb"})
  public String storage;

  private Database database;
  private Path directory;
  private final GetItemRequest[] gets = new GetItemRequest[Data.ITEMS];
  private final QueryRequest[] queries = new QueryRequest[Data.PARTITIONS];
  private long counter;

  @Setup
  public void setUp() throws IOException {
    Storage store;
    if (storage.equals("rocksdb")) {
      directory = TemporaryDirectory.create("stator-bench");
      store = RocksDbStorage.open(directory);
    } else {
      store = new MemoryStorage();
    }
    database = Stator.open(store);
    Data.load(database);
    for (int i = 0; i < Data.ITEMS; i++) {
      gets[i] = Data.consistentGet(i / Data.PER_PARTITION, i % Data.PER_PARTITION);
    }
    for (int p = 0; p < Data.PARTITIONS; p++) {
      queries[p] = Data.queryPartition(p);
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    database.close();
    if (directory != null) {
      TemporaryDirectory.delete(directory);
    }
  }

  @Benchmark
  public GetItemResponse getItem() {
    return database.getItem(gets[ThreadLocalRandom.current().nextInt(Data.ITEMS)]);
  }

  @Benchmark
  public PutItemResponse putItem() {
    int i = ThreadLocalRandom.current().nextInt(Data.ITEMS);
    return database.putItem(
        Data.put(Data.item(i / Data.PER_PARTITION, i % Data.PER_PARTITION, counter++)));
  }

  @Benchmark
  public QueryResponse query() {
    return database.query(queries[ThreadLocalRandom.current().nextInt(Data.PARTITIONS)]);
  }
}
