package io.stator.storage;

import io.stator.stream.Streams;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A real storage with faults a test switches on (Lucene's {@code MockDirectoryWrapper} pattern):
 * commits that fail before anything is written, commits that are written and then fail (what a
 * storage that does not report an unknown outcome would say), commits whose outcome is unknown,
 * applied or not ({@link CommitOutcomeUnknownException}, what a client of a remote storage sees
 * when the answer to a commit is lost), slow commits, and reads that fail. Each fault applies to
 * the next {@code n} operations that match its filter, so a test can aim at one space (an
 * index, a stream) and check what the engine answers and what it leaves behind. The engines'
 * stream watermarks, published in the background every so often, never take a fault or a delay
 * aimed at what a test does, only one aimed at them ({@link #holdWatermarks}).
 */
public final class FaultyStorage implements Storage {
  private final Storage delegate;
  private final AtomicInteger failBefore = new AtomicInteger();
  private final AtomicInteger failAfter = new AtomicInteger();
  private final AtomicInteger failReads = new AtomicInteger();
  private final AtomicInteger timeOutReads = new AtomicInteger();
  private final AtomicInteger unknownApplied = new AtomicInteger();
  private final AtomicInteger unknownNotApplied = new AtomicInteger();
  // Versions for commits that are never applied: negative, so no storage ever issues one
  private final AtomicLong neverIssued = new AtomicLong(Long.MIN_VALUE);
  private final AtomicInteger failures = new AtomicInteger();
  private volatile Predicate<Commit> commitFilter = commit -> true;
  private volatile Predicate<String> readFilter = space -> true;
  private volatile long commitDelayNanos;
  private volatile CountDownLatch commitEntered;
  private volatile CountDownLatch commitReleased;
  private volatile Predicate<String> heldReads = space -> false;
  private volatile CountDownLatch readEntered;
  private volatile CountDownLatch readReleased;
  private volatile CountDownLatch watermarksReleased;

  public FaultyStorage(Storage delegate) {
    this.delegate = delegate;
  }

  /** The next {@code n} commits accepted by {@link #onlyCommits} fail and write nothing. */
  public FaultyStorage failCommits(int n) {
    failBefore.set(n);
    return this;
  }

  /** The next {@code n} matching commits are written, then fail as if their answer were lost. */
  public FaultyStorage failCommitsAfterWriting(int n) {
    failAfter.set(n);
    return this;
  }

  /**
   * The next {@code n} matching commits are applied, then end with {@link
   * CommitOutcomeUnknownException}: what a networked storage reports when a commit's answer is
   * lost after the commit took effect.
   */
  public FaultyStorage unknownOutcomeAfterApplying(int n) {
    unknownApplied.set(n);
    return this;
  }

  /**
   * The next {@code n} matching commits are not applied, and end with {@link
   * CommitOutcomeUnknownException}: a timeout before the commit took effect. The version they
   * carry is one no storage issues, as the version a commit that never lands would have got
   * would never be seen either.
   */
  public FaultyStorage unknownOutcomeWithoutApplying(int n) {
    unknownNotApplied.set(n);
    return this;
  }

  /** The next {@code n} point, range and scan reads fail. */
  public FaultyStorage failReads(int n) {
    failReads.set(n);
    return this;
  }

  /**
   * The next {@code n} matching reads fail with {@link StorageTimeoutException}: what a remote
   * storage reports when a node did not answer within its bound.
   */
  public FaultyStorage timeOutReads(int n) {
    timeOutReads.set(n);
    return this;
  }

  /**
   * Reads of a space {@code space} accepts wait until {@code released} opens, counting down
   * {@code entered} as each begins to wait: a stalled storage for reads, as {@link #holdCommits}
   * is for commits. Independent of {@link #onlyReads}, so a test can hold one space's reads
   * while another's fail.
   */
  public FaultyStorage holdReads(
      Predicate<String> space, CountDownLatch entered, CountDownLatch released) {
    heldReads = space;
    readEntered = entered;
    readReleased = released;
    return this;
  }

  /** Every commit waits {@code delay} before it is applied. */
  public FaultyStorage slowCommits(Duration delay) {
    commitDelayNanos = delay.toNanos();
    return this;
  }

  /**
   * Matching commits wait, before they are applied, until {@code released} opens, counting down
   * {@code entered} as each begins to wait: a storage that stalls (a remote one whose node has
   * stopped answering) for exactly as long as a test wants, with no timing in the test; a null
   * {@code released} holds no more commits.
   */
  public FaultyStorage holdCommits(CountDownLatch entered, CountDownLatch released) {
    commitEntered = entered;
    commitReleased = released;
    return this;
  }

  /** Commit faults apply only to commits that write to a space {@code space} accepts. */
  public FaultyStorage onlyCommits(Predicate<String> space) {
    commitFilter = commit -> commit.writes().stream().anyMatch(w -> space.test(w.space()));
    return this;
  }

  /**
   * Read faults apply only to reads of a space {@code space} accepts, so that a background job
   * (GSI propagation, a TTL sweep) reading its own spaces cannot take a fault aimed at a request.
   */
  public FaultyStorage onlyReads(Predicate<String> space) {
    readFilter = space;
    return this;
  }

  /** How many faults have been injected so far. */
  public int injected() {
    return failures.get();
  }

  /** Whether {@code commit} only writes the engines' own bookkeeping of stream writers. */
  public static boolean watermark(Commit commit) {
    return !commit.writes().isEmpty()
        && commit.writes().stream().allMatch(w -> w.space().equals(Streams.WRITERS_SPACE));
  }

  /**
   * Holds the engines' watermark publications until {@code released}, as a paused process's stop
   * (its publisher with it): the only fault aimed at them.
   */
  public FaultyStorage holdWatermarks(CountDownLatch released) {
    watermarksReleased = released;
    return this;
  }

  @Override
  public long commit(Commit commit) {
    if (watermark(commit)) {
      CountDownLatch released = watermarksReleased;
      if (released != null) {
        hold(null, released);
      }
      return delegate.commit(commit);
    }
    long delay = commitDelayNanos;
    if (delay > 0) {
      try {
        Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException("interrupted while committing", e);
      }
    }
    boolean matches = commitFilter.test(commit);
    CountDownLatch released = commitReleased;
    if (matches && released != null) {
      hold(commitEntered, released);
    }
    if (matches && take(failBefore)) {
      throw new StorageException("injected: commit failed, nothing written");
    }
    if (matches && take(unknownNotApplied)) {
      boolean puts = commit.writes().stream().anyMatch(w -> !w.isDelete());
      throw new CommitOutcomeUnknownException(
          "injected: commit not applied, outcome unknown",
          puts ? neverIssued.getAndIncrement() : Commit.Expectation.ABSENT,
          null);
    }
    long version = delegate.commit(commit);
    if (matches && take(failAfter)) {
      throw new StorageException("injected: commit written, answer lost");
    }
    if (matches && take(unknownApplied)) {
      throw new CommitOutcomeUnknownException(
          "injected: commit applied, outcome unknown", version, null);
    }
    return version;
  }

  @Override
  public Optional<StoredRecord> get(String space, StorageKey key) {
    failRead(space);
    return delegate.get(space, key);
  }

  @Override
  public List<Optional<StoredRecord>> getAll(List<KeyRead> reads, Consistency consistency) {
    for (KeyRead read : reads) {
      failRead(read.space());
    }
    return delegate.getAll(reads, consistency);
  }

  @Override
  public List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    failRead(space);
    return delegate.query(space, partition, lower, upper, forward, limit);
  }

  @Override
  public List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    failRead(space);
    return delegate.scan(space, fromPartition, toPartition, startAfter, limit);
  }

  private void failRead(String space) {
    if (space.equals(Streams.WRITERS_SPACE)) {
      return;
    }
    CountDownLatch released = readReleased;
    if (released != null && heldReads.test(space)) {
      hold(readEntered, released);
    }
    if (readFilter.test(space) && take(failReads)) {
      throw new StorageException("injected: read failed");
    }
    if (readFilter.test(space) && take(timeOutReads)) {
      throw new StorageTimeoutException("injected: read timed out", null);
    }
  }

  private static void hold(CountDownLatch entered, CountDownLatch released) {
    if (entered != null) {
      entered.countDown();
    }
    try {
      released.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while held", e);
    }
  }

  private boolean take(AtomicInteger remaining) {
    while (true) {
      int n = remaining.get();
      if (n <= 0) {
        return false;
      }
      if (remaining.compareAndSet(n, n - 1)) {
        failures.incrementAndGet();
        return true;
      }
    }
  }

  @Override
  public void createSpace(String space) {
    delegate.createSpace(space);
  }

  @Override
  public void dropSpace(String space) {
    delegate.dropSpace(space);
  }

  /** The storage's own copy, at one instant where it is one; not a fault of its own. */
  @Override
  public void copySpace(String source, String target) {
    delegate.copySpace(source, target);
  }

  @Override
  public Set<String> spaces() {
    return delegate.spaces();
  }

  @Override
  public boolean copiesAtOneInstant() {
    return delegate.copiesAtOneInstant();
  }

  @Override
  public boolean sharedByProcesses() {
    return delegate.sharedByProcesses();
  }

  @Override
  public SpaceStats stats(String space) {
    return delegate.stats(space);
  }

  @Override
  public void deferDurabilityOnThisThread() {
    delegate.deferDurabilityOnThisThread();
  }

  @Override
  public void awaitDurable() {
    delegate.awaitDurable();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
