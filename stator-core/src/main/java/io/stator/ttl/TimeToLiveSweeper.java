package io.stator.ttl;

import io.stator.api.DynamoDbException;
import io.stator.expression.ConditionExpression;
import io.stator.item.ItemCodec;
import io.stator.lease.Leases;
import io.stator.schema.Catalog;
import io.stator.schema.TableDefinition;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Deletes expired items of the tables that have Time to Live enabled, in the background.
 *
 * <h2>What it guarantees</h2>
 *
 * An item is deleted only if, at the version the delete replaces, its TTL attribute is a Number
 * of epoch seconds before now and no more than five years before now ({@link Expiry}). Every
 * other item is left alone: those without the attribute, with a non-Number value, with a future
 * expiry, and any item rewritten with a later expiry between the sweeper's read and its delete.
 * Like DynamoDB, the sweeper is lazy: an expired item stays readable (GetItem, Query, Scan) until
 * a round reaches it. {@link #sweepNow()} makes that moment "now" for tests and local use.
 *
 * <h2>How</h2>
 *
 * The sweeper is a client of the engine, not a side door into the storage: it reads pages of a
 * table's items straight from the storage (read-only, bounded), and deletes each expired item
 * through the engine's DeleteItem path ({@link Deletes}) with the condition "still expired" —
 * read, check the condition, commit expecting the read version, retry on conflict. So a deletion
 * by TTL is ordinary in every way that matters to the rest of the engine (secondary indexes,
 * streams), and it carries the service identity that streams record for it.
 *
 * <h2>Never stalling foreground requests</h2>
 *
 * No lock is held across storage calls, and each call is small: a page read of {@value
 * #PAGE_SIZE} records, then one single-item commit per expired item. Foreground writes to the
 * same items simply win or lose the versioned commit race as they would against another client.
 * A round visits every TTL table but at most {@value #PAGES_PER_TABLE} pages of each, and
 * remembers where it stopped (a cursor per table incarnation, in memory), so a huge table is
 * walked over several rounds without starving the others, and the next round resumes where the
 * last one stopped. A restart only loses the cursors: the walk starts over, which costs reads, not
 * correctness. Rounds run on one daemon thread with a fixed pause between them; the thread starts
 * only once some table has TTL enabled, so an engine that never uses TTL has no thread.
 *
 * <h2>Several engines on one storage</h2>
 *
 * Background rounds run only on the engine that holds the lease {@value #LEASE} ({@link
 * Leases}), taken or renewed before each round for {@link #leaseTerm} (ten seconds, or three
 * rounds' pauses if longer), so of several servers on one store one sweeps at a time, and when
 * it stops without giving the lease up another takes the sweep over at its first round after the
 * term. Two engines sweeping at once (a holder paused past its term, or a forced sweep) stay
 * correct: each delete is conditional, so an item is deleted once, with one stream record.
 *
 * <h2>Why not an index of expiry times</h2>
 *
 * An ordered index of (expiry, key) would find expired items without scanning, but it would add a
 * write to every PutItem and UpdateItem of every TTL table, and would have to stay exact through
 * crashes and TTL changes. DynamoDB itself only promises deletion "typically within a few days";
 * a scan costs nothing on the write path and is plenty for the tables Stator serves.
 */
public final class TimeToLiveSweeper implements AutoCloseable {
  /** The lease of the background rounds (see {@link Leases}). */
  public static final String LEASE = "ttl-sweep";
  static final int PAGE_SIZE = 100;
  static final int PAGES_PER_TABLE = 50;
  private static final int CATALOG_PAGE = 100;

  /** The engine's conditional delete, made as the Time to Live service. */
  @FunctionalInterface
  public interface Deletes {
    /**
     * Deletes the item under {@code key} if {@code condition} holds for its current version;
     * returns whether an item was deleted.
     *
     * @throws DynamoDbException ResourceNotFoundException when the table is gone
     */
    boolean delete(TableDefinition table, StorageKey key, ConditionExpression condition);
  }

  private final Storage storage;
  private final Catalog catalog;
  private final Clock clock;
  private final Duration interval;
  private final Deletes deletes;
  private final Leases leases;
  private final Duration leaseTerm;

  /** One sweep at a time: forced sweeps and background rounds take turns. */
  private final ReentrantLock sweeping = new ReentrantLock();

  /** Where the background walk of each table incarnation stopped; guarded by {@link #sweeping}. */
  private final Map<String, StorageKey> cursors = new HashMap<>();

  private ScheduledExecutorService thread; // guarded by this
  private volatile boolean closed;

  /**
   * @param interval the pause between background rounds; zero for no background rounds
   * @param leases where the lease of the background rounds is held
   */
  public TimeToLiveSweeper(
      Storage storage, Catalog catalog, Clock clock, Duration interval, Deletes deletes,
      Leases leases) {
    this.storage = storage;
    this.catalog = catalog;
    this.clock = clock;
    this.interval = interval;
    this.deletes = deletes;
    this.leases = leases;
    Duration threeRounds = interval.multipliedBy(3);
    this.leaseTerm = threeRounds.compareTo(Duration.ofSeconds(10)) > 0
        ? threeRounds : Duration.ofSeconds(10);
  }

  /** How long a background round's lease lasts unless renewed by the next round. */
  public Duration leaseTerm() {
    return leaseTerm;
  }

  /**
   * Starts the background rounds if they are wanted and some table has TTL enabled; call at
   * start, after TTL is enabled on a table, and now and then (TTL may have been enabled through
   * another engine on the same storage, whose lease this one may have to take over). Idempotent.
   */
  public synchronized void startIfNeeded() {
    if (thread != null || closed || interval.isZero() || enabledTables().isEmpty()) {
      return;
    }
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "stator-ttl-sweeper");
              t.setDaemon(true);
              return t;
            });
    long nanos = interval.toNanos();
    thread.scheduleWithFixedDelay(this::backgroundRound, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  /** Whether the background rounds run in this engine (each still only with the lease). */
  public synchronized boolean running() {
    return thread != null;
  }

  /**
   * Walks every TTL table from its first item to its last now, deleting what has expired; returns
   * the number of items deleted. Waits for a background round in progress to finish first.
   */
  public long sweepNow() {
    sweeping.lock();
    try {
      long deleted = 0;
      for (TableDefinition table : enabledTables()) {
        StorageKey cursor = null;
        do {
          Page page = sweepPage(table, cursor);
          if (page == null) {
            break;
          }
          deleted += page.deleted();
          cursor = page.next();
        } while (cursor != null && !closed);
      }
      return deleted;
    } finally {
      sweeping.unlock();
    }
  }

  /** One background round: up to {@value #PAGES_PER_TABLE} pages of each TTL table. */
  long round() {
    sweeping.lock();
    try {
      long deleted = 0;
      Set<String> live = new HashSet<>();
      for (TableDefinition table : enabledTables()) {
        live.add(table.tableId());
        StorageKey cursor = cursors.remove(table.tableId());
        for (int pages = 0; pages < PAGES_PER_TABLE && !closed; pages++) {
          Page page = sweepPage(table, cursor);
          if (page == null) {
            cursor = null;
            break;
          }
          deleted += page.deleted();
          cursor = page.next();
          if (cursor == null) {
            break; // the walk reached the end; the next round starts over
          }
        }
        if (cursor != null) {
          cursors.put(table.tableId(), cursor);
        }
      }
      cursors.keySet().retainAll(live); // tables deleted or with TTL disabled
      return deleted;
    } finally {
      sweeping.unlock();
    }
  }

  private void backgroundRound() {
    if (closed) {
      return;
    }
    try {
      backgroundRoundIfHeld();
    } catch (RuntimeException e) {
      // A failed round must not end the background rounds (the executor would cancel them):
      // report it and try again next time.
      if (!closed) {
        System.err.println("Time to Live sweep failed; retrying in " + interval + ":");
        e.printStackTrace();
      }
    }
  }

  /**
   * One background round if this engine holds the sweep's lease (taking or renewing it); -1
   * when another engine holds it and this one skips the round.
   */
  public long backgroundRoundIfHeld() {
    return leases.hold(LEASE, leaseTerm) ? round() : -1;
  }

  /** What one page did: items deleted, and the key to continue after (null at the end). */
  private record Page(long deleted, StorageKey next) {}

  /**
   * Sweeps the page of {@code table} after {@code cursor}; null when the table is gone or its
   * TTL was disabled or changed since the round began (its walk ends).
   */
  private Page sweepPage(TableDefinition table, StorageKey cursor) {
    // The setting may have changed since the round listed the tables: read it again.
    Optional<Catalog.Entry> now = catalog.get(table.name());
    if (now.isEmpty()
        || !now.get().table().tableId().equals(table.tableId())
        || !now.get().table().timeToLive().equals(table.timeToLive())) {
      return null;
    }
    String attribute = table.timeToLive().attributeName();
    List<StoredRecord> records;
    try {
      records = storage.scan(table.space(), null, null, cursor, PAGE_SIZE);
    } catch (StorageException e) {
      return null; // dropped by a concurrent DeleteTable
    }
    Instant instant = clock.instant();
    ConditionExpression stillExpired = null;
    long deleted = 0;
    for (StoredRecord record : records) {
      AttributeValue expiry = ItemCodec.decode(record.value()).get(attribute);
      if (!Expiry.isExpired(expiry, instant)) {
        continue;
      }
      if (stillExpired == null) {
        stillExpired = Expiry.stillExpired(attribute, instant);
      }
      try {
        if (deletes.delete(table, record.key(), stillExpired)) {
          deleted++;
        }
      } catch (DynamoDbException e) {
        return null; // the table was deleted under the sweep
      }
    }
    StorageKey next = records.size() < PAGE_SIZE ? null : records.get(records.size() - 1).key();
    return new Page(deleted, next);
  }

  /** The tables with TTL enabled, in name order. */
  private List<TableDefinition> enabledTables() {
    List<TableDefinition> tables = new ArrayList<>();
    String after = null;
    while (true) {
      List<String> names = catalog.names(after, CATALOG_PAGE);
      for (String name : names) {
        catalog.get(name).map(Catalog.Entry::table)
            .filter(t -> t.timeToLive().enabled())
            .ifPresent(tables::add);
      }
      if (names.size() < CATALOG_PAGE) {
        return tables;
      }
      after = names.get(names.size() - 1);
    }
  }

  /**
   * Stops the background rounds, waiting for one in progress to finish its page, and gives the
   * lease up for another engine to take at its next round.
   */
  @Override
  public void close() {
    closed = true;
    ScheduledExecutorService t;
    synchronized (this) {
      t = thread;
      thread = null;
    }
    if (t != null) {
      t.shutdownNow();
      try {
        t.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      leases.release(LEASE);
    } catch (RuntimeException e) {
      // the storage is failing: the lease expires at the end of its term instead
    }
  }
}
