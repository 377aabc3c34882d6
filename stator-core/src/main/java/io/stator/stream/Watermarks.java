package io.stator.stream;

import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read point of stream readers when several engines write stream records on one storage.
 *
 * <p>An engine's reader settles its own sequencer ({@link StreamSequencer#settle}), which waits
 * for that engine's writers only. A record another engine numbered below that point but whose
 * commit is still running (a commit stalled while a node of the cluster dies takes seconds)
 * would commit behind a consumer that had already read past its number, and the consumer would
 * never see it. So every engine publishes, every {@link #PUBLISH_MILLIS}, its watermark: its
 * settle point at that moment, below which all its numbers are resolved and at or above which
 * all its later numbers lie. A reader reads below the least of its own settle point and the
 * watermarks of the other engines that are alive, as its engine's publisher read them with its
 * last publication (so a reader reads no storage for them), waiting for them to pass its own
 * point (for as long as it waits for its own writers) so that a record is readable through any
 * server soon after its write has been acknowledged through another: a read through one of
 * several servers takes up to two publishing intervals longer than on a server alone.
 *
 * <p>An engine is alive while its watermark moves. Silence is counted in this engine's own
 * publications, not in time: one unchanged while this engine published {@link
 * #SILENT_PUBLICATIONS} times is of an engine that died or stopped, and readers go on without
 * it; it is deleted after {@link #FORGET_PUBLICATIONS}. All watermarks are one partition of the
 * store, so when the store stalls (a node dying) every engine's publications stall alike and
 * none is taken for dead meanwhile; the engines' clocks need not agree either. An engine that
 * closes deletes its own. An engine that was silent for 2 s (paused, or cut off from its store)
 * numbers no record until every other engine alive has heard it again and its numbering is lifted
 * above theirs ({@link #quiet}); a record numbered before the pause whose commit was sent after it
 * can still land behind a consumer, but a write checks between numbering and committing, so only
 * a pause in those few instructions leaves that.
 *
 * <p>Publishing also moves the engine's numbering above every watermark it reads, and a new
 * engine starts above them, so an engine whose clock is behind the others' does not number its
 * records below what readers have passed (the records of one item keep the order of its changes
 * at any interval: {@link StreamWrites#number}).
 *
 * <p>The records are one partition of the space of {@link WriterIds}, one record per engine
 * keyed by its writer id, holding the watermark and a number drawn once per process; a single
 * engine publishes too (another may start at any time), which costs one small commit per
 * interval. On a storage only one process can have open (RocksDB, memory: {@link
 * Storage#sharedByProcesses}), an engine that starts deletes the watermarks of other processes,
 * which have ended, instead of holding its readers below them for 5 s after a crash.
 */
final class Watermarks implements AutoCloseable {
  static final long PUBLISH_MILLIS = 100;
  /** Publications of this engine (5 s) during which a silent engine's watermark is awaited. */
  static final long SILENT_PUBLICATIONS = 50;
  /**
   * Publications of this engine (half a second) for which a watermark first heard is awaited
   * though it has not moved yet: an engine publishes every interval, so one that has not moved
   * in that time is most likely of an engine that died.
   */
  static final long FIRST_HEARD_PUBLICATIONS = 5;
  /** Publications of this engine (a minute) after which a silent engine's watermark goes. */
  static final long FORGET_PUBLICATIONS = 600;
  /**
   * How long this engine may go without publishing before a write of its takes it that other
   * engines may have taken it for dead (they wait 50 of their publications, at least 5 s).
   */
  static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(2);
  /** The longest a write waits for the others to hear this engine again after a silence. */
  static final long HEARD_AGAIN_NANOS = TimeUnit.SECONDS.toNanos(5);
  private static final byte[] PARTITION = "marks".getBytes(StandardCharsets.UTF_8);
  /** This process among those that ever wrote watermarks on a storage: after the mark. */
  private static final long PROCESS = new SecureRandom().nextLong();

  private final Storage storage;
  private final StreamSequencer sequencer;
  private final int writer;
  private final StorageKey own;
  /** What this engine last heard of each other engine's watermark, and when it changed. */
  private final Map<Integer, Heard> heard = new ConcurrentHashMap<>();
  private final Thread publisher;
  private final AtomicLong publications = new AtomicLong();
  /** When this engine last published ({@link System#nanoTime}). */
  private volatile long publishedAt = System.nanoTime();
  /** The recovery from a silence under way ({@link #recover}), or null. */
  private volatile Recovery recovery;
  /**
   * The other engines' watermarks as this engine's publisher last read them, so that a reader
   * reads no storage: marks only rise, so an older reading only holds a reader lower.
   */
  private volatile Others latest;
  private volatile boolean closed;

  /**
   * A watermark's version as last heard, this engine's publications when it last changed, and
   * how many times it has changed since this engine first heard it (more than none: its engine
   * is known to be publishing).
   */
  private record Heard(long version, long since, long changes) {
    boolean moved() {
      return changes > 0;
    }
  }

  Watermarks(Storage storage, StreamSequencer sequencer, int writer) {
    this.storage = storage;
    this.sequencer = sequencer;
    this.writer = writer;
    this.own = key(writer);
    if (!storage.sharedByProcesses()) {
      forgetOtherProcesses();
    }
    refresh();
    publish();
    this.publisher = new Thread(this::run, "stream-watermark-" + writer);
    publisher.setDaemon(true);
    publisher.start();
  }

  /**
   * What a reader may read now: its own settle point ({@link StreamSequencer#settle}) lowered
   * to the least watermark of the other engines alive, after waiting up to {@code
   * timeoutMillis} for them to pass it.
   */
  StreamSequencer.Settled settle(long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    StreamSequencer.Settled settled = sequencer.settle(timeoutMillis);
    while (true) {
      Others others = latest;
      long least = others.least;
      if (least >= settled.bound()) {
        return settled;
      }
      if (others.leastAwaited >= settled.bound()) {
        return settled.below(least); // held by a watermark not seen moving: waiting is no use
      }
      if (System.nanoTime() - deadline >= 0 || closed) {
        return settled.below(least);
      }
      try {
        Thread.sleep(PUBLISH_MILLIS / 4);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return settled.below(least);
      }
    }
  }

  /**
   * Whether another engine may be writing stream records on this storage: always on a storage
   * several processes share (one may start at any time, before this engine hears of it), else
   * while this engine hears another's watermark (engines of one process, in tests).
   */
  boolean othersMayWrite() {
    return storage.sharedByProcesses() || !heard.isEmpty();
  }

  private void run() {
    while (!closed) {
      try {
        Thread.sleep(PUBLISH_MILLIS);
        refresh();
        publish();
      } catch (InterruptedException e) {
        return;
      } catch (StorageException e) {
        // the storage did not answer this time; readers elsewhere wait, then try again
      }
    }
  }

  /** Reads the others' watermarks for readers, and lifts this engine's numbering above them. */
  private void refresh() {
    latest = others();
    sequencer.advanceTo(latest.highest);
    Recovery r = recovery;
    if (r != null) {
      recover(r);
    }
  }

  /** Commits this engine's watermark: its settle point now, not waiting for its writers. */
  private void publish() {
    long mark = sequencer.settle(0).bound();
    storage.commit(new Commit().put(WriterIds.SPACE, own,
        ByteBuffer.allocate(2 * Long.BYTES).putLong(mark).putLong(PROCESS).array()));
    long now = System.nanoTime();
    if (now - publishedAt > QUIET_NANOS && recovery == null) {
      recovery = new Recovery(publications.get(), null); // before quiet() can turn false
    }
    publishedAt = now;
    publications.incrementAndGet();
  }

  /**
   * Whether a record this engine numbers now could fall below what the other engines' readers
   * passed: this engine has gone without publishing for so long ({@link #QUIET_NANOS}) that the
   * others may have taken it for dead and let their readers pass its watermark (the whole
   * process was paused, a SIGSTOP, a long collection, its publisher with it; or the store did not
   * take its publications), and they have not all heard it publish again since ({@link
   * #recover}). A write checks this between numbering its record and committing ({@link
   * StreamWrites#number}).
   */
  boolean quiet() {
    return recovery != null || System.nanoTime() - publishedAt > QUIET_NANOS;
  }

  /**
   * Waits until this engine is no longer {@link #quiet}, up to {@link #HEARD_AGAIN_NANOS}; false
   * if it still is (its store does not take its publications).
   */
  boolean awaitHeardAgain() {
    long deadline = System.nanoTime() + HEARD_AGAIN_NANOS;
    while (quiet()) {
      if (System.nanoTime() - deadline >= 0 || closed) {
        return false;
      }
      try {
        Thread.sleep(PUBLISH_MILLIS / 10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /**
   * After this engine published following a silence: what each other engine's watermark had
   * changed by ({@link Heard#changes}) at the first reading begun after that publication, null
   * until that reading.
   */
  private record Recovery(long began, Map<Integer, Long> changes) {}

  /**
   * Moves the recovery from a silence on, at each reading of the others' watermarks, and ends it
   * once this engine has read, from every other engine alive, a watermark published after that
   * engine heard this one publish again; the reading has lifted this engine's numbering above
   * it, and so above every point their readers passed while this one was silent, which lay below
   * their next watermark. An engine heard this one at a reading begun after its publication, and
   * the second watermark of it read after a reading begun after that publication (the first
   * reading of the recovery) was published after such a reading. Ends anyway after {@link
   * #SILENT_PUBLICATIONS}, as an engine that never publishes again is taken for dead.
   */
  private void recover(Recovery r) {
    if (r.changes() == null) {
      Map<Integer, Long> changes = new HashMap<>();
      heard.forEach((id, h) -> changes.put(id, h.changes()));
      recovery = new Recovery(r.began(), changes);
      return;
    }
    long now = publications.get();
    if (now - r.began() > SILENT_PUBLICATIONS) {
      recovery = null;
      return;
    }
    for (Map.Entry<Integer, Long> e : r.changes().entrySet()) {
      Heard h = heard.get(e.getKey());
      if (h != null && now - h.since() < SILENT_PUBLICATIONS && h.changes() < e.getValue() + 2) {
        return;
      }
    }
    recovery = null;
  }

  private record Others(long least, long leastAwaited, long highest) {}

  /**
   * The least watermark of the other engines alive, the least of those a reader waits for ({@code
   * Long.MAX_VALUE} when there are none), and the highest of all (0 for none), forgetting those
   * silent for {@link #FORGET_PUBLICATIONS}. A reader waits only for watermarks seen moving since
   * this engine first heard them, or first heard {@link #FIRST_HEARD_PUBLICATIONS} ago or less:
   * one that has not moved since is most likely of an engine that died (a server restarted after
   * a crash finds its former self's), and it holds readers below it until it is taken for dead
   * without making each of them wait.
   */
  private Others others() {
    List<StoredRecord> marks =
        storage.query(WriterIds.SPACE, PARTITION, null, null, true, StreamSequencer.WRITERS);
    long now = publications.get();
    long least = Long.MAX_VALUE;
    long leastAwaited = Long.MAX_VALUE;
    long highest = 0;
    for (StoredRecord r : marks) {
      int id = ByteBuffer.wrap(r.key().sort()).getInt();
      if (id == writer) {
        continue;
      }
      long mark = ByteBuffer.wrap(r.value()).getLong();
      Heard h = heard.compute(id, (k, was) -> was == null ? new Heard(r.version(), now, 0)
          : was.version() == r.version() ? was
          : new Heard(r.version(), now, was.changes() + 1));
      highest = Math.max(highest, mark);
      long silent = now - h.since();
      if (silent < SILENT_PUBLICATIONS) {
        least = Math.min(least, mark);
        if (h.moved() || silent < FIRST_HEARD_PUBLICATIONS) {
          leastAwaited = Math.min(leastAwaited, mark);
        }
      } else if (silent > FORGET_PUBLICATIONS) {
        forget(id, r.version());
      }
    }
    return new Others(least, leastAwaited, highest);
  }

  /**
   * On a storage only one process can have open, the watermarks of other processes are of
   * processes that have ended (a server restarted after a crash finds its former self's): they
   * are deleted at once rather than waited out.
   */
  private void forgetOtherProcesses() {
    for (StoredRecord r :
        storage.query(WriterIds.SPACE, PARTITION, null, null, true, StreamSequencer.WRITERS)) {
      ByteBuffer value = ByteBuffer.wrap(r.value());
      if (value.remaining() < 2 * Long.BYTES || value.getLong(Long.BYTES) != PROCESS) {
        sequencer.advanceTo(value.getLong(0)); // numbering goes on above what readers passed
        forget(ByteBuffer.wrap(r.key().sort()).getInt(), r.version());
      }
    }
  }

  private void forget(int id, long version) {
    try {
      storage.commit(new Commit().expect(WriterIds.SPACE, key(id), version)
          .delete(WriterIds.SPACE, key(id)));
    } catch (CommitConflictException | StorageException e) {
      // it moved again (the engine was only paused) or another engine forgot it first
    }
    heard.remove(id);
  }

  static StorageKey key(int writer) {
    return new StorageKey(PARTITION, ByteBuffer.allocate(Integer.BYTES).putInt(writer).array());
  }

  /** Stops publishing and deletes this engine's watermark, so readers need not wait for it. */
  @Override
  public void close() {
    closed = true;
    publisher.interrupt();
    try {
      publisher.join(TimeUnit.SECONDS.toMillis(5));
      storage.commit(new Commit().delete(WriterIds.SPACE, own));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (StorageException e) {
      // readers elsewhere go on without it once it has been silent for a while
    }
  }
}
