package io.stator.storage.rocksdb;

import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.ColumnFamilyHandle;

/**
 * The latest committed state of recently read and written keys, kept exactly, so that a point read
 * of a key in it (GetItem, and the read of the old item every write makes) costs a hash lookup
 * instead of a descent through RocksDB's memtables and files.
 *
 * <p>An entry holds a key's record, or its absence. Being exact means: whenever an entry is
 * present, it is what RocksDB holds for the key. Two kinds of insertion keep that true:
 *
 * <ul>
 *   <li>{@link #written}: a commit, under the store's commit lock and after its WriteBatch is
 *       applied, replaces the entries of the keys it wrote. Commits are the only writers, so an
 *       entry stays exact until the next commit of its key, which replaces it again.
 *   <li>{@link #fill}: a reader that missed adds what it read from RocksDB. Its read may be older
 *       than a commit that landed meanwhile, so a fill is only accepted if the key has no entry
 *       (a commit's entry is newer than any fill) and no entry a commit put after the reader began
 *       has been evicted since (the reader passes the last version published when it began;
 *       evicting a commit's entry raises {@code horizon} to that entry's version first, and a fill
 *       from a reader that began before the horizon is refused). The check and the insertion
 *       happen under the segment's lock, as do eviction and the horizon's rise.
 * </ul>
 *
 * <p>A reader's fill is admitted only at the key's second miss: each segment marks the keys whose
 * fill it turned away in a bit set, cleared when an eighth full, and admits a key whose bit is
 * set. A key read again and again (a small table, a hot key) goes in at its second read; keys
 * drawn at random from a table many times the cache's size rarely miss twice within one window,
 * and stay out. Admitted, each would have evicted an entry that was still young, and the collector copied
 * every such entry between survivor spaces before it died: young pauses of ~90 ms at 10M items.
 * Refusing a fill never makes the cache wrong, only slower.
 *
 * <p>Sixteen segments by key hash, each a map in insertion order that evicts its oldest entries
 * beyond its share of the byte budget (first in, first out: a hit moves nothing, so a read writes
 * no memory; an evicted key that is still in use comes back with its next read or write); a
 * segment's lock is held for a lookup or an insertion only. The cached records are shared with
 * callers, as {@code MemoryStorage} shares its own: the engine never changes a stored value in
 * place.
 */
final class RecordCache {
  private static final int SEGMENT_BITS = 4;
  private static final int SEGMENTS = 1 << SEGMENT_BITS;
  /** Map entry, key and record objects of one entry, roughly. */
  private static final long ENTRY_OVERHEAD = 160;
  /**
   * The bits of a segment's admission set (32 KB), cleared at one eighth set: ~32,000 keys turned
   * away per segment per window, and at most one key in eight admitted by another's bit.
   */
  private static final int ADMISSION_BITS = 1 << 18;

  /** A key of a column family; the handle is compared by identity. */
  record Slot(ColumnFamilyHandle space, StorageKey key) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Slot s && s.space == space && s.key.equals(key);
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(space) * 31 + key.hashCode();
    }
  }

  /**
   * A key's state: its record, or null when the key is absent. {@code stamp} is the version of
   * the commit that put the entry, or 0 for a fill.
   */
  record Entry(StoredRecord record, long stamp) {
    long bytes(Slot slot) {
      StorageKey k = slot.key();
      return ENTRY_OVERHEAD + k.partition().length + k.sort().length
          + (record == null ? 0 : record.value().length);
    }
  }

  private static final class Segment extends LinkedHashMap<Slot, Entry> {
    long bytes;
    /** The keys whose fill this segment turned away, by a hash bit; see the class comment. */
    final long[] missed = new long[ADMISSION_BITS / Long.SIZE];
    int marked;

    Segment() {
      super(64, 0.75f, false);
    }

    /** Whether a fill of the key goes in: its bit is set by an earlier fill turned away. */
    boolean admits(int mixedHash) {
      int bit = mixedHash & (ADMISSION_BITS - 1);
      long mask = 1L << bit;
      if ((missed[bit >>> 6] & mask) != 0) {
        return true;
      }
      missed[bit >>> 6] |= mask;
      if (++marked > ADMISSION_BITS / 8) {
        Arrays.fill(missed, 0);
        marked = 0;
      }
      return false;
    }
  }

  private final Segment[] segments = new Segment[SEGMENTS];
  private final long segmentBudget;
  /** The greatest stamp of an evicted entry; see the class comment. */
  private final AtomicLong horizon = new AtomicLong();

  RecordCache(long budgetBytes) {
    this.segmentBudget = budgetBytes / SEGMENTS;
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment();
    }
  }

  /** The cached state of a key, or null when the key is not cached. */
  Entry get(Slot slot) {
    Segment segment = segment(mixedHash(slot));
    synchronized (segment) {
      return segment.get(slot);
    }
  }

  /** Records a key's state after a commit wrote it (under the commit lock). */
  void written(Slot slot, StoredRecord record, long version) {
    put(slot, new Entry(record, version), Long.MAX_VALUE);
  }

  /**
   * Offers what a reader read from RocksDB ({@code record} null when the key was absent);
   * {@code seen} is the version the store had published when the reader began.
   */
  void fill(Slot slot, StoredRecord record, long seen) {
    put(slot, new Entry(record, 0), seen);
  }

  private void put(Slot slot, Entry entry, long seen) {
    int hash = mixedHash(slot);
    Segment segment = segment(hash);
    synchronized (segment) {
      if (seen != Long.MAX_VALUE
          && (!segment.admits(hash) || horizon.get() > seen || segment.containsKey(slot))) {
        return;
      }
      Entry old = segment.put(slot, entry);
      segment.bytes += entry.bytes(slot) - (old == null ? 0 : old.bytes(slot));
      if (segment.bytes > segmentBudget) {
        Iterator<Map.Entry<Slot, Entry>> eldest = segment.entrySet().iterator();
        while (segment.bytes > segmentBudget && eldest.hasNext()) {
          Map.Entry<Slot, Entry> e = eldest.next();
          if (e.getKey().equals(slot)) {
            continue; // keep the entry just put, even when it alone is over the share
          }
          evicting(e.getValue().stamp());
          segment.bytes -= e.getValue().bytes(e.getKey());
          eldest.remove();
        }
      }
    }
  }

  /** Forgets every key of a column family (dropped; no reader or commit runs meanwhile). */
  void forget(ColumnFamilyHandle space) {
    for (Segment segment : segments) {
      synchronized (segment) {
        segment.entrySet().removeIf(e -> {
          if (e.getKey().space() != space) {
            return false;
          }
          evicting(e.getValue().stamp());
          segment.bytes -= e.getValue().bytes(e.getKey());
          return true;
        });
      }
    }
  }

  /**
   * Forgets everything and refuses fills from readers that began before {@code version}: after a
   * failed write, whose effect on RocksDB is unknown.
   */
  void clear(long version) {
    for (Segment segment : segments) {
      synchronized (segment) {
        evicting(version);
        segment.clear();
        segment.bytes = 0;
      }
    }
  }

  private void evicting(long stamp) {
    horizon.accumulateAndGet(stamp, Math::max);
  }

  /**
   * The segment of a key, from the top bits of its mixed hash: the maps inside index their buckets
   * by the low bits, which a segment's keys must not all share.
   */
  private Segment segment(int mixedHash) {
    return segments[mixedHash >>> (32 - SEGMENT_BITS)];
  }

  private static int mixedHash(Slot slot) {
    return slot.hashCode() * 0x9E3779B9;
  }
}
