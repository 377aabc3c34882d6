package io.stator.lease;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Which engine runs each job in progress (an export, an import, a backup being made, a restore),
 * when several share one storage: a lease per job ({@link Leases}, named {@code <kind>/<id>}),
 * taken before the job is recorded in progress, renewed every third of {@link #TERM} while this
 * engine runs it, and given up when it ends or the engine closes.
 *
 * <p>Why a lease per job rather than a holder and a heartbeat in the job's record: the record is
 * what DescribeExport and DescribeImport answer from and what the job rewrites with its counts,
 * so a heartbeat there would be one more writer racing the job's own updates; a lease is a
 * separate record with the expiry judged as every other background job of the engine judges it.
 * The renewal is periodic, on a thread of its own, rather than between a job's pages or files,
 * because an export's first step (the point-in-time copy of the table) is one long call with no
 * page boundary this package sees.
 *
 * <p>An IN_PROGRESS job is settled ({@link #orphaned}) only by an engine that does not run it
 * and can take its lease: absent (a job recorded before leases, or whose holder closed) or
 * expired (its holder stopped renewing: killed, or cut off from the storage). Taking it makes two
 * engines settling at once take turns; the settling commit expects the version read as well.
 */
public final class JobLeases implements AutoCloseable {
  /** How long a job stays its engine's without a renewal. */
  public static final Duration TERM = Duration.ofSeconds(30);

  private final Leases leases;
  private final String kind;
  private final Set<String> running = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService renewals;

  /**
   * @param kind {@code export}, {@code import}, {@code backup} or {@code restore}: the first
   *     part of the leases' names
   */
  public JobLeases(Leases leases, String kind) {
    this.leases = leases;
    this.kind = kind;
    this.renewals = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "stator-" + kind + "-leases");
      t.setDaemon(true);
      return t;
    });
    long every = TERM.dividedBy(3).toNanos();
    renewals.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.NANOSECONDS);
  }

  /** Makes the new job {@code id} this engine's, before it is recorded IN_PROGRESS. */
  public void start(String id) {
    start(id, () -> { });
  }

  /**
   * Makes the new job {@code id} this engine's, then has {@code record} record it in progress;
   * a record that fails gives the lease up again.
   */
  public void start(String id, Runnable record) {
    if (!startIfFree(id, record)) {
      // A new id (its time and random digits) has no lease: only a broken store says otherwise.
      throw new IllegalStateException("the lease of the new " + kind + " " + id + " is taken");
    }
  }

  /**
   * As {@link #start(String, Runnable)}, for a job whose id a client chooses (a restore's, its
   * backup and table): false, and nothing recorded, when an engine holds the job already.
   */
  public boolean startIfFree(String id, Runnable record) {
    if (!leases.hold(name(id), TERM)) {
      return false;
    }
    running.add(id);
    try {
      record.run();
    } catch (RuntimeException e) {
      end(id);
      throw e;
    }
    return true;
  }

  /** The job {@code id} ended here (completed, failed or cut short): another may settle it. */
  public void end(String id) {
    running.remove(id);
    release(id);
  }

  /**
   * Whether the IN_PROGRESS job {@code id} has no engine any more: not run here, and its lease
   * absent or expired, which this engine then takes, so that no other settles it meanwhile.
   * The caller settles it and calls {@link #release}.
   */
  public boolean orphaned(String id) {
    return !running.contains(id) && leases.hold(name(id), TERM);
  }

  /**
   * Takes up the job {@code id} cut short on another engine (or this one) if {@link #orphaned}:
   * it is then this engine's, renewed while it runs, until {@link #end}.
   */
  public boolean resume(String id) {
    if (!orphaned(id)) {
      return false;
    }
    running.add(id);
    return true;
  }

  /** Gives the lease of {@code id} up if this engine holds it. */
  public void release(String id) {
    try {
      leases.release(name(id));
    } catch (RuntimeException e) {
      // the storage is failing: the lease expires at the end of its term instead
    }
  }

  private void renew() {
    for (String id : running) {
      try {
        if (!leases.hold(name(id), TERM)) {
          System.err.println("stator: the lease of " + kind + " " + id + " was taken over while"
              + " it ran (this server paused past " + TERM + "); another server settles it");
        }
      } catch (RuntimeException e) {
        System.err.println("stator: the lease of " + kind + " " + id + " could not be renewed,"
            + " retried in " + TERM.dividedBy(3) + ": " + e);
      }
    }
  }

  private String name(String id) {
    return kind + "/" + id;
  }

  /** Stops renewing and gives up the leases of the jobs still running, which the close stops. */
  @Override
  public void close() {
    renewals.shutdownNow();
    for (String id : running) {
      release(id);
    }
    running.clear();
  }
}
