package io.stator.storage;

/** A commit was refused because an expectation did not hold; nothing was written. */
public final class CommitConflictException extends RuntimeException {
  private final Commit.Expectation failed;

  public CommitConflictException(Commit.Expectation failed) {
    super("version conflict on " + failed.space() + " " + failed.key(), null, false, false);
    this.failed = failed;
  }

  public Commit.Expectation failed() {
    return failed;
  }
}
