package io.stator.engine;

import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.Optional;

/**
 * The ClientRequestTokens of applied TransactWriteItems, kept in the storage (space {@value
 * #SPACE}) and written in the transaction's own commit, so that a retry reaching another engine
 * on the same storage (another server of a shared store), or this one after a restart, is not
 * applied twice within DynamoDB's 10-minute window.
 *
 * <p>A transaction with a token reads the token's record before it runs: applied within the
 * window with the same request, the transaction is not run again; with another request, it is
 * IdempotentParameterMismatchException. Otherwise the transaction's commit expects the record it
 * read (absent, or expired) and writes the token with the commit's time, so the token is stored
 * if and only if the transaction committed. Two engines running the same token at once both
 * read it absent; one commits, and the other's commit conflicts on the token and is answered
 * TransactionInProgressException, as DynamoDB answers a repeat while the first is still running;
 * the SDK's retry of that then finds the token applied.
 *
 * <p>{@link ClientRequestTokens} stays in front of this: it answers a repeat on this engine
 * without a read, tells a running request, and keeps the commits of an unknown outcome. Records
 * of expired tokens are overwritten by the next use of their token but not yet removed
 * otherwise: a store keeps one small record per token ever used.
 *
 * <p>Record format: a version byte (1), the completion time in epoch milliseconds, then the
 * request's SHA-256 fingerprint.
 */
final class StoredRequestTokens {
  static final String SPACE = "client-request-tokens";
  private static final byte FORMAT = 1;

  /** What a token's record says: the version a commit must expect, and whether it applies. */
  record Found(long version, boolean applied) {}

  private final Storage storage;
  private final Clock clock;

  StoredRequestTokens(Storage storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
    storage.createSpace(SPACE);
  }

  /**
   * The token's record: applied when the same request committed with it within the window;
   * IdempotentParameterMismatchException when another request did.
   */
  Found find(String token, byte[] fingerprint) {
    Optional<StoredRecord> stored = storage.get(SPACE, key(token));
    if (stored.isEmpty()) {
      return new Found(Commit.Expectation.ABSENT, false);
    }
    ByteBuffer value = ByteBuffer.wrap(stored.get().value());
    if (value.get() != FORMAT) {
      throw new IllegalStateException("a ClientRequestToken record of an unknown format");
    }
    long completedAt = value.getLong();
    byte[] storedFingerprint = new byte[value.remaining()];
    value.get(storedFingerprint);
    long version = stored.get().version();
    if (completedAt + ClientRequestTokens.WINDOW.toMillis() < clock.millis()) {
      return new Found(version, false);
    }
    if (!Arrays.equals(storedFingerprint, fingerprint)) {
      throw ClientRequestTokens.mismatchError();
    }
    return new Found(version, true);
  }

  /** Adds the token to the transaction's commit, expecting the record {@code found} read. */
  void stage(Commit commit, String token, byte[] fingerprint, Found found) {
    StorageKey key = key(token);
    byte[] value = ByteBuffer.allocate(1 + 8 + fingerprint.length)
        .put(FORMAT).putLong(clock.millis()).put(fingerprint).array();
    commit.expect(SPACE, key, found.version()).put(SPACE, key, value);
  }

  /** Whether a commit conflict was on a token: another request with it committed first. */
  static boolean isToken(Commit.Expectation failed) {
    return failed.space().equals(SPACE);
  }

  private static StorageKey key(String token) {
    return StorageKey.of(token.getBytes(StandardCharsets.UTF_8));
  }
}
