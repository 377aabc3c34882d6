package io.stator.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The storage SPI: what the engine needs from a store, and nothing more.
 *
 * <p>A storage holds named <em>spaces</em> (one per table, index, stream log, and the catalog).
 * A space is an ordered map from {@link StorageKey} to a versioned value. Keys are ordered by
 * partition bytes, then sort bytes, both compared as unsigned bytes; the engine encodes keys so
 * that this order is DynamoDB's order (see {@code io.stator.key}).
 *
 * <p>Writes happen only through {@link #commit}: a set of puts and deletes across any spaces,
 * guarded by a set of expected versions, applied all together or not at all. This is the only
 * concurrency primitive: conditional writes, UpdateItem and transactions are "read, compute,
 * commit with expectations" in the engine.
 *
 * <p>Reads observe commits atomically: a {@link #query} sees each commit wholly or not at all,
 * so a record that one commit moves from one key to another of the partition is never seen
 * twice, nor missed; secondary indexes rely on this when an item's index sort key changes. A
 * {@link #scan} does so within each partition; a storage that spreads a space over several
 * machines may read a scan's partitions at different instants, as successive pages of a scan
 * are read, so a record moved between partitions may be seen twice or missed by one scan as by
 * two pages (no engine read relies on more).
 *
 * <p>The SPI must stay implementable by a distributed engine (one Cassandra table per space,
 * {@code PRIMARY KEY ((partition), sort)}, a commit as one Accord transaction). So no call here
 * assumes that one process owns the data, holds a lock between calls, or reads its own
 * uncommitted writes.
 *
 * <p>Versions: every committed put gives its key a version that key never had before, also
 * across deletes (so a delete and re-create is never mistaken for "unchanged"), whichever process
 * committed it: a store shared by several processes never issues one version twice for a key.
 * {@link #commit} returns the version its puts got. {@link Commit.Expectation#ABSENT} (0) expects
 * no item and is never issued.
 *
 * <p>Versions are unique, not ordered: a key's next version may be smaller than its last. Nothing
 * above the storage compares versions but for equality: an expectation holds when the key has
 * exactly the version expected, and the catalog reuses a decoded definition while its record's
 * version is the one it decoded. Equality is enough for both only if no version comes back, and
 * that is all the SPI promises. A storage may order its own versions for its own use (RocksDB's
 * record cache does), but a store that several processes write cannot order them cheaply: each
 * would have to learn the others' versions on every commit, where uniqueness only needs them to
 * take numbers from disjoint ranges (see {@code docs/cassandra.md}).
 *
 * <p>Unknown outcomes: a storage whose commit can fail after it may have been applied (a
 * networked store whose answer is lost, a local one whose log write failed after the commit was
 * visible) throws {@link CommitOutcomeUnknownException}, never a plain {@link StorageException},
 * so that the caller never takes such a commit for one that wrote nothing. Every other failure
 * of a commit wrote nothing. The engine finds out what became of it (see {@code
 * io.stator.engine.UnknownOutcomes}).
 *
 * <p>Durability: a commit is durable when it returns, unless its thread defers that (see {@link
 * GroupCommit}); a storage that does not group commits keeps {@code GroupCommit}'s defaults.
 *
 * <p>Byte arrays: a storage may keep the arrays a {@link Commit} passes it rather than copies, so
 * callers do not change them afterwards; and callers treat arrays in returned records as
 * read-only, since they may be the storage's own.
 */
public interface Storage extends AutoCloseable, GroupCommit {

  /** Creates the space if it does not exist. */
  void createSpace(String space);

  /** Drops the space and all its data, if it exists. */
  void dropSpace(String space);

  /** The names of all spaces. */
  Set<String> spaces();

  /** Point read. */
  Optional<StoredRecord> get(String space, StorageKey key);

  /**
   * Point reads of many keys, of one space or several, in one call (BatchGetItem's up to 100
   * keys): what each read finds, in the order of {@code reads}, empty where there is no record.
   * Each record is one that a commit wrote and nothing later replaced when it was read; the reads
   * are not one snapshot (a commit between two of them may be seen by the later one only), which
   * lets a networked store send them all at once. A read of a missing space fails the call.
   */
  default List<Optional<StoredRecord>> getAll(List<KeyRead> reads, Consistency consistency) {
    // One get after the other: right for a storage in this process; a remote one sends them
    // together
    List<Optional<StoredRecord>> out = new ArrayList<>(reads.size());
    for (KeyRead read : reads) {
      out.add(get(read.space(), read.key()));
    }
    return out;
  }

  /**
   * A range read within one partition, in sort order ({@code forward}) or reverse.
   *
   * @param lower the lower sort bound, or null for none
   * @param upper the upper sort bound, or null for none
   * @param limit the maximum number of records returned (positive)
   */
  List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit);

  /**
   * An ordered scan across partitions: records whose partition lies in {@code [fromPartition,
   * toPartition)} (either may be null for unbounded), in key order, starting strictly after {@code
   * startAfter} when it is given.
   */
  List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit);

  /**
   * One page of {@link #scan}'s records, at most {@code limit} of them (positive), saying whether
   * more follow: a caller pages on until {@link ScanPage#more} is false, never stopping at a short
   * page. The default reads one record past the page to know; a storage that reads in pieces may
   * end a page early instead.
   */
  default ScanPage scanPage(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    int ask = limit == Integer.MAX_VALUE ? limit : limit + 1;
    List<StoredRecord> records = scan(space, fromPartition, toPartition, startAfter, ask);
    if (records.size() > limit) {
      return new ScanPage(records.subList(0, limit), true);
    }
    return new ScanPage(records, false);
  }

  /**
   * The partitions that segment {@code segment} (from 0) of {@code totalSegments} of a parallel
   * Scan of the space reads, for {@link #scanPage}'s range: the segments of one split are
   * disjoint and together cover the space. The default splits the byte order of partitions evenly
   * ({@link Segment#ofByteOrder}); a storage that spreads a space by another order (token ranges)
   * splits by that.
   */
  default Segment segment(String space, int segment, int totalSegments) {
    return Segment.ofByteOrder(segment, totalSegments);
  }

  /**
   * Applies every write atomically if every expectation holds, else nothing.
   *
   * @return the version every put of the commit got (one for all of them), or {@link
   *     Commit.Expectation#ABSENT} when the commit has no put
   * @throws CommitConflictException when an expectation does not hold; nothing was written
   * @throws CommitOutcomeUnknownException when the commit may or may not have been applied (a
   *     timeout, a lost connection): it carries the version its puts got if it was
   * @throws StorageException any other fault; nothing was written
   */
  long commit(Commit commit);

  /** How many records {@link #copySpace}'s default writes in one commit. */
  int COPY_BATCH = 100;

  /**
   * Copies every record of {@code source} into {@code target}, which this call creates and which
   * does not exist yet: the keys and values the source holds, with versions of the target's own
   * (a storage may keep the source's, which are new to the target's keys). A backup of a table is
   * this copy where it is one instant ({@link #copiesAtOneInstant}). Later commits to either space
   * do not reach the other.
   *
   * <p>A storage in one process copies the records as they were at one instant, every commit
   * wholly or not at all, while commits go on (memory under its commit lock, RocksDB from a
   * snapshot). The default, which Cassandra uses, is not one instant: it reads {@link #scanPage}
   * after page and commits each page's records to the target, so a commit to the source while
   * it runs may be seen in the pages read after it and not in those read before. It is one
   * instant for a source no one writes meanwhile.
   *
   * @throws StorageException if {@code source} does not exist (nothing is created) or the copy
   *     fails part way (the caller drops {@code target})
   */
  default void copySpace(String source, String target) {
    ScanPage page = scanPage(source, null, null, null, COPY_BATCH); // a missing source fails here
    createSpace(target);
    while (true) {
      if (!page.records().isEmpty()) {
        Commit commit = new Commit();
        for (StoredRecord r : page.records()) {
          commit.put(target, r.key(), r.value());
        }
        commit(commit);
      }
      if (!page.more()) {
        return;
      }
      StorageKey last = page.records().get(page.records().size() - 1).key();
      page = scanPage(source, null, null, last, COPY_BATCH);
    }
  }

  /**
   * True when {@link #copySpace} copies the records as they were at one instant while commits go
   * on (a storage in one process), false for the default's page-by-page copy. A backup of a table
   * being written takes the copy as it is when true, and otherwise copies the items as of an
   * instant from the table and its change history (see {@code backup.OnDemandBackups}).
   */
  default boolean copiesAtOneInstant() {
    return false;
  }

  /**
   * False when only one process can have this storage open at a time (a RocksDB directory, which
   * its process locks, or memory), so that whatever another process left in it is of a process
   * that has ended; true (the default) for a store that servers in several processes share.
   */
  default boolean sharedByProcesses() {
    return true;
  }

  /** The number of records and their total key and value bytes in a space (may be estimated). */
  SpaceStats stats(String space);

  @Override
  void close();
}
