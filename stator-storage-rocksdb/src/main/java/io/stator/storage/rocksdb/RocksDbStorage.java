package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.Consistency;
import io.stator.storage.KeyRead;
import io.stator.storage.Locks;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.Range;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksObject;
import org.rocksdb.SizeApproximationFlag;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The durable default {@link Storage}: one RocksDB database in a local directory.
 *
 * <h2>Layout</h2>
 *
 * <p>Each space (a table, an index, a stream log, the catalog) is its own column family, so
 * dropping a table is a {@code DropColumnFamily} instead of a range delete, and each space has its
 * own memtables, files and statistics. The families come from a {@link ColumnFamilyPool}, which
 * makes them ahead in batches and drops them behind, named {@code "pool:" + n}; stores made
 * before it keep families named {@code "space:" + name}. RocksDB's own {@code "default"} column
 * family holds only this class's metadata: {@code "format"} (the store format, 1), {@code
 * "version"} (the last version issued) and the pool's {@code "family:" + space} records of which
 * family holds which space. The catalog is not special here: the engine keeps it in a space like
 * any other, so a restart finds every table as it was.
 *
 * <p>A record's RocksDB key is {@link CompositeKey}: the escaped partition, a terminator, then the
 * raw sort bytes. It preserves (partition, sort) order under RocksDB's bytewise comparator even
 * when partitions are byte-prefixes of one another, and {@code escape(partition) 00 01} is a
 * prefix of exactly one partition's keys, so a Query is one range of one iterator. The value is
 * the 8-byte big-endian version followed by the payload.
 *
 * <h2>Versions</h2>
 *
 * <p>One counter for the whole store, bumped once per commit; every put of the commit gets the new
 * value, which {@link #commit} returns. Since the counter only grows, a key's new version is one
 * it never had, also across delete and re-create (the SPI's rule, which stops a re-created item
 * from passing for an unchanged one); it is even greater than any it had, which the SPI does not
 * ask but {@link RecordCache} uses. Only one process writes the store (RocksDB's lock on the
 * directory refuses a second open, in this process or another), so one counter in memory issues
 * every version of the store. {@code "version"} holds a ceiling, not the counter: versions are issued up to
 * it, and the commit that needs the first version above it also raises it by {@value
 * #VERSION_BLOCK}, inside the same WriteBatch. The ceiling is therefore exactly as durable as the
 * records carrying versions under it: after any crash it is at least every stored version, and a
 * reopened store issues versions above it. Writing it once per block rather than once per commit
 * spares every commit a third record in the WAL and the memtables; a restart skips at most one
 * block of numbers.
 *
 * <h2>Atomicity</h2>
 *
 * <p>{@link #commit} holds one lock while it reads every expected version (point reads, which see
 * the latest committed state) and writes one {@link WriteBatch} across all the column families
 * involved. RocksDB applies a WriteBatch atomically, in the WAL and in the memtables, so readers
 * and recovery see all of a commit or none of it. The lock makes "check, then write" atomic with
 * respect to other commits; this needs no multi-process coordination because RocksDB itself
 * refuses a second process on the same directory (its LOCK file). Reads take no commit lock. A
 * multi-key read may observe commits landing between its reads, as it may on DynamoDB; the engine
 * does not rely on multi-key read snapshots outside a commit.
 *
 * <p>Two failures leave a commit's outcome unknown ({@code CommitOutcomeUnknownException}):
 * RocksDB's write failing (its WAL record may be in the buffer or the file, and replayed at the
 * next open, though this process never sees it applied), and the WAL's write to its file
 * failing after the commit was applied (readers see it; a restart may not). Either carries the
 * version the commit's puts got, which no later commit is given. A failure before the write (a
 * missing space, a closed store) wrote nothing and is a plain {@code StorageException}. A thread
 * that defers durability learns of a failed WAL write from {@link #awaitDurable}, for all its
 * commits at once.
 *
 * <p>Why not RocksDB's {@code OptimisticTransactionDB}? It validates per key at commit too, but
 * its conflict check is against the transaction's own read snapshot and is tied to one process's
 * sequence numbers; our expectations are explicit versions supplied by the engine, which is also
 * exactly what a distributed engine checks. A plain lock plus a WriteBatch is simpler and enough
 * for a single process, and the commits are short (point reads and one write).
 *
 * <h2>Recent records</h2>
 *
 * <p>{@link RecordCache} keeps the latest state of recently read and written keys (on the heap,
 * an eighth of the store's memory, at most 64 MB): a point read found there, like the read of the old item that precedes every write,
 * skips RocksDB's memtable and file lookups, and an expectation is checked without a read.
 * Commits replace the entries of the keys they write under the commit lock; a reader adds what it
 * read only under the rule that keeps an entry exact, and only at the key's second miss (see the
 * class). Ranges (Query, Scan) always read RocksDB.
 *
 * <h2>Blocks</h2>
 *
 * <p>Blocks read from the files go through one cache, which the memtables are charged to as
 * well. Each file's index and Bloom filter stay with the open file rather than in the
 * cache, so a point read looks up one block, its data block, and finds the key in it through the
 * block's hash index. The filters also hold each key's first bytes, which the partition key's
 * hash fills, so a Query skips the files that hold nothing of its partition.
 *
 * <h2>Memory</h2>
 *
 * <p>One budget, given by the caller (the server's {@code --cache-size}; by default an eighth of
 * the machine's memory, between 64 and 256 MB), bounds the store's caches: the record cache
 * takes an eighth of it (at most 64 MB), the memtables a quarter (at most 64 MB, charged to the
 * block cache), and the blocks read from files the rest. Outside the budget: the indexes and
 * filters of the open files (about 2.5 bytes per item; at most {@link #maxOpenFiles} files are
 * open) and RocksDB's own arenas, a few megabytes.
 *
 * <h2>Durability</h2>
 *
 * <p>The write-ahead log is on and writes use {@code sync=false}: the batch is in the WAL file,
 * written with {@code write(2)}, before {@code commit} returns (on a thread that does not defer
 * durability, see below), so the bytes are in the operating system's page cache. An acknowledged
 * write therefore survives the death of the Java process ({@code kill -9}, an OOM kill, a crash
 * in native code) because the kernel still writes the page cache to disk; it does not survive a
 * power loss or kernel panic in the few seconds before the kernel flushes. That is the
 * durability of a local development database (the same trade DynamoDB Local and most embedded
 * stores make); an fsync per commit would cost milliseconds each.
 *
 * <p>Group commit ({@link io.stator.storage.GroupCommit}): RocksDB runs with a manual WAL flush,
 * so a batch's WAL record stays in RocksDB's buffer until {@link #awaitDurable} writes the
 * buffer to the file, for every commit logged so far. A commit calls it before it returns, unless
 * its thread defers durability; the server's threads do, and call it once per turn of their
 * event loop before they send the turn's answers, so one {@code write(2)} serves all of them
 * (durable PutItem 6-19% more requests per second on the load benchmark). A reader may see a
 * batch as soon as RocksDB has applied it, before its commit has counted it as logged, so
 * {@code awaitDurable} also waits for a commit in progress. The crash test in this
 * module kills a writer process with SIGKILL, committing one by one or in groups, and checks that
 * every acknowledged commit is present and none is half-applied.
 *
 * <h2>Format</h2>
 *
 * <p>The store records its format version ({@code "format"} = 1) when created. Opening a store
 * with another format, or a RocksDB directory that is not a Stator store, fails loudly with a
 * {@link StorageException} instead of misreading it; a later release that changes the layout
 * bumps the format and either migrates or refuses.
 *
 * <h2>The distributed-engine constraint</h2>
 *
 * <p>The SPI must stay implementable on Apache Cassandra with Accord (one table per space,
 * {@code PRIMARY KEY ((partition), sort)}, a commit as one transaction that reads the expected
 * versions and writes only if they all match). Nothing here leaks past that shape: no call holds
 * a lock after it returns, no read sees uncommitted writes, versions are opaque numbers compared
 * for equality by expectations, and Scan's order across partitions is only "the order of
 * StorageKey", which the engine makes hash order by putting the hash first in the partition
 * bytes. That hash is the engine's own (FNV-1a with a MurmurHash3 finaliser, see {@code
 * KeyCodec}), not Cassandra's Murmur3 token, so a Cassandra token range is not a range of
 * it: a storage on Cassandra orders partitions by the engine's hash itself.
 *
 * <h2>Statistics</h2>
 *
 * <p>{@link #stats} feeds DescribeTable's ItemCount and TableSizeBytes. While {@code
 * rocksdb.estimate-num-keys} is at most {@link #EXACT_STATS_RECORDS} it reads the space and
 * counts its records and their key and value bytes, as the memory storage does; the estimate
 * counts overwrites and deletes still in memtables as records until compaction merges them.
 * Above, or when the count runs past twice that many records, it reports the estimate and the
 * approximate size of the space's key range in files and memtables (compressed, so
 * TableSizeBytes drops at the boundary), which DynamoDB's own approximate figures allow.
 *
 * <p>Thread safety: every method may be called from any thread. {@link #close} waits for calls in
 * progress and makes later calls fail with a {@link StorageException} rather than touching freed
 * native memory.
 */
public final class RocksDbStorage implements Storage {
  static final int FORMAT = 1;
  private static final String SPACE_PREFIX = "space:";
  private static final byte[] META_FORMAT = "format".getBytes(UTF_8);
  private static final byte[] META_VERSION = "version".getBytes(UTF_8);
  /** How far each write of the version ceiling raises it. */
  static final long VERSION_BLOCK = 1 << 16;
  // One budget, split three ways (see "Memory"): the memtables take at most a quarter of it, and
  // blocks read from files the rest of the cache the memtables are charged to. With a cache of
  // only the memtables' size, full memtables left no room for blocks, so every GetItem read the
  // whole filter and index blocks of each L0 file again (3.5 ms of CPU per GetItem on a table of
  // 1M items just loaded, against 0.15 ms at 100k; see docs/performance.md, "Scale").
  /** The smallest memory budget {@link #open(Path, long)} accepts. */
  public static final long MIN_MEMORY_BYTES = 64L << 20;
  /** The default budget is an eighth of the machine's memory, within these bounds. */
  private static final long MAX_DEFAULT_MEMORY_BYTES = 256L << 20;
  // The records of recently used keys, on the heap; a GetItem or a write's read of the old item
  // found there costs a hash lookup instead of a RocksDB point read (see RecordCache).
  private static final long MAX_RECORD_CACHE_BYTES = 64L << 20;
  // Up to this many records (RocksDB's estimate), stats() reads a space to count it exactly.
  private static final long EXACT_STATS_RECORDS = 50_000;

  private final Path dir;
  private final RocksDB db;
  private final ColumnFamilyHandle meta;
  private final Map<String, ColumnFamilyHandle> spaces;
  /** Native objects to close after the database, in this order. */
  private final Deque<RocksObject> natives;
  private final ColumnFamilyOptions spaceOptions;
  private final WriteOptions writeOptions;

  /**
   * Taken shared by every call, exclusively by {@link #close} and to free the handles of dropped
   * spaces.
   */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private final Lock commitLock = new ReentrantLock();
  // Every commit fills the same batch, cleared first, and lays each put's key and value out in
  // the same direct buffers, from which RocksDB copies them without a copy on the heap: a durable
  // PutItem made a native batch and a value array (the item's ~1 KB, again for its GSI entry)
  // for each write. All three are guarded by commitLock.
  private WriteBatch batch = new WriteBatch();
  private ByteBuffer putKey = ByteBuffer.allocateDirect(1024);
  private ByteBuffer putValue = ByteBuffer.allocateDirect(8192);
  /** Past this many bytes, a batch is dropped after its commit rather than kept for the next. */
  private static final long KEPT_BATCH_BYTES = 1 << 20;
  /** Held while the WAL's buffer is written to its file; see {@link #awaitDurable}. */
  private final Lock walLock = new ReentrantLock();
  /**
   * The commits that readers may see, counted under commitLock as each starts RocksDB's write (a
   * batch is visible before {@code db.write} returns) and uncounted if the write fails. Read
   * under commitLock, when no write is half done, every commit it counts has its WAL record in
   * RocksDB's buffer.
   */
  private volatile long logged;
  /** The first {@code durable} commits are in the WAL's file; written under walLock or by close. */
  private volatile long durable;
  /** Whether the calling thread defers durability (see {@link #deferDurabilityOnThisThread}). */
  private final ThreadLocal<Boolean> deferring = ThreadLocal.withInitial(() -> false);
  private boolean closed; // guarded by lifecycle
  /**
   * The last version issued; written under commitLock, after the commit's records are in RocksDB
   * and in {@link #recent}, and read without it by readers filling {@link #recent}.
   */
  private volatile long lastVersion;
  /** The greatest version the stored ceiling allows; guarded by commitLock. */
  private long versionCeiling;
  /** The latest state of recently read and written keys; see {@link RecordCache}. */
  private final RecordCache recent;
  /** Bloom filters on the memtables of the spaces that reads from RocksDB show to be large. */
  private final MemtableFilters filters;
  /** The column families of new spaces, made ahead, and of dropped ones, dropped behind. */
  private final ColumnFamilyPool pool;
  /** Held while a space is made or dropped, so that two calls for one space take turns. */
  private final Lock spacesLock = new ReentrantLock();

  private RocksDbStorage(
      Path dir,
      RocksDB db,
      ColumnFamilyHandle meta,
      Map<String, ColumnFamilyHandle> legacy,
      Map<String, ColumnFamilyHandle> pooled,
      Deque<RocksObject> natives,
      ColumnFamilyOptions spaceOptions,
      long lastVersion,
      long recordCacheBytes)
      throws RocksDBException {
    this.dir = dir;
    this.recent = new RecordCache(recordCacheBytes);
    this.filters = new MemtableFilters(db);
    this.db = db;
    this.meta = meta;
    this.spaces = new ConcurrentHashMap<>();
    this.natives = natives;
    this.spaceOptions = spaceOptions;
    this.lastVersion = lastVersion;
    this.versionCeiling = lastVersion;
    this.writeOptions = new WriteOptions().setSync(false).setDisableWAL(false);
    natives.addFirst(writeOptions);
    this.pool = new ColumnFamilyPool(db, meta, spaceOptions, writeOptions, poolAccess());
    pool.open(pooled, legacy, this.spaces);
  }

  /**
   * Opens the store in {@code dir}, creating it (and the directory) if missing.
   *
   * @throws StorageException if the directory holds something other than a Stator store of a
   *     format this version understands, is locked by another process, or cannot be read
   */
  public static RocksDbStorage open(Path dir) {
    return open(dir, defaultMemoryBytes());
  }

  /**
   * Opens the store in {@code dir} with {@code memoryBytes} for its caches: the memtables, the
   * blocks read from its files and the records of recently used keys (see "Memory"). The caches
   * take memory only as they fill.
   *
   * @throws IllegalArgumentException if {@code memoryBytes} is below {@link #MIN_MEMORY_BYTES}
   * @throws StorageException as {@link #open(Path)}
   */
  public static RocksDbStorage open(Path dir, long memoryBytes) {
    if (memoryBytes < MIN_MEMORY_BYTES) {
      throw new IllegalArgumentException(
          "the store's memory must be at least " + (MIN_MEMORY_BYTES >> 20) + " MB");
    }
    return open(dir, memoryBytes, Math.min(MAX_RECORD_CACHE_BYTES, memoryBytes / 8));
  }

  /**
   * The memory of the store's caches when none is given: an eighth of the machine's memory (of
   * the container's, when it has a limit), between {@link #MIN_MEMORY_BYTES} and 256 MB. A table
   * whose blocks fit is read from memory; one that does not is read through the operating
   * system's page cache, a {@code pread} and a decompression per block (docs/performance.md,
   * "Scale"), so a large table is read faster with more ({@code --cache-size}).
   */
  public static long defaultMemoryBytes() {
    long machine =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    return Math.max(MIN_MEMORY_BYTES, Math.min(MAX_DEFAULT_MEMORY_BYTES, machine / 8));
  }

  /**
   * The most files RocksDB keeps open: a quarter of the process's descriptor limit, between 64
   * and 1,000, so that files never take the descriptors the server's connections need. A file
   * not open is opened again when read (its index and filter read anew).
   */
  static int maxOpenFiles() {
    long limit = 4096;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      limit = unix.getMaxFileDescriptorCount();
    }
    return (int) Math.max(64, Math.min(1000, limit / 4));
  }

  /**
   * Opens the store with {@code memoryBytes} for its caches, {@code recordCacheBytes} of them for
   * the record cache (tests use tiny ones).
   */
  static RocksDbStorage open(Path dir, long memoryBytes, long recordCacheBytes) {
    RocksDB.loadLibrary();
    Deque<RocksObject> natives = new ArrayDeque<>();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    RocksDB db = null;
    try {
      createPrivately(dir);
      String path = dir.toString();
      boolean exists = Files.exists(dir.resolve("CURRENT"));

      StoreOptions storeOptions = StoreOptions.create(memoryBytes, recordCacheBytes, natives);
      ColumnFamilyOptions spaceOptions = storeOptions.spaces();
      DBOptions dbOptions = storeOptions.store();

      List<byte[]> names = familyNames(path, exists);
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      for (byte[] name : names) {
        descriptors.add(new ColumnFamilyDescriptor(name, spaceOptions));
      }
      db = RocksDB.open(dbOptions, path, descriptors, handles);

      ColumnFamilyHandle meta = null;
      Map<String, ColumnFamilyHandle> legacy = new HashMap<>();
      Map<String, ColumnFamilyHandle> pooled = new HashMap<>();
      boolean foreign = false;
      for (int i = 0; i < names.size(); i++) {
        String name = new String(names.get(i), UTF_8);
        if (Arrays.equals(names.get(i), RocksDB.DEFAULT_COLUMN_FAMILY)) {
          meta = handles.get(i);
        } else if (name.startsWith(SPACE_PREFIX)) {
          // a space made before the pool, in a family named after it
          legacy.put(name.substring(SPACE_PREFIX.length()), handles.get(i));
        } else if (name.startsWith(ColumnFamilyPool.PREFIX)) {
          pooled.put(name, handles.get(i));
        } else {
          foreign = true;
        }
      }
      long lastVersion =
          checkFormat(db, meta, dir, exists, foreign || !legacy.isEmpty() || !pooled.isEmpty());
      for (ColumnFamilyHandle h : handles) {
        natives.addFirst(h);
      }
      return new RocksDbStorage(
          dir, db, meta, legacy, pooled, natives, spaceOptions, lastVersion, recordCacheBytes);
    } catch (RocksDBException | IOException | RuntimeException e) {
      for (ColumnFamilyHandle h : handles) {
        h.close();
      }
      if (db != null) {
        db.close();
      }
      natives.forEach(RocksObject::close);
      if (e instanceof StorageException se) {
        throw se;
      }
      throw new StorageException("cannot open the store in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The column families of the store in {@code path}, the default one (the metadata) first. */
  private static List<byte[]> familyNames(String path, boolean exists) throws RocksDBException {
    List<byte[]> names = new ArrayList<>();
    if (exists) {
      try (Options options = new Options()) {
        names.addAll(RocksDB.listColumnFamilies(options, path));
      }
    }
    if (names.stream().noneMatch(n -> Arrays.equals(n, RocksDB.DEFAULT_COLUMN_FAMILY))) {
      names.add(0, RocksDB.DEFAULT_COLUMN_FAMILY);
    }
    return names;
  }

  /**
   * Creates the store's directory, and its missing parents, readable by its owner only (0700)
   * where the file system has POSIX permissions: RocksDB makes its files 0644, with no option to
   * change that, and a private directory keeps other local users out of them.
   */
  private static void createPrivately(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try {
      Files.createDirectory(
          dir,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException notPosix) {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException raced) {
      // Made meanwhile by someone else: opening it finds out whether it is a store. A file in
      // the way is no such race, and its exception says so in the caller's words.
      if (!Files.isDirectory(dir)) {
        throw raced;
      }
    }
  }

  /** Writes the format marker of a new store, or checks it; returns the last version issued. */
  private static long checkFormat(
      RocksDB db, ColumnFamilyHandle meta, Path dir, boolean existed, boolean hasOtherFamilies)
      throws RocksDBException {
    byte[] format = db.get(meta, META_FORMAT);
    if (format == null) {
      if (existed && (hasOtherFamilies || hasAnyKey(db, meta))) {
        throw new StorageException(
            dir + " holds a RocksDB database that is not a Stator store (no format marker);"
                + " refusing to open it");
      }
      try (WriteBatch batch = new WriteBatch();
          WriteOptions sync = new WriteOptions().setSync(true)) {
        batch.put(meta, META_FORMAT, ByteBuffer.allocate(4).putInt(FORMAT).array());
        batch.put(meta, META_VERSION, longBytes(0));
        db.write(sync, batch);
      }
      return 0;
    }
    int found = format.length == 4 ? ByteBuffer.wrap(format).getInt() : -1;
    if (found != FORMAT) {
      throw new StorageException(
          "the store in " + dir + " has format " + found + ", but this version of Stator reads"
              + " only format " + FORMAT + "; refusing to open it");
    }
    byte[] version = db.get(meta, META_VERSION);
    if (version == null || version.length != 8) {
      throw new StorageException("the store in " + dir + " has no valid version counter");
    }
    return ByteBuffer.wrap(version).getLong();
  }

  static boolean hasAnyKey(RocksDB db, ColumnFamilyHandle cf) {
    try (RocksIterator it = db.newIterator(cf)) {
      it.seekToFirst();
      return it.isValid();
    }
  }

  // ---------------------------------------------------------------- spaces

  /** Gives the space a column family of the pool (see {@link ColumnFamilyPool}). */
  @Override
  public void createSpace(String space) {
    Lock shared = enter();
    spacesLock.lock();
    try {
      if (!spaces.containsKey(space)) {
        spaces.put(space, pool.take(space));
      }
    } catch (RocksDBException e) {
      throw fault("cannot create space " + space, e);
    } finally {
      spacesLock.unlock();
      shared.unlock();
    }
  }

  /**
   * Takes the space out of the store at once; its column family is dropped behind (see {@link
   * ColumnFamilyPool}). Out of the spaces under the commit lock, so that no commit is writing
   * to it when it goes; reads that found it before finish on it, as its handle is freed only
   * under the exclusive lock.
   */
  @Override
  public void dropSpace(String space) {
    Lock shared = enter();
    spacesLock.lock();
    try {
      ColumnFamilyHandle handle;
      Locks.lockCommit(commitLock);
      try {
        handle = spaces.remove(space);
      } finally {
        commitLock.unlock();
      }
      if (handle != null) {
        filters.forget(space);
        pool.drop(space, handle); // and the record cache forgets it with the drop
      }
    } catch (RocksDBException e) {
      throw fault("cannot drop space " + space, e);
    } finally {
      spacesLock.unlock();
      shared.unlock();
    }
  }

  /** The pool's way into this store's locks and write-ahead log. */
  private ColumnFamilyPool.Store poolAccess() {
    return new ColumnFamilyPool.Store() {
      @Override
      public boolean whileOpen(ColumnFamilyPool.RocksAction action) throws RocksDBException {
        Lock shared;
        try {
          shared = enter();
        } catch (StorageException closed) {
          return false;
        }
        try {
          action.run();
          return true;
        } finally {
          shared.unlock();
        }
      }

      @Override
      public void exclusively(Runnable action) {
        Lock exclusive = lifecycle.writeLock();
        exclusive.lock();
        try {
          if (!closed) {
            action.run();
          }
        } finally {
          exclusive.unlock();
        }
      }

      @Override
      public void syncWal() throws RocksDBException {
        walLock.lock();
        try {
          db.flushWal(true);
        } finally {
          walLock.unlock();
        }
      }

      @Override
      public void forget(ColumnFamilyHandle family) {
        recent.forget(family);
      }
    };
  }

  /** The name of a space's column family in a store made before {@link ColumnFamilyPool}. */
  static String legacyFamily(String space) {
    return SPACE_PREFIX + space;
  }

  /** The pool, for tests. */
  ColumnFamilyPool pool() {
    return pool;
  }

  @Override
  public Set<String> spaces() {
    Lock shared = enter();
    try {
      return new TreeSet<>(spaces.keySet());
    } finally {
      shared.unlock();
    }
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Optional<StoredRecord> get(String space, StorageKey key) {
    Lock shared = enter();
    try {
      return Optional.ofNullable(read(space, key));
    } catch (RocksDBException e) {
      throw fault("cannot read " + space, e);
    } finally {
      shared.unlock();
    }
  }

  /** Each key as {@link #get} reads it (the record cache first), under one entry. */
  @Override
  public List<Optional<StoredRecord>> getAll(List<KeyRead> reads, Consistency consistency) {
    List<Optional<StoredRecord>> out = new ArrayList<>(reads.size());
    Lock shared = enter();
    try {
      for (KeyRead read : reads) {
        try {
          out.add(Optional.ofNullable(read(read.space(), read.key())));
        } catch (RocksDBException e) {
          throw fault("cannot read " + read.space(), e);
        }
      }
      return out;
    } finally {
      shared.unlock();
    }
  }

  @Override
  public List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    byte[] prefix = CompositeKey.partitionPrefix(partition);
    // Turn the bounds into one half-open byte range [from, to): an exclusive lower bound starts at
    // the successor of its key, an inclusive upper bound ends at the successor of its key.
    byte[] from =
        lower == null
            ? prefix
            : CompositeKey.concat(
                prefix, lower.inclusive() ? lower.sort() : CompositeKey.successor(lower.sort()));
    byte[] to =
        upper == null
            ? CompositeKey.partitionEnd(partition)
            : CompositeKey.concat(
                prefix, upper.inclusive() ? CompositeKey.successor(upper.sort()) : upper.sort());
    if (Arrays.compareUnsigned(from, to) >= 0) {
      return List.of();
    }
    return range(space, from, to, forward, limit);
  }

  @Override
  public List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    byte[] from = fromPartition == null ? null : CompositeKey.partitionPrefix(fromPartition);
    if (startAfter != null) {
      byte[] after = CompositeKey.successor(CompositeKey.encode(startAfter));
      if (from == null || Arrays.compareUnsigned(after, from) > 0) {
        from = after;
      }
    }
    // Every key of a partition below toPartition sorts below toPartition's prefix.
    byte[] to = toPartition == null ? null : CompositeKey.partitionPrefix(toPartition);
    if (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0) {
      return List.of();
    }
    return range(space, from, to, true, limit);
  }

  /** The records with keys in {@code [from, to)} (null: unbounded), in either direction. */
  private List<StoredRecord> range(
      String space, byte[] from, byte[] to, boolean forward, int limit) {
    Lock shared = enter();
    // The iterator bounds let RocksDB stop at the end of the range instead of skipping tombstones
    // beyond it; the explicit comparisons below keep the result exact. The upper bound is set in
    // both directions: RocksDB checks the prefix filters only for a range whose keys all share
    // one prefix as both ends show (a Query's, never a Scan's), so every range reads exactly what
    // it would without them.
    try (Slice upper = to == null ? null : new Slice(to);
        Slice lower = forward || from == null ? null : new Slice(from);
        ReadOptions options = new ReadOptions().setAutoPrefixMode(true);
        RocksIterator it = iterator(space, options, lower, upper)) {
      List<StoredRecord> out = new ArrayList<>(Math.min(limit, 64));
      if (forward) {
        if (from == null) {
          it.seekToFirst();
        } else {
          it.seek(from);
        }
      } else {
        it.seekForPrev(to);
        if (it.isValid() && Arrays.equals(it.key(), to)) {
          it.prev();
        }
      }
      while (it.isValid() && out.size() < limit) {
        byte[] key = it.key();
        if (forward
            ? to != null && Arrays.compareUnsigned(key, to) >= 0
            : from != null && Arrays.compareUnsigned(key, from) < 0) {
          break;
        }
        out.add(record(CompositeKey.decode(key), it.value()));
        if (forward) {
          it.next();
        } else {
          it.prev();
        }
      }
      it.status();
      return out;
    } catch (RocksDBException e) {
      throw fault("cannot read " + space, e);
    } finally {
      shared.unlock();
    }
  }

  private RocksIterator iterator(String space, ReadOptions options, Slice lower, Slice upper) {
    if (lower != null) {
      options.setIterateLowerBound(lower);
    }
    if (upper != null) {
      options.setIterateUpperBound(upper);
    }
    return db.newIterator(handle(space), options);
  }

  // ---------------------------------------------------------------- copy

  /** Past this many bytes, a copy writes its batch and starts the next. */
  private static final long COPY_BATCH_BYTES = 1 << 20;

  /** The copy is one instant: see {@link #copySpace}. */
  @Override
  public boolean copiesAtOneInstant() {
    return true;
  }

  /** One process at a time: RocksDB locks the directory for the process that opened it. */
  @Override
  public boolean sharedByProcesses() {
    return false;
  }

  /**
   * One instant: the source is read from a RocksDB snapshot, which commits do not change, and
   * written to the new space in batches of about a megabyte, the stored bytes as they are (the
   * records keep their versions: the store's counter only grows, so they are new to the target's
   * keys). Commits go on meanwhile; none waits for the copy. The copy is in the write-ahead log's
   * file, synced, when this returns, so a record of it written afterwards never outlives it. The
   * record cache needs no update: nothing reads the new space before its copy is done.
   */
  @Override
  public void copySpace(String source, String target) {
    handle(source); // a missing source fails before anything is created
    if (spaces.containsKey(target)) {
      throw new StorageException("the space to copy to exists already: " + target);
    }
    createSpace(target);
    Lock shared = enter();
    Snapshot snapshot = db.getSnapshot();
    try (ReadOptions options = new ReadOptions().setSnapshot(snapshot).setFillCache(false);
        RocksIterator it = db.newIterator(handle(source), options);
        WriteBatch copy = new WriteBatch()) {
      ColumnFamilyHandle to = handle(target);
      for (it.seekToFirst(); it.isValid(); it.next()) {
        copy.put(to, it.key(), it.value());
        if (copy.getDataSize() >= COPY_BATCH_BYTES) {
          db.write(writeOptions, copy);
          copy.clear();
        }
      }
      it.status();
      if (copy.count() > 0) {
        db.write(writeOptions, copy);
      }
      walLock.lock();
      try {
        db.flushWal(true);
      } finally {
        walLock.unlock();
      }
    } catch (RocksDBException e) {
      throw fault("cannot copy " + source + " to " + target, e);
    } finally {
      db.releaseSnapshot(snapshot);
      shared.unlock();
    }
  }

  // ---------------------------------------------------------------- commit

  @Override
  public long commit(Commit commit) {
    long version;
    try {
      version = apply(commit);
    } catch (CommitConflictException e) {
      // The conflict tells of a commit the caller may not reveal before it is durable.
      awaitDurableUnlessDeferring();
      throw e;
    }
    try {
      awaitDurableUnlessDeferring();
    } catch (StorageException e) {
      // Applied, and seen by readers, but perhaps not in the WAL's file: whether it survives a
      // restart is unknown.
      throw new CommitOutcomeUnknownException(e.getMessage(), version, e);
    }
    return version;
  }

  @Override
  public void deferDurabilityOnThisThread() {
    deferring.set(true);
  }

  /**
   * Writes the WAL's buffer to its file if a commit that returned, or that a reader may have
   * seen, before this call is not there yet. One caller writes while any other waits for it and,
   * finding its commits covered, returns without writing: that is the group commit.
   */
  @Override
  public void awaitDurable() {
    long target = logged;
    if (durable >= target) {
      return;
    }
    Lock shared = enter();
    walLock.lock();
    try {
      if (durable >= target) {
        return;
      }
      long through;
      // Under the commit lock no commit is half way through RocksDB's write (see logged).
      Locks.lockCommit(commitLock);
      try {
        through = logged;
      } finally {
        commitLock.unlock();
      }
      db.flushWal(false);
      durable = through;
    } catch (RocksDBException e) {
      throw fault("cannot write the write-ahead log", e);
    } finally {
      walLock.unlock();
      shared.unlock();
    }
  }

  private void awaitDurableUnlessDeferring() {
    if (!deferring.get()) {
      awaitDurable();
    }
  }

  /**
   * Checks the expectations and writes the commit to RocksDB, its WAL records to the buffer;
   * returns the version of its puts (ABSENT when it has none).
   */
  private long apply(Commit commit) {
    Lock shared = enter();
    Locks.lockCommit(commitLock);
    try {
      batch.clear();
      for (Commit.Expectation e : commit.expectations()) {
        if (currentVersion(e.space(), e.key()) != e.version()) {
          throw new CommitConflictException(e);
        }
      }
      if (commit.writes().isEmpty()) {
        return Commit.Expectation.ABSENT;
      }
      long version = lastVersion + 1;
      boolean puts = false;
      List<Commit.Write> writes = commit.writes();
      RecordCache.Slot[] slots = new RecordCache.Slot[writes.size()];
      for (int i = 0; i < slots.length; i++) {
        Commit.Write w = writes.get(i);
        // A missing space fails here, before any write.
        slots[i] = new RecordCache.Slot(handle(w.space()), w.key());
        byte[] key = CompositeKey.encode(w.key());
        if (w.isDelete()) {
          batch.delete(slots[i].space(), key);
        } else {
          putKey = room(putKey, key.length).put(key).flip();
          putValue = room(putValue, Long.BYTES + w.value().length)
              .putLong(version).put(w.value()).flip();
          batch.put(slots[i].space(), putKey, putValue);
          puts = true;
        }
      }
      long ceiling = versionCeiling;
      if (version > ceiling) {
        ceiling = version - 1 + VERSION_BLOCK;
        batch.put(meta, META_VERSION, longBytes(ceiling));
      }
      logged++;
      try {
        db.write(writeOptions, batch);
      } catch (RocksDBException e) {
        recent.clear(version); // whatever the batch did or did not do, read afresh
        logged--;
        // The batch may be in the WAL's buffer or file, to be replayed at the next open: its
        // version is spent, so that no later commit can be taken for it.
        lastVersion = version;
        throw new CommitOutcomeUnknownException(
            "cannot commit: " + e.getMessage(), puts ? version : Commit.Expectation.ABSENT, e);
      }
      for (int i = 0; i < slots.length; i++) {
        Commit.Write w = writes.get(i);
        recent.written(
            slots[i],
            w.isDelete() ? null : new StoredRecord(w.key(), version, w.value()),
            version);
      }
      versionCeiling = ceiling;
      lastVersion = version;
      if (batch.getDataSize() > KEPT_BATCH_BYTES) {
        batch.close();
        batch = new WriteBatch();
      }
      return puts ? version : Commit.Expectation.ABSENT;
    } catch (RocksDBException e) {
      throw fault("cannot commit", e);
    } finally {
      commitLock.unlock();
      shared.unlock();
    }
  }

  /**
   * The committed version of a key, for checking an expectation; call under the commit lock.
   *
   * <p>Answered from {@link #recent} when the key is there: the item a write replaces was usually
   * just read by the same request, and every write of a table expects the table's catalog record.
   */
  private long currentVersion(String space, StorageKey key) throws RocksDBException {
    StoredRecord record = read(space, key);
    return record == null ? Commit.Expectation.ABSENT : record.version();
  }

  /**
   * The committed record of a key, or null when it is absent: from {@link #recent}, else read from
   * RocksDB and offered to it (with the version published before the read, as its rule requires).
   */
  private StoredRecord read(String space, StorageKey key) throws RocksDBException {
    RecordCache.Slot slot = new RecordCache.Slot(handle(space), key);
    RecordCache.Entry cached = recent.get(slot);
    if (cached != null) {
      return cached.record();
    }
    long seen = lastVersion;
    filters.read(space, slot.space());
    byte[] value = db.get(slot.space(), CompositeKey.encode(key));
    StoredRecord record = value == null ? null : record(key, value);
    recent.fill(slot, record, seen);
    return record;
  }

  /** The share of a memtable its Bloom filter takes in a space (0: none); for tests. */
  double memtableFilterRatio(String space) {
    Lock shared = enter();
    try {
      return db.getOptions(handle(space)).memtablePrefixBloomSizeRatio();
    } catch (RocksDBException e) {
      throw fault("cannot read the options of " + space, e);
    } finally {
      shared.unlock();
    }
  }

  // ---------------------------------------------------------------- stats, close

  /** See "Statistics" in the class comment. */
  @Override
  public SpaceStats stats(String space) {
    Lock shared = enter();
    try {
      ColumnFamilyHandle cf = handle(space);
      long estimate = db.getLongProperty(cf, "rocksdb.estimate-num-keys");
      return estimate <= EXACT_STATS_RECORDS
          ? countedStats(cf, estimate)
          : estimatedStats(cf, estimate);
    } catch (RocksDBException e) {
      throw fault("cannot read statistics of " + space, e);
    } finally {
      shared.unlock();
    }
  }

  /**
   * The space's records counted by reading it, or the estimate when there turn out to be more
   * than twice {@link #EXACT_STATS_RECORDS} (the estimate subtracts deletes, and can be low).
   */
  private SpaceStats countedStats(ColumnFamilyHandle cf, long estimate) throws RocksDBException {
    long records = 0;
    long bytes = 0;
    ByteBuffer value = ByteBuffer.allocateDirect(16); // only the length is needed
    try (ReadOptions options = new ReadOptions().setFillCache(false);
        RocksIterator it = db.newIterator(cf, options)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (++records > 2 * EXACT_STATS_RECORDS) {
          return estimatedStats(cf, estimate);
        }
        StorageKey key = CompositeKey.decode(it.key());
        value.clear();
        bytes += key.partition().length + key.sort().length + it.value(value) - Long.BYTES;
      }
      it.status();
    }
    return new SpaceStats(records, bytes);
  }

  private SpaceStats estimatedStats(ColumnFamilyHandle cf, long records) {
    // The whole key range of the space: every encoded key sorts below 32 bytes of 0xFF unless its
    // partition starts with 31 of them; good enough for an estimate.
    byte[] end = new byte[32];
    Arrays.fill(end, (byte) 0xFF);
    try (Slice start = new Slice(new byte[0]);
        Slice limit = new Slice(end)) {
      long bytes =
          db.getApproximateSizes(
              cf,
              List.of(new Range(start, limit)),
              SizeApproximationFlag.INCLUDE_FILES,
              SizeApproximationFlag.INCLUDE_MEMTABLES)[0];
      return new SpaceStats(records, bytes);
    }
  }

  @Override
  public void close() {
    Lock exclusive = lifecycle.writeLock();
    exclusive.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      pool.close();
      spaces.values().forEach(ColumnFamilyHandle::close);
      spaces.clear();
      meta.close();
      try {
        db.flushWal(true);
        durable = logged;
      } catch (RocksDBException e) {
        // Closing flushes what it can; the WAL is still replayed on the next open.
      }
      for (RocksObject o : natives) {
        if (o instanceof ColumnFamilyHandle) {
          o.close();
        }
      }
      db.close();
      batch.close();
      for (RocksObject o : natives) {
        if (!(o instanceof ColumnFamilyHandle)) {
          o.close();
        }
      }
    } finally {
      exclusive.unlock();
    }
  }

  @Override
  public String toString() {
    return "RocksDbStorage[" + dir + "]";
  }

  // ---------------------------------------------------------------- internals

  private Lock enter() {
    Lock shared = lifecycle.readLock();
    shared.lock();
    if (closed) {
      shared.unlock();
      throw new StorageException("the store in " + dir + " is closed");
    }
    return shared;
  }

  private ColumnFamilyHandle handle(String space) {
    ColumnFamilyHandle handle = spaces.get(space);
    if (handle == null) {
      throw new StorageException("no such space: " + space);
    }
    return handle;
  }

  private static StoredRecord record(StorageKey key, byte[] stored) {
    return new StoredRecord(key, version(stored), Arrays.copyOfRange(stored, 8, stored.length));
  }

  private static long version(byte[] stored) {
    if (stored.length < 8) {
      throw new StorageException("corrupt record: " + stored.length + " bytes");
    }
    return ByteBuffer.wrap(stored, 0, 8).getLong();
  }

  /** {@code buffer} emptied, or a larger one when it cannot hold {@code bytes}. */
  private static ByteBuffer room(ByteBuffer buffer, int bytes) {
    return buffer.capacity() >= bytes
        ? buffer.clear()
        : ByteBuffer.allocateDirect(Math.max(bytes, buffer.capacity() * 2));
  }

  private static byte[] longBytes(long value) {
    return ByteBuffer.allocate(8).putLong(value).array();
  }

  static <T extends RocksObject> T push(Deque<RocksObject> natives, T object) {
    natives.addFirst(object);
    return object;
  }

  private static StorageException fault(String what, RocksDBException e) {
    return new StorageException(what + ": " + e.getMessage(), e);
  }
}
