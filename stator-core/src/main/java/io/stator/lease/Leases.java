package io.stator.lease;

import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The leases of background jobs, so that of several engines on one storage (servers of a shared
 * store) one runs each job at a time, and another takes it over when the holder stops.
 *
 * <h2>How</h2>
 *
 * One record per job in the space {@value #SPACE}, keyed by the job's name: the holder's id (a
 * UUID new for each engine) and the instant the lease expires. Every change is a commit expecting
 * the version read, so of two engines racing for a lease one wins and the other conflicts:
 *
 * <ul>
 *   <li>{@link #hold} before each round of a job: a lease that is absent, expired, or this
 *       engine's is taken or renewed for another {@code term} (one read and one commit); one
 *       that another engine holds and that has not expired is left, and the job skips its round
 *       (one read). A job calls it at least once a term, so a holder that keeps running keeps its
 *       lease;
 *   <li>{@link #release} when the engine closes: the record is deleted if still this engine's, so
 *       another takes the job at its next round instead of waiting out the term.
 * </ul>
 *
 * A holder that stops without releasing (its process killed, its storage unreachable) stops
 * renewing, and the first other engine to look after the expiry takes the job: within the term
 * and one round of the job.
 *
 * <h2>What a lease does not promise</h2>
 *
 * Expiry is judged by each engine's own clock, and a holder paused past its term (a long GC
 * pause, a frozen process) may finish a round after another engine took over. So a lease makes
 * a job run once instead of N times; it is not what keeps the job correct. Every job held by a
 * lease stays correct when two engines run it at once, as it was before leases: the sweep's
 * deletes and the backfill's writes are conditional commits, and the housekeeping only removes
 * what no request can see any more. An export or import is never run again by another engine,
 * only settled FAILED once its lease has expired; the settling and the holder's own updates of
 * the job's record each commit only while it is IN_PROGRESS at the version read, so a holder that
 * finishes after being settled changes nothing ({@link JobLeases}). A restore taken up by another
 * engine while its holder still writes writes the same items twice; a backup forgotten while its
 * holder still copies fails that copy, whose record is gone, with an error that says so.
 *
 * <p>On memory and RocksDB, whose store only one engine opens, the lease is always this
 * engine's: it costs one read and one commit per round of a job, nothing per request.
 *
 * <p>Record format: a version byte (1), the expiry in epoch milliseconds, then the holder's id
 * in UTF-8.
 */
public final class Leases {
  public static final String SPACE = "leases";
  private static final byte FORMAT = 1;

  private final Storage storage;
  private final Clock clock;
  private final String holder = UUID.randomUUID().toString();

  public Leases(Storage storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
    storage.createSpace(SPACE);
  }

  /** One job's lease as stored: its holder and expiry, with the record's version. */
  record Held(String holder, long expiresAtMillis, long version) {}

  /**
   * Whether this engine holds {@code job}'s lease now: taken if it is free or expired, renewed
   * for {@code term} if it is this engine's. False when another engine holds it, or when another
   * engine took or renewed it first.
   */
  public boolean hold(String job, Duration term) {
    StorageKey key = key(job);
    Optional<Held> now = read(job);
    long nowMillis = clock.millis();
    if (now.isPresent()
        && !now.get().holder().equals(holder)
        && now.get().expiresAtMillis() > nowMillis) {
      return false;
    }
    long expected = now.map(Held::version).orElse(Commit.Expectation.ABSENT);
    try {
      storage.commit(new Commit().expect(SPACE, key, expected)
          .put(SPACE, key, encode(holder, nowMillis + term.toMillis())));
      return true;
    } catch (CommitConflictException e) {
      return false; // another engine took it, or renewed it, between the read and the commit
    }
  }

  /** Gives {@code job}'s lease up if this engine holds it, so another takes it at once. */
  public void release(String job) {
    Optional<Held> now = read(job);
    if (now.isEmpty() || !now.get().holder().equals(holder)) {
      return;
    }
    try {
      storage.commit(new Commit().expect(SPACE, key(job), now.get().version())
          .delete(SPACE, key(job)));
    } catch (CommitConflictException e) {
      // taken over meanwhile: it is no longer this engine's to give up
    }
  }

  /** This engine's id, as lease records name their holder. */
  public String holder() {
    return holder;
  }

  /** The lease of {@code job} as stored, if any (held or expired). */
  Optional<Held> read(String job) {
    Optional<StoredRecord> stored = storage.get(SPACE, key(job));
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    ByteBuffer value = ByteBuffer.wrap(stored.get().value());
    if (value.get() != FORMAT) {
      throw new IllegalStateException("a lease record of an unknown format");
    }
    long expires = value.getLong();
    byte[] id = new byte[value.remaining()];
    value.get(id);
    return Optional.of(
        new Held(new String(id, StandardCharsets.UTF_8), expires, stored.get().version()));
  }

  private static byte[] encode(String holder, long expiresAtMillis) {
    byte[] id = holder.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(1 + 8 + id.length)
        .put(FORMAT).putLong(expiresAtMillis).put(id).array();
  }

  private static StorageKey key(String job) {
    return StorageKey.of(job.getBytes(StandardCharsets.UTF_8));
  }
}
