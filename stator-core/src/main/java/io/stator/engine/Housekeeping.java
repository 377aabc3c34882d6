package io.stator.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The engine's periodic chores that belong to no table: dropping the spaces no table names
 * ({@code schema.OrphanSpaces}), and forgetting ClientRequestTokens past DynamoDB's window. They
 * run once every {@link #INTERVAL} on one daemon thread, each on its own (a failed chore is
 * reported and tried again next time, without stopping the others). Nothing here is urgent:
 * every chore only removes what no request can see any more.
 */
final class Housekeeping implements AutoCloseable {
  static final Duration INTERVAL = Duration.ofMinutes(1);

  private final List<Runnable> chores;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stator-housekeeping");
        t.setDaemon(true);
        return t;
      });

  Housekeeping(List<Runnable> chores) {
    this.chores = List.copyOf(chores);
    long nanos = INTERVAL.toNanos();
    thread.scheduleWithFixedDelay(this::runQuietly, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /** Runs every chore now, on the caller's thread; a chore's failure is thrown. */
  synchronized void runNow() {
    for (Runnable chore : chores) {
      chore.run();
    }
  }

  private synchronized void runQuietly() {
    for (Runnable chore : chores) {
      try {
        chore.run();
      } catch (RuntimeException e) {
        System.err.println("stator: housekeeping failed, retried in " + INTERVAL + ": " + e);
      }
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
