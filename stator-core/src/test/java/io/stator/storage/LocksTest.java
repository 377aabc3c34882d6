package io.stator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

class LocksTest {

  @Test
  void takesAFreeLock() {
    ReentrantLock lock = new ReentrantLock();
    Locks.lockCommit(lock);
    assertThat(lock.isHeldByCurrentThread()).isTrue();
    lock.unlock();
  }

  @Test
  void aWaiterSpinsWithinItsSpinTimeAndTakesTheLockOnceReleased() throws Exception {
    // A spinning waiter is not queued on the lock; a parked one is.
    assertThat(waitForHeldLock(10_000_000_000L, 200)).isFalse();
  }

  @Test
  void aWaiterParksOnceItsSpinTimeIsOverAndTakesTheLockOnceReleased() throws Exception {
    assertThat(waitForHeldLock(1_000, 10_000)).isTrue();
  }

  /**
   * Holds a lock while another thread takes it with {@code spinNanos}; returns whether that
   * thread was queued (parked) on the lock within {@code watchMillis} of starting to take it, and
   * checks that it took the lock only after its release.
   */
  private static boolean waitForHeldLock(long spinNanos, long watchMillis)
      throws InterruptedException {
    ReentrantLock lock = new ReentrantLock();
    CountDownLatch taking = new CountDownLatch(1);
    AtomicBoolean released = new AtomicBoolean();
    AtomicBoolean tookItAfterRelease = new AtomicBoolean();
    lock.lock();
    Thread waiter =
        new Thread(
            () -> {
              taking.countDown();
              Locks.lockSpinning(lock, spinNanos);
              tookItAfterRelease.set(released.get() && lock.isHeldByCurrentThread());
              lock.unlock();
            });
    waiter.start();
    assertThat(taking.await(30, TimeUnit.SECONDS)).isTrue();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(watchMillis);
    while (!lock.hasQueuedThreads() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    boolean queued = lock.hasQueuedThreads();
    released.set(true);
    lock.unlock();
    waiter.join(30_000);
    assertThat(tookItAfterRelease).isTrue();
    return queued;
  }
}
