package io.stator.storage.memory;

import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Locks;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A Storage in memory, for tests and {@code --in-memory}.
 *
 * <p>Each space keeps its records as DynamoDB lays out a table: a hash of partitions, each
 * partition's records sorted by sort key. Beside it, partitions in key order (keyed by {@link
 * MapKey}, which compares the 8-byte hash head of partitions as one number first) for scans, and
 * a hash map of every record for point reads. Point reads take no lock; range reads share a read
 * lock that commits take exclusively, which makes "check every expectation, then apply every
 * write" atomic with respect to other commits and to range reads.
 *
 * <p>Why the hash of partitions: a Query reads one partition, and finding it in one sorted map of
 * every record descended ~log2(n) levels, each a cache miss once the space outgrows the CPU's
 * caches: at 10,000,000 items that descent was 64% of the CPU samples of a Query (46% at 100,000)
 * and made a Query cost 2.4 times its time at 100,000 items. Found by hash, only the partition's
 * own few records are searched. Likewise the hash map of records for point reads (45% of an
 * embedded GetItem at 100,000 items went to the descent before it). The records change only under
 * the commit lock and each key's record is replaced in one step in each structure, so a point
 * read and a range read of one key stay linearizable: a commit's record becomes visible to point
 * reads while the commit runs, and to range reads when it ends, and a range read that begins
 * after a point read saw the record waits for that commit to end.
 */
public final class MemoryStorage implements Storage {
  private static final byte[] EMPTY = new byte[0];
  private static final Comparator<byte[]> SORT_ORDER = Arrays::compareUnsigned;

  private final Map<String, Space> spaces = new ConcurrentHashMap<>();
  // Commits take the write lock, range reads the read lock: a range read sees each commit
  // wholly or not at all (an index entry moved by one commit is never seen twice or not at all),
  // and the partitions, which only commits change, need no synchronisation of their own.
  // Point reads need no lock, as one key changes atomically in the concurrent hash map.
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private long lastVersion;

  @Override
  public void createSpace(String space) {
    spaces.computeIfAbsent(space, s -> new Space());
  }

  @Override
  public void dropSpace(String space) {
    lock.writeLock().lock();
    try {
      spaces.remove(space);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public Set<String> spaces() {
    return new TreeSet<>(spaces.keySet());
  }

  @Override
  public Optional<StoredRecord> get(String space, StorageKey key) {
    return Optional.ofNullable(space(space).points.get(new MapKey(key)));
  }

  @Override
  public List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    MapKey key = new MapKey(partition, EMPTY);
    lock.readLock().lock();
    try {
      Partition p = space(space).partitions.get(key);
      return p == null ? new ArrayList<>() : p.query(lower, upper, forward, limit);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    MapKey from = fromPartition == null ? null : new MapKey(fromPartition, EMPTY);
    // The records strictly after startAfter: the rest of its partition, then the next partitions;
    // unless it lies before fromPartition, which then decides.
    byte[] afterSort = null;
    if (startAfter != null && (from == null || new MapKey(startAfter).compareTo(from) >= 0)) {
      from = new MapKey(startAfter.partition(), EMPTY);
      afterSort = startAfter.sort();
    }
    MapKey to = toPartition == null ? null : new MapKey(toPartition, EMPTY);
    List<StoredRecord> out = new ArrayList<>(Math.min(limit, 64));
    lock.readLock().lock();
    try {
      NavigableMap<MapKey, Partition> ordered = space(space).ordered;
      for (Partition p : (from == null ? ordered : ordered.tailMap(from, true)).values()) {
        if (out.size() >= limit || (to != null && p.key.compareTo(to) >= 0)) {
          break;
        }
        p.addAfter(p.key.equals(from) ? afterSort : null, out, limit);
      }
      return out;
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Never ends with an unknown outcome ({@code CommitOutcomeUnknownException}): the commit is
   * applied in this process, under the lock, and nothing after it can fail.
   */
  @Override
  public long commit(Commit commit) {
    Locks.lockCommit(lock.writeLock());
    try {
      for (Commit.Expectation e : commit.expectations()) {
        StoredRecord current = space(e.space()).points.get(new MapKey(e.key()));
        long version = current == null ? Commit.Expectation.ABSENT : current.version();
        if (version != e.version()) {
          throw new CommitConflictException(e);
        }
      }
      for (Commit.Write w : commit.writes()) {
        space(w.space()); // fail before writing anything if a space is missing
      }
      // One counter for the store, which no other instance shares: every version is new.
      long version = ++lastVersion;
      boolean puts = false;
      for (Commit.Write w : commit.writes()) {
        Space space = space(w.space());
        if (w.isDelete()) {
          space.delete(w.key());
        } else {
          // Kept as given, not copied (see Commit.put).
          space.put(new StoredRecord(w.key(), version, w.value()));
          puts = true;
        }
      }
      return puts ? version : Commit.Expectation.ABSENT;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** The copy is one instant: see {@link #copySpace}. */
  @Override
  public boolean copiesAtOneInstant() {
    return true;
  }

  /** One process at a time: the storage lives in its memory. */
  @Override
  public boolean sharedByProcesses() {
    return false;
  }

  /**
   * One instant: the records are copied under the commit lock, which no commit holds meanwhile.
   * They keep their versions, which the new space's keys never had, and are shared with the
   * source (a record is never changed, only replaced).
   */
  @Override
  public void copySpace(String source, String target) {
    Locks.lockCommit(lock.writeLock());
    try {
      Space from = space(source);
      if (spaces.containsKey(target)) {
        throw new StorageException("the space to copy to exists already: " + target);
      }
      Space to = new Space();
      for (StoredRecord r : from.points.values()) {
        to.put(r);
      }
      spaces.put(target, to);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public SpaceStats stats(String space) {
    long records = 0;
    long bytes = 0;
    for (StoredRecord r : space(space).points.values()) {
      records++;
      bytes += r.key().partition().length + r.key().sort().length + r.value().length;
    }
    return new SpaceStats(records, bytes);
  }

  @Override
  public void close() {}

  private Space space(String name) {
    Space space = spaces.get(name);
    if (space == null) {
      throw new StorageException("no such space: " + name);
    }
    return space;
  }

  /** The first {@code limit} records of a sorted range, in either direction. */
  private static List<StoredRecord> first(
      NavigableMap<byte[], StoredRecord> range, boolean forward, int limit) {
    List<StoredRecord> out = new ArrayList<>(Math.min(limit, 64));
    for (StoredRecord r : forward ? range.values() : range.descendingMap().values()) {
      if (out.size() >= limit) {
        break;
      }
      out.add(r);
    }
    return out;
  }

  private static boolean above(byte[] sort, Bound lower) {
    if (lower == null) {
      return true;
    }
    int c = SORT_ORDER.compare(sort, lower.sort());
    return c > 0 || (c == 0 && lower.inclusive());
  }

  private static boolean below(byte[] sort, Bound upper) {
    if (upper == null) {
      return true;
    }
    int c = SORT_ORDER.compare(sort, upper.sort());
    return c < 0 || (c == 0 && upper.inclusive());
  }

  /**
   * One space's records: by key for point reads, and by partition, the partitions also in key
   * order. The point map is concurrent (read without a lock); the rest changes only under the
   * commit lock's write side and is read under its read side.
   */
  private static final class Space {
    final ConcurrentHashMap<MapKey, StoredRecord> points = new ConcurrentHashMap<>();
    final Map<MapKey, Partition> partitions = new HashMap<>();
    final NavigableMap<MapKey, Partition> ordered = new TreeMap<>();

    void put(StoredRecord record) {
      StorageKey key = record.key();
      MapKey mapKey = new MapKey(key);
      // A table without a sort key has one record per partition, whose key is the partition's.
      MapKey partitionKey =
          key.sort().length == 0 ? mapKey : new MapKey(key.partition(), EMPTY);
      Partition p = partitions.get(partitionKey);
      if (p == null) {
        p = new Partition(partitionKey);
        partitions.put(partitionKey, p);
        ordered.put(partitionKey, p);
      }
      p.put(record);
      points.put(mapKey, record);
    }

    void delete(StorageKey key) {
      MapKey partitionKey = new MapKey(key.partition(), EMPTY);
      Partition p = partitions.get(partitionKey);
      if (p != null && p.remove(key.sort())) {
        partitions.remove(partitionKey);
        ordered.remove(partitionKey);
      }
      points.remove(new MapKey(key));
    }
  }

  /**
   * One partition's records in sort order. Most partitions of a table without a sort key hold a
   * single record, kept alone rather than in a tree of one.
   */
  private static final class Partition {
    final MapKey key;
    private StoredRecord single;
    private TreeMap<byte[], StoredRecord> records; // when it has held more than one record

    Partition(MapKey key) {
      this.key = key;
    }

    void put(StoredRecord record) {
      byte[] sort = record.key().sort();
      if (records != null) {
        records.put(sort, record);
      } else if (single == null || Arrays.equals(single.key().sort(), sort)) {
        single = record;
      } else {
        records = new TreeMap<>(SORT_ORDER);
        records.put(single.key().sort(), single);
        records.put(sort, record);
        single = null;
      }
    }

    /** Removes the record of this sort key, if any; true when the partition is then empty. */
    boolean remove(byte[] sort) {
      if (records != null) {
        records.remove(sort);
        return records.isEmpty();
      }
      if (single != null && Arrays.equals(single.key().sort(), sort)) {
        single = null;
      }
      return single == null;
    }

    List<StoredRecord> query(Bound lower, Bound upper, boolean forward, int limit) {
      if (records == null) {
        List<StoredRecord> out = new ArrayList<>(1);
        if (single != null && above(single.key().sort(), lower)
            && below(single.key().sort(), upper)) {
          out.add(single);
        }
        return out;
      }
      NavigableMap<byte[], StoredRecord> range;
      if (lower != null && upper != null) {
        int c = SORT_ORDER.compare(lower.sort(), upper.sort());
        if (c > 0 || (c == 0 && !(lower.inclusive() && upper.inclusive()))) {
          return new ArrayList<>(); // an inverted range is empty, not an error
        }
        range = records.subMap(lower.sort(), lower.inclusive(), upper.sort(), upper.inclusive());
      } else if (lower != null) {
        range = records.tailMap(lower.sort(), lower.inclusive());
      } else if (upper != null) {
        range = records.headMap(upper.sort(), upper.inclusive());
      } else {
        range = records;
      }
      return first(range, forward, limit);
    }

    /** Adds the records after {@code afterSort} (all when null) to {@code out}, up to limit. */
    void addAfter(byte[] afterSort, List<StoredRecord> out, int limit) {
      if (records == null) {
        if (single != null && out.size() < limit
            && (afterSort == null || SORT_ORDER.compare(single.key().sort(), afterSort) > 0)) {
          out.add(single);
        }
        return;
      }
      for (StoredRecord r :
          (afterSort == null ? records : records.tailMap(afterSort, false)).values()) {
        if (out.size() >= limit) {
          return;
        }
        out.add(r);
      }
    }
  }
}
