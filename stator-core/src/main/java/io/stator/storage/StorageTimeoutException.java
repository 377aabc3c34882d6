package io.stator.storage;

/**
 * The storage did not answer within its own bound (a remote node that stopped answering): an
 * internal error, like any {@link StorageException}, that also says another call made at once
 * would most likely wait as long. So the engine answers it as it is, asking the storage nothing
 * more, and the request's wait stays within that one bound.
 */
public final class StorageTimeoutException extends StorageException {
  public StorageTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
