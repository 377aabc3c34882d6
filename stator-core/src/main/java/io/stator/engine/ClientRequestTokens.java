package io.stator.engine;

import io.stator.api.ConditionCheck;
import io.stator.api.Delete;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.Put;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.engine.UnknownOutcomes.UnknownCommit;
import io.stator.item.ItemCodec;
import io.stator.value.AttributeValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The ClientRequestTokens of TransactWriteItems seen in the last 10 minutes, for idempotency.
 *
 * <p>DynamoDB's rules: a token is valid for 10 minutes after the first request using it
 * completed; the same token with the same request in that window succeeds without applying the
 * transaction again; with a different request it is an IdempotentParameterMismatchException;
 * while the first request is still running, a repeat is a TransactionInProgressException. A
 * cancelled transaction applied nothing, so its token is forgotten and a retry runs again.
 *
 * <p>A transaction answered with an unknown outcome (a 500: its commit may or may not have been
 * applied, and the engine could not find out) keeps its token, with the commits in question. A
 * retry with the same token, which every SDK sends by itself, finds out about them first: one
 * that landed makes the retry answer success without applying it again; ones that have not
 * landed are fenced off by the retry's own commit (see {@code UnknownOutcomes}); and while they
 * still cannot be told, the retry answers the 500 again. The token is never forgotten while the
 * transaction may have been applied.
 *
 * <p>A request is remembered by a SHA-256 fingerprint of its parameters (not the request itself,
 * which may be megabytes), so 10 minutes of tokens cost about 100 bytes each.
 *
 * <p>This engine's memory is in front of {@link StoredRequestTokens}, which writes each applied
 * token in its transaction's commit: a restart, or another engine on the same storage, finds an
 * applied token there. What only this memory knows: a request still running on this engine, and
 * the commits of an unknown outcome.
 */
final class ClientRequestTokens {
  static final Duration WINDOW = Duration.ofMinutes(10);

  /**
   * A token's request: running ({@code completedAt} null), or answered at {@code completedAt},
   * applied unless {@code unknown} holds the commits whose outcome it could not tell.
   */
  private record Entry(byte[] fingerprint, Instant completedAt, List<UnknownCommit> unknown) {
    boolean inProgress() {
      return completedAt == null;
    }
  }

  /**
   * What {@link #begin} found under a token: nothing ({@link #FRESH}), the same request applied
   * ({@link #APPLIED}), or the same request answered with an unknown outcome, whose commits the
   * caller must find out about before it runs the request again (see {@code UnknownOutcomes}).
   */
  record Begun(boolean applied, List<UnknownCommit> unknown) {
    static final Begun FRESH = new Begun(false, List.of());
    static final Begun APPLIED = new Begun(true, List.of());
  }

  private record Completion(String token, Instant at) {}

  private final Clock clock;
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Completion> completions = new ConcurrentLinkedQueue<>();

  ClientRequestTokens(Clock clock) {
    this.clock = clock;
  }

  /**
   * Starts a request with {@code token}: {@link Begun#APPLIED} when the same request was applied
   * within the window (the caller answers success without applying it); otherwise the caller
   * runs it, after finding out about the commits {@link Begun#unknown} lists, and then calls
   * {@link #complete}, {@link #abandon} or {@link #unknown}.
   */
  Begun begin(String token, byte[] fingerprint) {
    expire();
    Entry running = new Entry(fingerprint, null, List.of());
    while (true) {
      Entry existing = entries.putIfAbsent(token, running);
      if (existing == null) {
        return Begun.FRESH;
      }
      if (!existing.inProgress() && expired(existing.completedAt())) {
        entries.remove(token, existing);
        continue;
      }
      if (!Arrays.equals(existing.fingerprint(), fingerprint)) {
        throw mismatchError();
      }
      if (existing.inProgress()) {
        throw inProgressError();
      }
      if (existing.unknown().isEmpty()) {
        return Begun.APPLIED;
      }
      // Answered with an unknown outcome: this retry runs, and finds out about it first
      if (entries.replace(token, existing, new Entry(fingerprint, null, existing.unknown()))) {
        return new Begun(false, existing.unknown());
      }
    }
  }

  /** The token was used with another request within the window. */
  static DynamoDbException mismatchError() {
    // Wording not confirmed against DynamoDB (no reference we compare with records it); the
    // error type is the one the API model documents for TransactWriteItems.
    return new DynamoDbException(
        ErrorType.IdempotentParameterMismatchException,
        "The request uses the same client token as a previous, but non-identical request.");
  }

  /** A request with the token is still running (here, or committing on another engine). */
  static DynamoDbException inProgressError() {
    return new DynamoDbException(
        ErrorType.TransactionInProgressException,
        "The transaction with the given request token is already in progress.");
  }

  /** The request with {@code token} was applied: remember it for the window. */
  void complete(String token) {
    answered(token, List.of());
  }

  /**
   * The request with {@code token} was answered with an unknown outcome, its commits {@code
   * unknown}: remember them for the window, so that a retry with the token finds out about them
   * rather than applying the request a second time.
   */
  void unknown(String token, List<UnknownCommit> unknown) {
    answered(token, List.copyOf(unknown));
  }

  private void answered(String token, List<UnknownCommit> unknown) {
    Instant now = clock.instant();
    entries.computeIfPresent(token, (t, e) -> new Entry(e.fingerprint(), now, unknown));
    completions.add(new Completion(token, now));
  }

  /** The request with {@code token} applied nothing: forget the token. */
  void abandon(String token) {
    entries.computeIfPresent(token, (t, e) -> e.inProgress() ? null : e);
  }

  /** The number of tokens remembered (for tests). */
  int size() {
    expire();
    return entries.size();
  }

  private void expire() {
    while (true) {
      Completion c = completions.peek();
      if (c == null || !expired(c.at())) {
        return;
      }
      if (completions.remove(c)) {
        entries.computeIfPresent(
            c.token(), (t, e) -> c.at().equals(e.completedAt()) ? null : e);
      }
    }
  }

  private boolean expired(Instant completedAt) {
    return completedAt.plus(WINDOW).isBefore(clock.instant());
  }

  // ---- fingerprints -------------------------------------------------------------------------

  /**
   * A digest of every parameter of the request except the token. Maps are hashed in key order,
   * so a client that serializes the same request with members in another order still matches.
   */
  static byte[] fingerprint(TransactWriteItemsRequest r) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
    Fingerprint f = new Fingerprint(digest);
    f.string(r.returnConsumedCapacity());
    f.string(r.returnItemCollectionMetrics());
    for (TransactWriteItem item : r.transactItems()) {
      if (item.conditionCheck() != null) {
        ConditionCheck a = item.conditionCheck();
        f.string("ConditionCheck").string(a.tableName()).item(a.key())
            .string(a.conditionExpression()).names(a.expressionAttributeNames())
            .item(a.expressionAttributeValues()).string(a.returnValuesOnConditionCheckFailure());
      } else if (item.put() != null) {
        Put a = item.put();
        f.string("Put").string(a.tableName()).item(a.item())
            .string(a.conditionExpression()).names(a.expressionAttributeNames())
            .item(a.expressionAttributeValues()).string(a.returnValuesOnConditionCheckFailure());
      } else if (item.delete() != null) {
        Delete a = item.delete();
        f.string("Delete").string(a.tableName()).item(a.key())
            .string(a.conditionExpression()).names(a.expressionAttributeNames())
            .item(a.expressionAttributeValues()).string(a.returnValuesOnConditionCheckFailure());
      } else {
        io.stator.api.Update a = item.update();
        f.string("Update").string(a.tableName()).item(a.key()).string(a.updateExpression())
            .string(a.conditionExpression()).names(a.expressionAttributeNames())
            .item(a.expressionAttributeValues()).string(a.returnValuesOnConditionCheckFailure());
      }
    }
    return digest.digest();
  }

  /** Feeds values to a digest, each length-prefixed so that no two sequences collide. */
  private record Fingerprint(MessageDigest digest) {
    Fingerprint string(String s) {
      if (s == null) {
        bytes(null);
      } else {
        bytes(s.getBytes(StandardCharsets.UTF_8));
      }
      return this;
    }

    Fingerprint names(Map<String, String> names) {
      if (names == null) {
        bytes(null);
        return this;
      }
      string(String.valueOf(names.size()));
      for (Map.Entry<String, String> e : new TreeMap<>(names).entrySet()) {
        string(e.getKey()).string(e.getValue());
      }
      return this;
    }

    Fingerprint item(Map<String, AttributeValue> item) {
      bytes(item == null ? null : ItemCodec.encode(new TreeMap<>(item)));
      return this;
    }

    private void bytes(byte[] b) {
      if (b == null) {
        digest.update(ByteBuffer.allocate(4).putInt(-1).array());
        return;
      }
      digest.update(ByteBuffer.allocate(4).putInt(b.length).array());
      digest.update(b);
    }
  }
}
