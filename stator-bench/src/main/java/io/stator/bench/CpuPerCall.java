package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.server.wire.WireProtocol;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * CPU time and allocation per call of the hot paths, on one thread of the in-memory engine:
 * GetItem, PutItem and Query, through the engine alone and through the JSON wire codec too.
 *
 * <p>JMH reports wall-clock time, which on a machine shared with other work measures the
 * scheduler as much as the code. This measures the calling thread's own CPU time ({@code
 * ThreadMXBean.getCurrentThreadCpuTime}), which does not grow while the thread waits for a core,
 * and its allocated bytes, which do not depend on the machine at all. Each figure is the median
 * of several rounds after a warm-up.
 *
 * <pre>java -cp stator-bench/target/benchmarks.jar io.stator.bench.CpuPerCall [rounds]</pre>
 */
public final class CpuPerCall {
  private static final int CALLS = 20_000;

  private CpuPerCall() {}

  public static void main(String[] args) throws IOException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
    Database database = Stator.inMemory();
    Data.load(database);
    GetItemRequest[] gets = new GetItemRequest[Data.ITEMS];
    PutItemRequest[] puts = new PutItemRequest[Data.ITEMS];
    byte[][] getJson = new byte[Data.ITEMS][];
    byte[][] putJson = new byte[Data.ITEMS][];
    for (int i = 0; i < Data.ITEMS; i++) {
      int p = i / Data.PER_PARTITION;
      int s = i % Data.PER_PARTITION;
      gets[i] = Data.consistentGet(p, s);
      puts[i] = Data.put(Data.item(p, s, i + 1));
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
      new Case("engine query", i -> database.query(queries[i % Data.PARTITIONS])),
      new Case("wire getItem", i -> wire(database, "GetItem", getJson[i % Data.ITEMS], out)),
      new Case("wire putItem", i -> wire(database, "PutItem", putJson[i % Data.ITEMS], out)),
      new Case("wire query", i -> wire(database, "Query", queryJson[i % Data.PARTITIONS], out)),
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
    System.out.printf("%-16s %12s %12s%n", "call", "CPU ns/call", "bytes/call");
    for (Case c : cases) {
      System.out.printf("%-16s %12d %12d%n", c.name, c.medianCpu(rounds), c.medianBytes(rounds));
    }
    database.close();
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

    final String name;
    final IntConsumer call;
    final long[] cpu = new long[64];
    final long[] bytes = new long[64];

    Case(String name, IntConsumer call) {
      this.name = name;
      this.call = call;
    }

    void run(int[] keys, int round) {
      long thread = Thread.currentThread().getId();
      long bytes0 = THREADS.getThreadAllocatedBytes(thread);
      long cpu0 = THREADS.getCurrentThreadCpuTime();
      for (int key : keys) {
        call.accept(key);
      }
      long cpu1 = THREADS.getCurrentThreadCpuTime();
      long bytes1 = THREADS.getThreadAllocatedBytes(thread);
      if (round >= 0) {
        cpu[round] = (cpu1 - cpu0) / keys.length;
        bytes[round] = (bytes1 - bytes0) / keys.length;
      }
    }

    long medianCpu(int rounds) {
      long[] r = Arrays.copyOf(cpu, rounds);
      Arrays.sort(r);
      return r[rounds / 2];
    }

    long medianBytes(int rounds) {
      long[] r = Arrays.copyOf(bytes, rounds);
      Arrays.sort(r);
      return r[rounds / 2];
    }
  }
}
