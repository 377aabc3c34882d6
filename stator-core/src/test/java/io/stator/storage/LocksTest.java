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
    Locks.lockSpinning(lock, 20_000);
    assertThat(lock.isHeldByCurrentThread()).isTrue();
    lock.unlock();
  }

  @Test
  void takesAHeldLockOnlyOnceItsHolderReleasesIt() throws Exception {
    // held for a short time (within the spin) and for a long one (the waiter parks)
    for (long holdMillis : new long[] {0, 50}) {
      ReentrantLock lock = new ReentrantLock();
      AtomicBoolean released = new AtomicBoolean();
      CountDownLatch held = new CountDownLatch(1);
      Thread holder =
          new Thread(
              () -> {
                lock.lock();
                held.countDown();
                try {
                  Thread.sleep(holdMillis);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                released.set(true);
                lock.unlock();
              });
      holder.start();
      assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();

      Locks.lockSpinning(lock, 1_000);

      assertThat(released).isTrue();
      assertThat(lock.isHeldByCurrentThread()).isTrue();
      lock.unlock();
      holder.join();
    }
  }
}
