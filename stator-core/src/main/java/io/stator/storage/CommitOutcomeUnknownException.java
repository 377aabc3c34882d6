package io.stator.storage;

/**
 * A commit failed after it may have been applied: its request timed out, or the connection that
 * carried it was lost, or its write may survive a restart that the storage could not make sure
 * of. It was applied wholly or not at all, and the storage cannot tell which; it may even be
 * applied later (a distributed store's coordinator can finish a transaction whose client gave up).
 *
 * <p>What it carries lets the caller find out: {@link #version} is the version the commit's puts
 * got if it was applied (the storage takes it before sending the commit), or {@link
 * Commit.Expectation#ABSENT} when the commit had no put. A key that one of its puts wrote and that
 * now holds that version shows that it was applied, since no other commit is ever given the same
 * version. A key that still holds the version the commit expected shows only that it has not
 * been applied yet; a new commit expecting that same version fences it off, as only one of the two
 * can find the key unchanged.
 */
public final class CommitOutcomeUnknownException extends StorageException {
  private final long version;

  public CommitOutcomeUnknownException(String message, long version, Throwable cause) {
    super(message, cause);
    this.version = version;
  }

  /** The version the commit's puts got if it was applied, or ABSENT when it had none. */
  public long version() {
    return version;
  }
}
