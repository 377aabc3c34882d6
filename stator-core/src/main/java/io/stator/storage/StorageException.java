package io.stator.storage;

/** A fault of the storage engine itself (I/O, corruption): an internal error, never a client's. */
public final class StorageException extends RuntimeException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public StorageException(String message) {
    super(message);
  }
}
