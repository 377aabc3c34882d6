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
import java.util.Collections;
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
 * <p>Each space is a concurrent sorted map, keyed by {@link MapKey} (which compares the 8-byte
 * hash head of partitions as one number first); reads take no lock. Commits are serialised by one
 * lock, which makes "check every expectation, then apply every write" atomic with respect to
 * other commits. A reader may observe a commit half-applied only across keys (never within a
 * key); the engine never relies on multi-key read atomicity outside a commit.
 */
public final class MemoryStorage implements Storage {
  private static final byte[] EMPTY = new byte[0];

  private final Map<String, ConcurrentSkipListMap<MapKey, StoredRecord>> spaces =
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
    return Optional.ofNullable(space(space).get(new MapKey(key)));
  }

  @Override
  public List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    MapKey from = new MapKey(partition, lower == null ? EMPTY : lower.sort());
    boolean fromInclusive = lower == null || lower.inclusive();
    // Without an upper bound the range ends before the smallest partition greater than this one,
    // which is the partition followed by a 0x00 byte.
    MapKey to =
        upper == null
            ? new MapKey(successor(partition), EMPTY)
            : new MapKey(partition, upper.sort());
    boolean toInclusive = upper != null && upper.inclusive();
    return first(range(space(space), from, fromInclusive, to, toInclusive), forward, limit);
  }

  @Override
  public List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    MapKey from = fromPartition == null ? null : new MapKey(fromPartition, EMPTY);
    boolean fromInclusive = true;
    if (startAfter != null) {
      MapKey after = new MapKey(startAfter);
      if (from == null || after.compareTo(from) >= 0) {
        from = after;
        fromInclusive = false;
      }
    }
    MapKey to = toPartition == null ? null : new MapKey(toPartition, EMPTY);
    return first(range(space(space), from, fromInclusive, to, false), true, limit);
  }

  /** The records between two optional keys; empty (not an error) when the range is inverted. */
  private static NavigableMap<MapKey, StoredRecord> range(
      NavigableMap<MapKey, StoredRecord> map,
      MapKey from,
      boolean fromInclusive,
      MapKey to,
      boolean toInclusive) {
    if (from != null && to != null) {
      int c = from.compareTo(to);
      if (c > 0 || (c == 0 && !(fromInclusive && toInclusive))) {
        return Collections.emptyNavigableMap();
      }
      return map.subMap(from, fromInclusive, to, toInclusive);
    }
    if (from != null) {
      return map.tailMap(from, fromInclusive);
    }
    return to == null ? map : map.headMap(to, toInclusive);
  }

  private static List<StoredRecord> first(
      NavigableMap<MapKey, StoredRecord> range, boolean forward, int limit) {
    List<StoredRecord> out = new ArrayList<>(Math.min(limit, 64));
    for (StoredRecord r : forward ? range.values() : range.descendingMap().values()) {
      if (out.size() >= limit) {
        break;
      }
      out.add(r);
    }
    return out;
  }

  private static byte[] successor(byte[] partition) {
    return Arrays.copyOf(partition, partition.length + 1);
  }

  @Override
  public void commit(Commit commit) {
    synchronized (commitLock) {
      for (Commit.Expectation e : commit.expectations()) {
        StoredRecord current = space(e.space()).get(new MapKey(e.key()));
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
        ConcurrentSkipListMap<MapKey, StoredRecord> map = space(w.space());
        if (w.isDelete()) {
          map.remove(new MapKey(w.key()));
        } else {
          // Copies, so a caller reusing its arrays cannot reorder the map or change a record.
          StorageKey key = new StorageKey(w.key().partition().clone(), w.key().sort().clone());
          map.put(new MapKey(key), new StoredRecord(key, version, w.value().clone()));
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

  private ConcurrentSkipListMap<MapKey, StoredRecord> space(String name) {
    ConcurrentSkipListMap<MapKey, StoredRecord> map = spaces.get(name);
    if (map == null) {
      throw new StorageException("no such space: " + name);
    }
    return map;
  }
}
