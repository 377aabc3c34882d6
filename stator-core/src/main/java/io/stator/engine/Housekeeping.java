package io.stator.engine;

import io.stator.lease.Leases;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The engine's periodic chores that belong to no table: dropping the spaces no table names
 * ({@code schema.OrphanSpaces}), forgetting ClientRequestTokens past DynamoDB's window, and
 * having the propagator apply what a stopped engine left in the GSI change logs ({@code
 * Indexes.sweepChangeLogs}). They run once every {@link #INTERVAL} on one daemon thread, each on
 * its own (a failed chore is reported and tried again next time, without stopping the others).
 * Nothing here is urgent: every chore only removes what no request can see any more, or applies
 * to the GSIs, late, what the engine that wrote it was to apply.
 *
 * <p>Of several engines on one storage, the one holding the lease {@value #LEASE} does the
 * chores ({@link Leases}; a term of three intervals, renewed at each run), so they are done once,
 * not once per server; another takes them over when the holder stops. Two engines doing them at
 * once would still be right, only wasteful.
 *
 * <p>A few chores are every engine's own, run at each tick before the lease is asked for: they
 * look at what another engine changed in the shared storage (a table that gained a Time to Live,
 * so this engine starts the sweeper whose lease it may have to take over), or settle what a
 * stopped engine left (the exports, imports, backups being made and restores whose lease
 * expired, which any engine may settle, one at a time through that lease, so they do not wait
 * for the housekeeping's lease to move).
 */
final class Housekeeping implements AutoCloseable {
  static final Duration INTERVAL = Duration.ofMinutes(1);
  static final String LEASE = "housekeeping";
  private static final Duration TERM = INTERVAL.multipliedBy(3);

  private final List<Runnable> chores;
  private final List<Runnable> everyEngine;
  private final Leases leases;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stator-housekeeping");
        t.setDaemon(true);
        return t;
      });

  Housekeeping(List<Runnable> chores, List<Runnable> everyEngine, Leases leases) {
    this.chores = List.copyOf(chores);
    this.everyEngine = List.copyOf(everyEngine);
    this.leases = leases;
    long nanos = INTERVAL.toNanos();
    thread.scheduleWithFixedDelay(this::runQuietly, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Runs this engine's own chores now, on the caller's thread, then every leased chore if this
   * engine holds the lease (taking or renewing it); a chore's failure is thrown. False when
   * another engine holds the lease.
   */
  synchronized boolean runNow() {
    everyEngine.forEach(Runnable::run);
    if (!leases.hold(LEASE, TERM)) {
      return false;
    }
    for (Runnable chore : chores) {
      chore.run();
    }
    return true;
  }

  private synchronized void runQuietly() {
    runEach(everyEngine);
    try {
      if (!leases.hold(LEASE, TERM)) {
        return;
      }
    } catch (RuntimeException e) {
      System.err.println("stator: the housekeeping lease could not be read: " + e);
      return;
    }
    runEach(chores);
  }

  private static void runEach(List<Runnable> some) {
    for (Runnable chore : some) {
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
