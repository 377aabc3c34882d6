package io.stator.engine;

import io.stator.lease.Leases;
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
 *
 * <p>Of several engines on one storage, the one holding the lease {@value #LEASE} does the
 * chores ({@link Leases}; a term of three intervals, renewed at each run), so they are done once,
 * not once per server; another takes them over when the holder stops. Two engines doing them at
 * once would still be right, only wasteful.
 */
final class Housekeeping implements AutoCloseable {
  static final Duration INTERVAL = Duration.ofMinutes(1);
  static final String LEASE = "housekeeping";
  private static final Duration TERM = INTERVAL.multipliedBy(3);

  private final List<Runnable> chores;
  private final Leases leases;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stator-housekeeping");
        t.setDaemon(true);
        return t;
      });

  Housekeeping(List<Runnable> chores, Leases leases) {
    this.chores = List.copyOf(chores);
    this.leases = leases;
    long nanos = INTERVAL.toNanos();
    thread.scheduleWithFixedDelay(this::runQuietly, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Runs every chore now, on the caller's thread, if this engine holds the lease (taking or
   * renewing it); a chore's failure is thrown. False when another engine holds the lease.
   */
  synchronized boolean runNow() {
    if (!leases.hold(LEASE, TERM)) {
      return false;
    }
    for (Runnable chore : chores) {
      chore.run();
    }
    return true;
  }

  private synchronized void runQuietly() {
    try {
      if (!leases.hold(LEASE, TERM)) {
        return;
      }
    } catch (RuntimeException e) {
      System.err.println("stator: the housekeeping lease could not be read: " + e);
      return;
    }
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
    try {
      leases.release(LEASE);
    } catch (RuntimeException e) {
      // the storage is failing: the lease expires at the end of its term instead
    }
  }
}
