package io.stator.engine;

import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.Consistency;
import io.stator.storage.FaultyStorage;
import io.stator.storage.KeyRead;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A real storage that lets a test act on each commit just before it reaches the storage (hold
 * it, or change something under it), so races between writers can be staged deterministically.
 * Public so that the server module's tests can stage the same races through the wire.
 */
public abstract class InterceptingStorage implements Storage {
  private final Storage delegate;

  protected InterceptingStorage(Storage delegate) {
    this.delegate = delegate;
  }

  /**
   * Runs on the committing thread before {@code commit} is handed to the real storage; not for
   * the engines' stream watermarks, which are published in the background every so often.
   */
  protected abstract void beforeCommit(Commit commit);

  @Override
  public final long commit(Commit commit) {
    if (!FaultyStorage.watermark(commit)) {
      beforeCommit(commit);
    }
    return delegate.commit(commit);
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
  public Optional<StoredRecord> get(String space, StorageKey key) {
    return delegate.get(space, key);
  }

  @Override
  public List<Optional<StoredRecord>> getAll(List<KeyRead> reads, Consistency consistency) {
    return delegate.getAll(reads, consistency);
  }

  @Override
  public List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    return delegate.query(space, partition, lower, upper, forward, limit);
  }

  @Override
  public List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter,
      int limit) {
    return delegate.scan(space, fromPartition, toPartition, startAfter, limit);
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
