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
 * finishes after being settled changes nothing ({@link JobLeases}). A restore's, export's or
 * import's holder renews its lease expecting the record it wrote ({@link #renew}) when its term
 * nears its end, before each write, and stops once it is lost, so only a write already under way
 * when it paused lands after another engine took the job up or settled it; a backup forgotten
 * while its holder still copies fails that copy, whose record is gone, with an error that says
 * so.
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
    return take(job, term).isPresent();
  }

  /** A lease this engine took or renewed: its record's version, and when it expires. */
  public record Lease(long version, long expiresAtMillis) {}

  /**
   * Tells the holder of {@code job}, whichever engine it is, that there is new work for it: a
   * record of its own beside the lease, rewritten by each call, whose version the holder reads
   * ({@link #wanted}) so that it looks for work when told rather than by reading everything
   * often.
   */
  public void want(String job) {
    // every put gives the key a version it never had (Storage): the value need not change
    storage.commit(new Commit().put(SPACE, wantedKey(job), WANTED));
  }

  /** The version of {@code job}'s {@link #want} record (0 before the first): each want moves it. */
  public long wanted(String job) {
    return storage.get(SPACE, wantedKey(job)).map(StoredRecord::version).orElse(0L);
  }

  private static final byte[] WANTED = {1};

  private static StorageKey wantedKey(String job) {
    return key(job + " wanted");
  }

  /** As {@link #hold}, with the lease written when this engine holds it: what renew expects. */
  public Optional<Lease> take(String job, Duration term) {
    Optional<Held> now = read(job);
    long nowMillis = clock.millis();
    if (now.isPresent()
        && !now.get().holder().equals(holder)
        && now.get().expiresAtMillis() > nowMillis) {
      return Optional.empty();
    }
    return write(job, now.map(Held::version).orElse(Commit.Expectation.ABSENT),
        nowMillis + term.toMillis());
  }

  /**
   * Renews for {@code term} the lease of {@code job} this engine wrote as {@code held}, only if
   * its record is still that one: empty once it is not (another engine took it over after it
   * expired, or took it and gave it up since), and the job is no longer this engine's. Unlike
   * {@link #take}, an absent or expired record is not taken: a job that paused past its term
   * must not go on as if it had held it all along.
   */
  public Optional<Lease> renew(String job, Duration term, Lease held) {
    Optional<Held> now = read(job);
    if (now.isEmpty() || !now.get().holder().equals(holder)
        || now.get().version() != held.version()) {
      return Optional.empty();
    }
    return write(job, held.version(), clock.millis() + term.toMillis());
  }

  /** Whether {@code lease} lasts {@code margin} more at least, by this engine's clock. */
  public boolean lasts(Lease lease, Duration margin) {
    return clock.millis() + margin.toMillis() < lease.expiresAtMillis();
  }

  /** Writes this engine's lease of {@code job}, to {@code expires}, over {@code expected}. */
  private Optional<Lease> write(String job, long expected, long expires) {
    StorageKey key = key(job);
    try {
      long version = storage.commit(new Commit().expect(SPACE, key, expected)
          .put(SPACE, key, encode(holder, expires)));
      return Optional.of(new Lease(version, expires));
    } catch (CommitConflictException e) {
      // another engine took it, or renewed it, between the read and the commit
      return Optional.empty();
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
