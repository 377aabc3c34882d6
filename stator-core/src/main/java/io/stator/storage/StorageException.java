package io.stator.storage;

/**
 * A fault of the storage engine itself (I/O, corruption, a lost connection): an internal error,
 * never a client's. A commit that failed this way wrote nothing, unless the exception is a
 * {@link CommitOutcomeUnknownException}. A {@link StorageTimeoutException} is one the storage
 * gave up waiting for.
 */
public sealed class StorageException extends RuntimeException
    permits CommitOutcomeUnknownException, StorageTimeoutException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public StorageException(String message) {
    super(message);
  }
}
