package io.stator.storage.memory;

import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A Storage in memory, for tests and {@code --in-memory}.
 *
 * <p>Each space is a concurrent sorted map; reads take no lock. Commits are serialised by one
 * lock, which makes "check every expectation, then apply every write" atomic with respect to
 * other commits. A reader may observe a commit half-applied only across keys (never within a
 * key); the engine never relies on multi-key read atomicity outside a commit.
 */
public final class MemoryStorage implements Storage {
  private static final byte[] EMPTY = new byte[0];

  private final Map<String, ConcurrentSkipListMap<StorageKey, StoredRecord>> spaces =
      new ConcurrentHashMap<>();
  private final Object commitLock = new Object();
  private long lastVersion;

  @Override
  public void createSpace(String space) {
    spaces.computeIfAbsent(space, s -> new ConcurrentSkipListMap<>());
  }

  @Override
  public void dropSpace(String space) {
    synchronized (commitLock) {
      spaces.remove(space);
    }
  }

  @Override
  public Set<String> spaces() {
    return new TreeSet<>(spaces.keySet());
  }

  @Override
  public Optional<StoredRecord> get(String space, StorageKey key) {
    return Optional.ofNullable(space(space).get(key));
  }

  @Override
  public List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    StorageKey from = new StorageKey(partition, lower == null ? EMPTY : lower.sort());
    boolean fromInclusive = lower == null || lower.inclusive();
    NavigableMap<StorageKey, StoredRecord> range =
        upper == null
            ? space(space).tailMap(from, fromInclusive)
            : space(space)
                .subMap(from, fromInclusive, new StorageKey(partition, upper.sort()), upper.inclusive());
    List<StoredRecord> out = new ArrayList<>(Math.min(limit, 64));
    for (StoredRecord r : forward ? range.values() : range.descendingMap().values()) {
      if (!Arrays.equals(r.key().partition(), partition)) {
        if (forward) {
          break;
        }
        continue;
      }
      out.add(r);
      if (out.size() >= limit) {
        break;
      }
    }
    return out;
  }

  @Override
  public List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    NavigableMap<StorageKey, StoredRecord> map = space(space);
    if (startAfter != null) {
      map = map.tailMap(startAfter, false);
    }
    if (fromPartition != null) {
      map = map.tailMap(StorageKey.of(fromPartition), true);
    }
    if (toPartition != null) {
      map = map.headMap(StorageKey.of(toPartition), false);
    }
    List<StoredRecord> out = new ArrayList<>(Math.min(limit, 64));
    for (StoredRecord r : map.values()) {
      out.add(r);
      if (out.size() >= limit) {
        break;
      }
    }
    return out;
  }

  @Override
  public void commit(Commit commit) {
    synchronized (commitLock) {
      for (Commit.Expectation e : commit.expectations()) {
        StoredRecord current = space(e.space()).get(e.key());
        long version = current == null ? Commit.Expectation.ABSENT : current.version();
        if (version != e.version()) {
          throw new CommitConflictException(e);
        }
      }
      for (Commit.Write w : commit.writes()) {
        space(w.space()); // fail before writing anything if a space is missing
      }
      long version = ++lastVersion;
      for (Commit.Write w : commit.writes()) {
        ConcurrentSkipListMap<StorageKey, StoredRecord> map = space(w.space());
        if (w.isDelete()) {
          map.remove(w.key());
        } else {
          map.put(w.key(), new StoredRecord(w.key(), version, w.value()));
        }
      }
    }
  }

  @Override
  public SpaceStats stats(String space) {
    long records = 0;
    long bytes = 0;
    for (StoredRecord r : space(space).values()) {
      records++;
      bytes += r.key().partition().length + r.key().sort().length + r.value().length;
    }
    return new SpaceStats(records, bytes);
  }

  @Override
  public void close() {}

  private ConcurrentSkipListMap<StorageKey, StoredRecord> space(String name) {
    ConcurrentSkipListMap<StorageKey, StoredRecord> map = spaces.get(name);
    if (map == null) {
      throw new StorageException("no such space: " + name);
    }
    return map;
  }
}
