package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.PutItemRequest;
import io.stator.key.KeyCodec;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import io.stator.storage.rocksdb.RocksDbStorage;
import io.stator.value.AttributeValue;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

/**
 * What a PutItem costs on RocksDB against in memory, without HTTP: the process's CPU time (every
 * thread: the writers, RocksDB's flushes and compactions, the collector) per PutItem, with
 * THREADS writers (default 2, like the server's two event loops) on the load benchmark's table
 * and GSI, over its 10,000 keys. Each round is PUTS puts (default 200,000: many memtable flushes,
 * so their cost and compactions' are in the figure); the median of ROUNDS rounds after one
 * warm-up round. Then the same through the storage alone (a read and a commit of the item and its
 * index entry, no engine), to show how much of the difference is the storage's own.
 *
 * <p>CPU time rather than throughput, so that other work on the machine moves the figures less.
 *
 * <pre>java -cp stator-bench/target/benchmarks.jar io.stator.bench.DurableWrites \
 *     [threads [puts [rounds]]]</pre>
 */
public final class DurableWrites {
  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private DurableWrites() {}

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int puts = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    long memory = run(null, threads, puts, rounds);
    long memoryCommits = commits(new MemoryStorage(), "memory", threads, puts, rounds);
    Path directory = TemporaryDirectory.create("stator-durable");
    try {
      long rocks = run(directory.resolve("engine"), threads, puts, rounds);
      long rocksCommits;
      try (RocksDbStorage storage = RocksDbStorage.open(directory.resolve("storage"))) {
        rocksCommits = commits(storage, "rocksdb", threads, puts, rounds);
      }
      System.out.printf(
          "PutItem, %d writers: memory %d ns, RocksDB %d ns of process CPU per put: %.2fx%n",
          threads, memory, rocks, (double) rocks / memory);
      System.out.printf(
          "the storage's part (read, then commit the item and its index entry): memory %d ns,"
              + " RocksDB %d ns; RocksDB's extra %d ns is %.0f%% of the PutItem difference%n",
          memoryCommits, rocksCommits, rocksCommits - memoryCommits,
          100.0 * (rocksCommits - memoryCommits) / (rocks - memory));
    } finally {
      TemporaryDirectory.delete(directory);
    }
  }

  /**
   * The storage's share of a PutItem, without the engine: a point read of the item, then one
   * commit that expects the version read and writes the item (~1 KB) and its GSI entry (~1 KB),
   * as PutItem on the benchmark's table does. The median process CPU ns per commit.
   */
  private static long commits(Storage storage, String name, int threads, int puts, int rounds)
      throws Exception {
    storage.createSpace("items");
    storage.createSpace("index");
    byte[] value = new byte[1024];
    long[] perPut = new long[rounds];
    for (int round = -1; round < rounds; round++) {
      long cpu = PROCESS.getProcessCpuTime();
      CountDownLatch done = new CountDownLatch(threads);
      for (int t = 0; t < threads; t++) {
        SplittableRandom random = new SplittableRandom(17L * round + t);
        int share = puts / threads + (t < puts % threads ? 1 : 0);
        new Thread(() -> {
          try {
            for (int i = 0; i < share; i++) {
              int k = random.nextInt(Data.ITEMS);
              StorageKey item = new StorageKey(
                  KeyCodec.partition(AttributeValue.s(Data.pk(k / Data.PER_PARTITION))),
                  Integer.toString(k % Data.PER_PARTITION).getBytes());
              StorageKey entry = new StorageKey(
                  KeyCodec.partition(AttributeValue.s("g" + k % 100)), item.partition());
              long version = storage.get("items", item)
                  .map(StoredRecord::version).orElse(Commit.Expectation.ABSENT);
              try {
                storage.commit(new Commit().expect("items", item, version)
                    .put("items", item, value).put("index", entry, value));
              } catch (CommitConflictException e) {
                i--; // the other writer took the key: read and try again, as the engine does
              }
            }
          } finally {
            done.countDown();
          }
        }).start();
      }
      done.await();
      if (round >= 0) {
        perPut[round] = (PROCESS.getProcessCpuTime() - cpu) / puts;
      }
    }
    Arrays.sort(perPut);
    System.out.printf("%s storage: %d ns CPU per read and commit%n", name, perPut[rounds / 2]);
    return perPut[rounds / 2];
  }

  /** The median process CPU ns per put; on RocksDB in {@code directory}, in memory when null. */
  private static long run(Path directory, int threads, int puts, int rounds) throws Exception {
    try (Database database =
        directory == null ? Stator.inMemory() : Stator.open(RocksDbStorage.open(directory))) {
      database.createTable(Data.createTableWithIndex());
      for (int i = 0; i < Data.ITEMS; i++) {
        database.putItem(put(i, i));
      }
      long[] perPut = new long[rounds];
      for (int round = -1; round < rounds; round++) {
        long cpu = PROCESS.getProcessCpuTime();
        long nanos = System.nanoTime();
        write(database, threads, puts, round);
        long spent = PROCESS.getProcessCpuTime() - cpu;
        if (round >= 0) {
          perPut[round] = spent / puts;
          System.out.printf(
              "%s round %d: %d ns CPU per put, %.0f puts/s%n",
              directory == null ? "memory" : "rocksdb", round + 1, perPut[round],
              puts / ((System.nanoTime() - nanos) / 1e9));
        }
      }
      Arrays.sort(perPut);
      return perPut[rounds / 2];
    }
  }

  private static void write(Database database, int threads, int puts, int round)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(31L * round + t);
      int share = puts / threads + (t < puts % threads ? 1 : 0);
      Thread writer = new Thread(() -> {
        try {
          for (int i = 0; i < share; i++) {
            database.putItem(put(random.nextInt(Data.ITEMS), random.nextInt(1_000_000)));
          }
        } finally {
          done.countDown();
        }
      });
      writer.start();
    }
    done.await();
  }

  private static PutItemRequest put(int i, long n) {
    return Data.put(Data.item(i / Data.PER_PARTITION, i % Data.PER_PARTITION, n));
  }
}
