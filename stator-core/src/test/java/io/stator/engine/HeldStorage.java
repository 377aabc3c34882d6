package io.stator.engine;

import io.stator.storage.Commit;
import io.stator.storage.Storage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds the first commit that writes two or more items (a TransactWriteItems) at the storage
 * until released, so a test can write one of its items while the transaction is in progress.
 */
public final class HeldStorage extends InterceptingStorage {
  /** Counted down when a transaction's commit is being held. */
  public final CountDownLatch held = new CountDownLatch(1);
  /** Count down to let the held commit reach the storage. */
  public final CountDownLatch release = new CountDownLatch(1);

  public HeldStorage(Storage delegate) {
    super(delegate);
  }

  @Override
  protected void beforeCommit(Commit commit) {
    long items = commit.writes().stream().filter(w -> w.space().startsWith("table.")).count();
    if (items >= 2 && held.getCount() > 0) {
      held.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
