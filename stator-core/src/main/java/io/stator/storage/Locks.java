package io.stator.storage;

import java.util.concurrent.locks.Lock;

/** Lock acquisition for a storage's commits. */
public final class Locks {
  /**
   * How long a commit spins for its storage's lock before it parks. Under PutItem with two event
   * loops, against parking at once: on RocksDB, whose commit holds the lock through one write
   * (15-20 µs), 15-25% more requests for the same CPU per request (UpdateItem 20-30%); in memory,
   * 4-11% more requests and 4-12% less CPU per request.
   */
  static final long COMMIT_SPIN_NANOS = 20_000;

  private Locks() {}

  /** Takes a storage's commit lock: {@link #lockSpinning} for {@link #COMMIT_SPIN_NANOS}. */
  public static void lockCommit(Lock lock) {
    lockSpinning(lock, COMMIT_SPIN_NANOS);
  }

  /**
   * Takes {@code lock}, spinning up to {@code spinNanos} before parking.
   *
   * <p>A commit holds its storage's lock for a short, bounded time (microseconds in memory, one
   * RocksDB write on disk), and with two event loops the other loop's commit often arrives
   * meanwhile. Parked, it paid a futex wake and a trip through the scheduler, and its loop's
   * other connections waited with it; spinning, it takes the lock as soon as it is free. A
   * waiter that spins longer than {@code spinNanos} (a large batch, a RocksDB write stall) parks
   * as before. Measured in docs/performance.md ("A commit spins for the commit lock").
   */
  static void lockSpinning(Lock lock, long spinNanos) {
    if (lock.tryLock()) {
      return;
    }
    long deadline = System.nanoTime() + spinNanos;
    do {
      Thread.onSpinWait();
      if (lock.tryLock()) {
        return;
      }
    } while (System.nanoTime() - deadline < 0);
    lock.lock();
  }
}
