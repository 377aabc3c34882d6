package io.stator.storage;

/**
 * A fault of the storage engine itself (I/O, corruption, a lost connection): an internal error,
 * never a client's. A commit that failed this way wrote nothing, unless the exception is a
 * {@link CommitOutcomeUnknownException}.
 */
public sealed class StorageException extends RuntimeException
    permits CommitOutcomeUnknownException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public StorageException(String message) {
    super(message);
  }
}
