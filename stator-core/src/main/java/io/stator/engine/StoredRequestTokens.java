package io.stator.engine;

import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
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
 * of tokens past the window are deleted by the housekeeping ({@link #forgetExpired}, on one
 * engine of those sharing the storage, the holder of its lease), so a store keeps a record per
 * token used in the last ten minutes or so, not per token ever used.
 *
 * <p>Record format: a version byte (1), the completion time in epoch milliseconds, then the
 * request's SHA-256 fingerprint.
 */
final class StoredRequestTokens {
  static final String SPACE = "client-request-tokens";
  private static final byte FORMAT = 1;
  private static final int PAGE = 100;

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
    long completedAt = completedAt(stored.get());
    ByteBuffer value = ByteBuffer.wrap(stored.get().value()).position(1 + 8);
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

  /**
   * Deletes the records of tokens completed longer than DynamoDB's window ago, each expecting
   * the version read, so a token used again meanwhile keeps its new record; returns how many
   * were deleted. A page of {@value #PAGE} records at a time, deletes included, so a large
   * backlog never makes one large commit.
   */
  long forgetExpired() {
    long deleted = 0;
    StorageKey after = null;
    while (true) {
      List<StoredRecord> page = storage.scan(SPACE, null, null, after, PAGE);
      long expiredBefore = clock.millis() - ClientRequestTokens.WINDOW.toMillis();
      for (StoredRecord r : page) {
        if (completedAt(r) >= expiredBefore) {
          continue;
        }
        try {
          storage.commit(new Commit().expect(SPACE, r.key(), r.version()).delete(SPACE, r.key()));
          deleted++;
        } catch (CommitConflictException e) {
          // used again since the read: a live token now
        }
      }
      if (page.size() < PAGE) {
        return deleted;
      }
      after = page.get(page.size() - 1).key();
    }
  }

  private static long completedAt(StoredRecord r) {
    ByteBuffer value = ByteBuffer.wrap(r.value());
    if (value.get() != FORMAT) {
      throw new IllegalStateException("a ClientRequestToken record of an unknown format");
    }
    return value.getLong();
  }

  /** Whether a commit conflict was on a token: another request with it committed first. */
  static boolean isToken(Commit.Expectation failed) {
    return failed.space().equals(SPACE);
  }

  private static StorageKey key(String token) {
    return StorageKey.of(token.getBytes(StandardCharsets.UTF_8));
  }
}
