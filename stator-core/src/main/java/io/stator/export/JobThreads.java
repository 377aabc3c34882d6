package io.stator.export;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The threads exports or imports run on: daemon threads, one a job, so a job never holds up a
 * request or the process's exit. Closing interrupts the jobs, which stop at their next line or
 * page and leave their record IN_PROGRESS for the next start to settle.
 */
final class JobThreads implements AutoCloseable {
  private final ExecutorService pool;

  JobThreads(String name) {
    pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  void execute(Runnable job) {
    pool.execute(job);
  }

  @Override
  public void close() {
    pool.shutdownNow();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
