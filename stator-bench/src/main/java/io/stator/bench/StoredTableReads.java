package io.stator.bench;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.QueryRequest;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * What GetItem and Query cost on a RocksDB store that is already loaded, without HTTP: the
 * calling thread's CPU time per call, for keys drawn at random over the whole table. Point it at
 * the data directory of a server that loaded the scale benchmark's table ({@code
 * bench/scale-load.js}, table "bench", 10 items per partition), stopped first:
 *
 * <pre>java -cp stator-bench/target/benchmarks.jar io.stator.bench.StoredTableReads DIR ITEMS \
 *     [cache-size-mb [rounds [calls]]]</pre>
 *
 * <p>Each round is CALLS calls (default 200,000) of each kind; the first rounds fill the block
 * cache, so read the later ones. Over HTTP the same costs hide under the server's own and the
 * machine's noise; here two store configurations compare within a few percent.
 */
public final class StoredTableReads {
  private StoredTableReads() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int items = Integer.parseInt(args[1]);
    long cacheBytes =
        args.length > 2
            ? Long.parseLong(args[2]) << 20
            : RocksDbStorage.defaultMemoryBytes();
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 6;
    int calls = args.length > 4 ? Integer.parseInt(args[4]) : 200_000;
    int partitions = items / Data.PER_PARTITION;
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    SplittableRandom random = new SplittableRandom(7);
    try (Database database = Stator.open(RocksDbStorage.open(dir, cacheBytes))) {
      for (int round = 1; round <= rounds; round++) {
        long start = threads.getCurrentThreadCpuTime();
        long allocated = threads.getCurrentThreadAllocatedBytes();
        int found = 0;
        for (int i = 0; i < calls; i++) {
          int p = random.nextInt(partitions);
          GetItemRequest get = Data.consistentGet(p, random.nextInt(Data.PER_PARTITION));
          found += database.getItem(get).item() == null ? 0 : 1;
        }
        long getNs = (threads.getCurrentThreadCpuTime() - start) / calls;
        long getBytes = (threads.getCurrentThreadAllocatedBytes() - allocated) / calls;
        start = threads.getCurrentThreadCpuTime();
        allocated = threads.getCurrentThreadAllocatedBytes();
        long queried = 0;
        for (int i = 0; i < calls / 2; i++) {
          QueryRequest query = Data.queryPartition(random.nextInt(partitions));
          queried += database.query(query).count();
        }
        long queryNs = (threads.getCurrentThreadCpuTime() - start) / (calls / 2);
        long queryBytes = (threads.getCurrentThreadAllocatedBytes() - allocated) / (calls / 2);
        if (found != calls || queried != (long) calls / 2 * Data.PER_PARTITION) {
          throw new IllegalStateException(
              "not the scale table: found " + found + " of " + calls + " items, " + queried
                  + " by Query");
        }
        System.out.printf(
            "round %d: GetItem %,d ns %,d bytes, Query %,d ns %,d bytes (thread CPU and"
                + " allocation per call)%n",
            round, getNs, getBytes, queryNs, queryBytes);
      }
    }
  }
}
