package io.stator.lease;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
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
 *
 * <p>A holder that paused past its term (a long GC pause, a stopped process) may resume after
 * another engine took its job over. Each renewal therefore expects the lease record as this
 * engine last wrote it, where {@link Leases#hold} would take an expired or absent lease back: a
 * lease taken over, or taken and given up since, is lost for good, and the job, which asks
 * {@link #holds} before each of its writes, stops and leaves its work to the engine that took
 * it.
 */
public final class JobLeases implements AutoCloseable {
  /** How long a job stays its engine's without a renewal. */
  public static final Duration TERM = Duration.ofSeconds(30);
  /** How often a running job's lease is renewed: three times a term. */
  private static final Duration RENEWAL = TERM.dividedBy(3);

  private final Leases leases;
  private final String kind;
  /** The jobs this engine runs, until they end, each with its lease as this engine wrote it. */
  private final Map<String, Running> running = new ConcurrentHashMap<>();
  private final ScheduledExecutorService renewals;

  /** A job this engine runs: its lease as last taken or renewed, null once lost. */
  private static final class Running {
    Leases.Lease lease;

    Running(Leases.Lease lease) {
      this.lease = lease;
    }
  }

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
    long every = RENEWAL.toNanos();
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
    if (!take(id)) {
      return false;
    }
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
    return !running.containsKey(id) && leases.hold(name(id), TERM);
  }

  /**
   * Takes up the job {@code id} cut short on another engine (or this one) if {@link #orphaned}:
   * it is then this engine's, renewed while it runs, until {@link #end}.
   */
  public boolean resume(String id) {
    return take(id);
  }

  /**
   * Makes the job {@code id} this engine's if it runs here not already and its lease is free:
   * a second request for a job this engine runs must not take the lease again, which would
   * renew it under the running job (whose next renewal would find it changed) and end it.
   */
  private boolean take(String id) {
    Running job = new Running(null);
    if (running.putIfAbsent(id, job) != null) {
      return false;
    }
    Optional<Leases.Lease> lease = leases.take(name(id), TERM);
    if (lease.isEmpty()) {
      running.remove(id, job);
      return false;
    }
    synchronized (job) {
      job.lease = lease.get();
    }
    return true;
  }

  /**
   * Whether the job {@code id} that this engine runs is still its own, for the job to ask before
   * each of its writes: a lease that lasts a renewal period more is (no other engine takes it
   * before it expires, by clocks kept in step); one nearer its end, as after a pause of this
   * server, is renewed first, expecting its record as this engine last wrote it. False once
   * another engine took the job over (or took it and gave it up since): the job must then stop
   * without writing more, and leave what it was doing to the engine that took it.
   *
   * <p>What stays open: a pause after this answers and before the write, longer than the lease
   * has left, lets that one write land after a takeover; a job's writes carry no fencing token
   * for the storage to check.
   */
  public boolean holds(String id) {
    Running job = running.get(id);
    if (job == null) {
      return false;
    }
    synchronized (job) {
      if (job.lease != null && !leases.lasts(job.lease, RENEWAL)) {
        renew(id, job);
      }
      return job.lease != null;
    }
  }

  /**
   * As {@link #holds}, for a job that stops from deep inside its work (a line of a file, an item
   * of a table): throws {@link Lost} once the job {@code id} is no longer this engine's, for the
   * job's run to catch and leave the job as the engine that took it has it.
   */
  public void check(String id) {
    if (!holds(id)) {
      throw new Lost(kind + " " + id);
    }
  }

  /** Thrown by {@link #check}: another engine took the job over or settled it. */
  public static final class Lost extends RuntimeException {
    Lost(String job) {
      super(job + " was taken over by another server", null, false, false);
    }
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
    for (Map.Entry<String, Running> job : running.entrySet()) {
      try {
        synchronized (job.getValue()) {
          if (job.getValue().lease != null) {
            renew(job.getKey(), job.getValue());
          }
        }
      } catch (RuntimeException e) {
        System.err.println("stator: the lease of " + kind + " " + job.getKey() + " could not be"
            + " renewed, retried in " + RENEWAL + ": " + e);
      }
    }
  }

  /** Renews a job's lease, expecting its record as last written; holding the job's monitor. */
  private void renew(String id, Running job) {
    job.lease = leases.renew(name(id), TERM, job.lease).orElse(null);
    if (job.lease == null) {
      System.err.println("stator: the lease of " + kind + " " + id + " was taken over while it"
          + " ran (this server paused past " + TERM + "); it stops before its next write and"
          + " leaves the job to the server that took it");
    }
  }

  private String name(String id) {
    return kind + "/" + id;
  }

  /** Stops renewing and gives up the leases of the jobs still running, which the close stops. */
  @Override
  public void close() {
    renewals.shutdownNow();
    for (String id : running.keySet()) {
      release(id);
    }
    running.clear();
  }
}
