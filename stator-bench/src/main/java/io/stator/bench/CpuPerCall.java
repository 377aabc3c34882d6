package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.server.wire.WireProtocol;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * CPU time and allocation per call of the hot paths, on one thread of the in-memory engine:
 * GetItem, PutItem and Query, through the engine alone and through the JSON wire codec too, and
 * UpdateItem (an ADD to a counter) through the engine.
 *
 * <p>JMH reports wall-clock time, which on a machine shared with other work measures the
 * scheduler as much as the code. This measures the calling thread's own CPU time ({@code
 * ThreadMXBean.getCurrentThreadCpuTime}), which does not grow while the thread waits for a core,
 * and its allocated bytes, which do not depend on the machine at all. Each figure is the median
 * of several rounds after a warm-up.
 *
 * <p>With {@code rocksdb} as the second argument the engine runs on RocksDB in a temporary
 * directory; the process column then includes RocksDB's background flushes and compactions.
 *
 * <p>The "2 threads" row runs the same calls on two threads at once, as the server's two event
 * loops do on a two-core machine: what shared state costs when two cores write it (locks, cache
 * lines moving between cores) shows there and not on one thread. Each thread's own CPU time is
 * measured, and the figure is their mean per call; it needs the two threads to actually run
 * together, so read it on a quiet machine.
 *
 * <pre>java -cp stator-bench/target/benchmarks.jar io.stator.bench.CpuPerCall [rounds [rocksdb]]</pre>
 */
public final class CpuPerCall {
  private static final int CALLS = 20_000;

  private CpuPerCall() {}

  public static void main(String[] args) throws IOException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    boolean rocks = args.length > 1 && args[1].equals("rocksdb");
    Path directory = rocks ? TemporaryDirectory.create("stator-cpu") : null;
    Database database = rocks ? Stator.open(RocksDbStorage.open(directory)) : Stator.inMemory();
    Data.load(database);
    GetItemRequest[] gets = new GetItemRequest[Data.ITEMS];
    PutItemRequest[] puts = new PutItemRequest[Data.ITEMS];
    UpdateItemRequest[] updates = new UpdateItemRequest[Data.ITEMS];
    byte[][] getJson = new byte[Data.ITEMS][];
    byte[][] putJson = new byte[Data.ITEMS][];
    for (int i = 0; i < Data.ITEMS; i++) {
      int p = i / Data.PER_PARTITION;
      int s = i % Data.PER_PARTITION;
      gets[i] = Data.consistentGet(p, s);
      puts[i] = Data.put(Data.item(p, s, i + 1));
      updates[i] = Data.increment(p, s);
      getJson[i] = Data.getItemJson(p, s);
      putJson[i] = Data.putItemJson(p, s, i + 1);
    }
    QueryRequest[] queries = new QueryRequest[Data.PARTITIONS];
    byte[][] queryJson = new byte[Data.PARTITIONS][];
    for (int p = 0; p < Data.PARTITIONS; p++) {
      queries[p] = Data.queryPartition(p);
      queryJson[p] = Data.queryJson(p);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    SplittableRandom random = new SplittableRandom(42);
    Case[] cases = {
      new Case("engine getItem", i -> database.getItem(gets[i % Data.ITEMS])),
      new Case("engine putItem", i -> database.putItem(puts[i % Data.ITEMS])),
      new Case("engine updateItem", i -> database.updateItem(updates[i % Data.ITEMS])),
      new Case("engine query", i -> database.query(queries[i % Data.PARTITIONS])),
      new Case("wire getItem", i -> wire(database, "GetItem", getJson[i % Data.ITEMS], out)),
      new Case("wire putItem", i -> wire(database, "PutItem", putJson[i % Data.ITEMS], out)),
      new Case("wire query", i -> wire(database, "Query", queryJson[i % Data.PARTITIONS], out)),
      new Case("engine getItem, 2 threads", i -> database.getItem(gets[i % Data.ITEMS]), 2),
    };
    int[] keys = new int[CALLS];
    for (int round = -3; round < rounds; round++) { // three warm-up rounds
      for (Case c : cases) {
        for (int k = 0; k < CALLS; k++) {
          keys[k] = random.nextInt(Data.ITEMS);
        }
        c.run(keys, round >= 0 ? round : -1);
      }
    }
    System.out.printf(
        "%-26s %12s %14s %12s%n", "call", "CPU ns/call", "process ns/call", "bytes/call");
    for (Case c : cases) {
      System.out.printf(
          "%-26s %12d %14d %12d%n",
          c.name, median(c.cpu, rounds), median(c.process, rounds), median(c.bytes, rounds));
    }
    database.close();
    if (directory != null) {
      TemporaryDirectory.delete(directory);
    }
  }

  private static void wire(Database database, String operation, byte[] body,
      ByteArrayOutputStream out) {
    out.reset();
    try {
      WireProtocol.invoke(database, operation, new ByteArrayInputStream(body), out);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static final class Case {
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    final String name;
    final IntConsumer call;
    final int threads;
    final long[] cpu = new long[64];
    final long[] bytes = new long[64];
    final long[] process = new long[64];

    Case(String name, IntConsumer call) {
      this(name, call, 1);
    }

    Case(String name, IntConsumer call, int threads) {
      this.name = name;
      this.call = call;
      this.threads = threads;
    }

    void run(int[] keys, int round) {
      if (threads == 1) {
        runHere(keys, round);
        return;
      }
      // Each thread measures itself as a one-thread case; the round's figures are their means
      // (the process figure: the process's CPU over all the calls of every thread).
      Case[] alone = new Case[threads];
      java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
      Thread[] running = new Thread[threads];
      long process0 = PROCESS.getProcessCpuTime();
      for (int t = 0; t < threads; t++) {
        int[] mine = new int[keys.length];
        for (int k = 0; k < keys.length; k++) {
          mine[k] = keys[(k + t * 7919) % keys.length];
        }
        Case own = alone[t] = new Case(name, call);
        running[t] = new Thread(() -> {
          try {
            start.await();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          own.runHere(mine, 0);
        });
        running[t].start();
      }
      for (Thread t : running) {
        try {
          t.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      long process1 = PROCESS.getProcessCpuTime();
      if (round >= 0) {
        long c = 0;
        long b = 0;
        for (Case own : alone) {
          c += own.cpu[0];
          b += own.bytes[0];
        }
        cpu[round] = c / threads;
        bytes[round] = b / threads;
        process[round] = (process1 - process0) / ((long) keys.length * threads);
      }
    }

    void runHere(int[] keys, int round) {
      long thread = Thread.currentThread().getId();
      long bytes0 = THREADS.getThreadAllocatedBytes(thread);
      long cpu0 = THREADS.getCurrentThreadCpuTime();
      long process0 = PROCESS.getProcessCpuTime();
      for (int key : keys) {
        call.accept(key);
      }
      long cpu1 = THREADS.getCurrentThreadCpuTime();
      long process1 = PROCESS.getProcessCpuTime();
      long bytes1 = THREADS.getThreadAllocatedBytes(thread);
      if (round >= 0) {
        cpu[round] = (cpu1 - cpu0) / keys.length;
        bytes[round] = (bytes1 - bytes0) / keys.length;
        process[round] = (process1 - process0) / keys.length;
      }
    }

  }

  private static long median(long[] figures, int rounds) {
    long[] r = Arrays.copyOf(figures, rounds);
    Arrays.sort(r);
    return r[rounds / 2];
  }
}
