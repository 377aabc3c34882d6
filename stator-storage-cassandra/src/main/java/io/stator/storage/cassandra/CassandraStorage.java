package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.Consistency;
import io.stator.storage.KeyRead;
import io.stator.storage.ScanPage;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StorageTimeoutException;
import io.stator.storage.StoredRecord;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link Storage} on an Apache Cassandra 6 cluster, every read and write an Accord transaction.
 *
 * <h2>Mapping</h2>
 *
 * <p>Four Cassandra tables in one keyspace hold every space of every store, so creating a space
 * (a DynamoDB table, index, stream) never changes Cassandra's schema, which takes seconds:
 *
 * <pre>
 * spaces         ((store), name)                    -> id uuid
 * records        ((space, bucket), partition, sort) -> version bigint, value blob, size int
 * versions       ((store))                          -> ceiling bigint
 * schema_version ((name))                           -> version int      ('layout' -> 3)
 * </pre>
 *
 * A <em>store</em> is one Storage's name (several Stators, or the tests' many storages, share a
 * keyspace under different names). A space's records live under the space's {@code id}, a fresh
 * UUID each time the space is created, so a dropped and re-created space starts empty at once.
 * The keyspace records its layout ({@link Layout}); a keyspace of another layout is refused.
 *
 * <h2>Buckets</h2>
 *
 * <p>A space is spread over 256 Cassandra partitions, its <em>buckets</em>: a record's bucket is
 * the first byte of its partition bytes (0 for an empty partition). The engine's item and index
 * partitions begin with an 8-byte uniform hash of the DynamoDB partition key ({@code
 * io.stator.key.KeyCodec}), so a table's items, and each index's entries, fall evenly into the
 * 256 buckets, which Cassandra's partitioner places all over the ring: a table spreads over the
 * cluster as its partition keys grow, and writes to different buckets are ordered by Accord on
 * different keys. 256 rather than a Cassandra table per DynamoDB table (what Alternator does):
 * a table is then DDL, which takes Cassandra seconds and a schema agreement of every node, and
 * CreateTable would wait for it or need a CREATING state for the storage; a fixed table of
 * buckets needs no DDL after the keyspace, and 256 token positions per space already spread a
 * table over any cluster Stator is likely to run on.
 *
 * <p>Partition and sort bytes are blob clustering columns, which Cassandra orders as unsigned
 * bytes, and the bucket is a prefix of the partition bytes, so the order (bucket, partition,
 * sort) is exactly {@link StorageKey}'s order: {@link #query} is one slice of one Cassandra
 * partition; a {@link #scan} reads its range's buckets in order, each as one slice, and its
 * resume cursor, {@code startAfter}, and the parallel Scan's segments ({@link
 * io.stator.storage.Segment#ofByteOrder}) keep the SPI's meaning with no encoding of their own.
 * What that costs: a full scan of a small table touches up to 256 Cassandra partitions, most of
 * them empty, which {@link BucketScan} reads ahead in parallel; and a scan page that spans
 * buckets reads each at its own instant (each bucket's read sees every commit wholly or not at
 * all).
 *
 * <p>What still is one Cassandra partition, because its partition bytes do not begin with a
 * hash: each index's change log (its keys are sequence numbers, whose first byte is 0 for the
 * first 2^56 changes, so the whole log is bucket 0); each stream shard's records (a shard is one
 * partition of its stream's space); and the catalog, whose records are keyed by table name, so
 * a table's record lies in the bucket of its name's first byte, shared with the tables whose
 * names begin alike, and every write of an indexed table expects it.
 *
 * <p>Statements: reads are a fixed set of prepared shapes ({@link RecordStatements}); a commit's
 * text varies with its shape, so the commits' prepared statements are kept in a bounded cache of
 * the last used ({@link TransactionStatements}).
 *
 * <h2>Consistency</h2>
 *
 * <p>Every table is {@code transactional_mode = 'full'}: every statement runs through Accord,
 * so a plain SELECT is a linearizable read that sees each commit wholly or not at all, and a
 * {@link #commit} is one {@code BEGIN TRANSACTION … COMMIT TRANSACTION}: a LET reading each
 * expected key's version, an IF comparing them all, and the writes inside the IF. The
 * transaction also SELECTs the versions it read, so a refused commit names the expectation that
 * failed.
 *
 * <h2>Versions</h2>
 *
 * <p>A commit's puts get a version from {@link VersionBlocks}: blocks of numbers that each
 * instance reserves in the store's {@code versions} row, so that instances on one store, in one
 * process or several, never issue the same version (the SPI's rule), though their versions are
 * not ordered among them.
 *
 * <h2>What assumes one Stator process</h2>
 *
 * <p>The space names map to ids through a cache that other processes' drops do not reach.
 *
 * <h2>Unknown outcomes</h2>
 *
 * <p>A commit whose transaction may have begun when it failed (the driver's request timeout, a
 * coordinator's write or read timeout, a connection lost after sending, a server error) throws
 * {@link CommitOutcomeUnknownException} with the version its puts got, taken from the reserved
 * block before sending: the coordinator may still complete an Accord transaction whose client
 * gave up, so nothing here can say it did not happen. Only a refusal before the transaction ran
 * (an invalid statement, too few replicas, an overloaded or bootstrapping coordinator, a request
 * the driver never sent) is a plain {@link StorageException}. The engine finds out what became
 * of the commit from the versions it left.
 */
public final class CassandraStorage implements Storage {
  /** The keyspace tests and {@code ./stator cassandra start} use when none is given. */
  public static final String DEFAULT_KEYSPACE = "stator";

  private final CqlSession session;
  private final boolean ownsSession;
  private final String store;
  private final Map<String, UUID> spaceIds = new ConcurrentHashMap<>();
  private final VersionBlocks versions;

  private final PreparedStatement selectSpace;
  private final PreparedStatement selectSpaces;
  private final PreparedStatement createSpace;
  private final PreparedStatement deleteSpace;
  private final RecordStatements records;
  private final String keyspace;
  private final TransactionStatements transactions;

  private CassandraStorage(CqlSession session, boolean ownsSession, String keyspace, String store) {
    this.session = session;
    this.ownsSession = ownsSession;
    this.keyspace = keyspace;
    this.store = store;
    refuseEphemeralReads(session);
    Layout.check(session, keyspace);
    String k = keyspace;
    selectSpace = session.prepare("SELECT id FROM " + k + ".spaces WHERE store = ? AND name = ?");
    selectSpaces = session.prepare("SELECT name, id FROM " + k + ".spaces WHERE store = ?");
    createSpace =
        session.prepare(
            "BEGIN TRANSACTION\n"
                + "  LET existing = (SELECT id FROM " + k + ".spaces WHERE store = ? AND name = ?);\n"
                + "  IF existing IS NULL THEN\n"
                + "    INSERT INTO " + k + ".spaces (store, name, id) VALUES (?, ?, ?);\n"
                + "  END IF\n"
                + "COMMIT TRANSACTION");
    deleteSpace = session.prepare("DELETE FROM " + k + ".spaces WHERE store = ? AND name = ?");
    records = new RecordStatements(session, keyspace);
    transactions = new TransactionStatements(session);
    versions = new VersionBlocks(session, keyspace, store);
  }

  /**
   * Connects to the cluster at {@code contactPoints}, creates the keyspace (with {@code
   * replication}, a CQL map such as {@code {'class': 'SimpleStrategy', 'replication_factor': 1}})
   * and Stator's tables if they are missing, and opens the store {@code store} in it.
   */
  public static CassandraStorage connect(
      List<InetSocketAddress> contactPoints,
      String localDatacenter,
      String keyspace,
      String replication,
      String store) {
    CqlSession session = session(contactPoints, localDatacenter);
    try {
      createSchema(session, keyspace, replication);
      return new CassandraStorage(session, true, keyspace, store);
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  /**
   * Opens the store {@code store} through a session that the caller keeps and closes; the
   * keyspace and tables must exist (see {@link #createSchema}).
   */
  public static CassandraStorage open(CqlSession session, String keyspace, String store) {
    return new CassandraStorage(session, false, keyspace, store);
  }

  /**
   * A driver session for Stator: QUORUM (every statement goes through Accord anyway), a request
   * timeout that covers a contended Accord transaction, and DDL's slowness.
   */
  public static CqlSession session(List<InetSocketAddress> contactPoints, String localDatacenter) {
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(12))
            .withString(DefaultDriverOption.REQUEST_CONSISTENCY, ConsistencyLevel.QUORUM.name())
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Layout.DDL_TIMEOUT)
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Layout.DDL_TIMEOUT)
            .withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, 5000)
            .build();
    return CqlSession.builder()
        .addContactPoints(contactPoints)
        .withLocalDatacenter(localDatacenter)
        .withConfigLoader(config)
        .build();
  }

  /**
   * Creates the keyspace and Stator's tables where they are missing; refuses a keyspace that
   * holds another layout of them ({@link Layout}).
   */
  public static void createSchema(CqlSession session, String keyspace, String replication) {
    Layout.create(session, keyspace, replication);
  }

  /**
   * Refuses a node that serves single-partition reads as Accord <em>ephemeral</em> reads, the
   * default of Cassandra 6.0-alpha2 ({@code accord.ephemeral_reads: true}). Such a read does not
   * wait for the transactions before it to be wholly applied, and a transaction's statements on
   * one partition are applied as separate mutations (one per statement, {@code
   * TxnWrite.applyDirect}), so a range read can see a commit's put without its delete: on one
   * node, a reader of a partition that a writer moves a record within ("delete a, put z", then
   * back) saw two records or none about once in a few thousand reads, whether the read was a
   * plain SELECT or a transaction's SELECT, and never in 50,000 reads once ephemeral reads were
   * off. Only the node the driver asks is checked: every node of the cluster needs the setting.
   */
  private static void refuseEphemeralReads(CqlSession session) {
    Row row =
        session
            .execute(
                SimpleStatement.newInstance(
                        "SELECT value FROM system_views.settings WHERE name = ?",
                        "accord.ephemeral_reads")
                    .setConsistencyLevel(ConsistencyLevel.ONE))
            .one();
    if (row != null && "true".equalsIgnoreCase(row.getString(0))) {
      throw new StorageException(
          "the node serves reads as Accord ephemeral reads, which can see a transaction half"
              + " applied; set 'ephemeral_reads: false' under 'accord:' in cassandra.yaml on"
              + " every node");
    }
  }

  // ---------------------------------------------------------------- spaces

  @Override
  public void createSpace(String space) {
    run(() -> {
      UUID id = UUID.randomUUID();
      session.execute(createSpace.bind(store, space, store, space, id));
      spaceIds.remove(space);
      return null;
    });
  }

  @Override
  public void dropSpace(String space) {
    run(() -> {
      // The records first: a stop between the two leaves a space that is empty, not records
      // that no space names any more. Its 256 buckets are deleted all at once.
      Optional<UUID> id = lookUp(space);
      if (id.isPresent()) {
        for (CompletionStage<AsyncResultSet> delete :
            everyBucket(bucket -> records.deleteBucket(id.get(), bucket))) {
          Rows.answer(delete);
        }
      }
      session.execute(deleteSpace.bind(store, space));
      spaceIds.remove(space);
      return null;
    });
  }

  @Override
  public Set<String> spaces() {
    return run(() -> {
      Set<String> names = new HashSet<>();
      for (Row row : session.execute(selectSpaces.bind(store))) {
        names.add(row.getString(0));
      }
      return names;
    });
  }

  private Optional<UUID> lookUp(String space) {
    UUID cached = spaceIds.get(space);
    if (cached != null) {
      return Optional.of(cached);
    }
    Row row = session.execute(selectSpace.bind(store, space)).one();
    if (row == null) {
      return Optional.empty();
    }
    UUID id = row.getUuid(0);
    spaceIds.put(space, id);
    return Optional.of(id);
  }

  private UUID id(String space) {
    return lookUp(space).orElseThrow(() -> new StorageException("no space " + space));
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Optional<StoredRecord> get(String space, StorageKey key) {
    return run(() -> Rows.found(key, session.execute(records.get(id(space), key)).one()));
  }

  /**
   * Every key's read sent at once, then the answers collected: one round trip's wait for all of
   * them instead of one per key. Each is an Accord read, strongly consistent whatever the hint
   * (see docs/cassandra.md, "Consistency").
   */
  @Override
  public List<Optional<StoredRecord>> getAll(List<KeyRead> reads, Consistency consistency) {
    return run(() -> {
      List<CompletionStage<AsyncResultSet>> pending = new ArrayList<>(reads.size());
      for (KeyRead read : reads) {
        pending.add(session.executeAsync(records.get(id(read.space()), read.key())));
      }
      List<Optional<StoredRecord>> out = new ArrayList<>(reads.size());
      for (int i = 0; i < reads.size(); i++) {
        out.add(Rows.found(reads.get(i).key(), Rows.answer(pending.get(i)).one()));
      }
      return out;
    });
  }

  @Override
  public List<StoredRecord> query(
      String space, byte[] partition, Bound lower, Bound upper, boolean forward, int limit) {
    return run(() -> {
      UUID id = id(space);
      if (lower != null && upper != null) {
        int c = Arrays.compareUnsigned(lower.sort(), upper.sort());
        if (c > 0 || (c == 0 && !(lower.inclusive() && upper.inclusive()))) {
          return List.of();
        }
      }
      List<StoredRecord> out = new ArrayList<>();
      for (Row row : session.execute(records.query(id, partition, lower, upper, forward, limit))) {
        out.add(Rows.inPartition(partition, row));
      }
      return out;
    });
  }

  /** Pages of {@link #scanPage} until {@code limit} records or the end of the range. */
  @Override
  public List<StoredRecord> scan(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    List<StoredRecord> out = new ArrayList<>();
    StorageKey after = startAfter;
    while (out.size() < limit) {
      ScanPage page = scanPage(space, fromPartition, toPartition, after, limit - out.size());
      out.addAll(page.records());
      if (!page.more()) {
        break;
      }
      after = page.records().get(page.records().size() - 1).key();
    }
    return out;
  }

  /**
   * The range's buckets in order, read ahead in parallel ({@link BucketScan}); a page full at
   * the end of a bucket ends there.
   */
  @Override
  public ScanPage scanPage(
      String space, byte[] fromPartition, byte[] toPartition, StorageKey startAfter, int limit) {
    return run(() -> {
      UUID id = id(space);
      ScanRange range = ScanRange.of(fromPartition, toPartition, startAfter);
      return range == null
          ? new ScanPage(List.of(), false)
          : BucketScan.page(session, records, id, range, limit);
    });
  }

  // ---------------------------------------------------------------- commit

  @Override
  public long commit(Commit commit) {
    return run(() -> commitTransaction(commit));
  }

  /**
   * The failure of a commit that writes into a space that does not exist: a conflict when one of
   * its expectations does not hold, as a storage that checks them first answers (a write staged
   * with a table definition that named a space dropped since then meets the changed definition
   * and writes again), else the fault. The expectations are checked alone, read-only.
   */
  private StorageException missingSpace(Commit commit, String space) {
    if (!commit.expectations().isEmpty()) {
      Commit check = new Commit();
      for (Commit.Expectation e : commit.expectations()) {
        check.expect(e.space(), e.key(), e.version());
      }
      commitTransaction(check); // a CommitConflictException when one does not hold
    }
    return new StorageException("no space " + space);
  }

  private long commitTransaction(Commit commit) {
    // The last write to a key wins; a transaction writes each row once.
    Map<Target, Commit.Write> writes = new LinkedHashMap<>();
    for (Commit.Write w : commit.writes()) {
      Optional<UUID> space = lookUp(w.space());
      if (space.isEmpty()) {
        throw missingSpace(commit, w.space());
      }
      Target t = new Target(space.get(), w.key());
      writes.remove(t);
      writes.put(t, w);
    }
    List<Commit.Expectation> expectations = commit.expectations();
    List<UUID> expectationIds = new ArrayList<>();
    for (Commit.Expectation e : expectations) {
      expectationIds.add(id(e.space()));
    }
    if (writes.isEmpty() && expectations.isEmpty()) {
      return Commit.Expectation.ABSENT;
    }
    boolean puts = writes.values().stream().anyMatch(w -> !w.isDelete());
    long version = puts ? versions.next() : Commit.Expectation.ABSENT;
    String k = keyspace;
    StringBuilder cql = new StringBuilder("BEGIN TRANSACTION\n");
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      StorageKey key = expectations.get(i).key();
      cql.append("  LET e").append(i).append(" = (SELECT version FROM ").append(k)
          .append(".records WHERE space = ? AND bucket = ? AND partition = ? AND sort = ?);\n");
      values.add(expectationIds.get(i));
      values.add(ScanRange.bucket(key.partition()));
      values.add(ByteBuffer.wrap(key.partition()));
      values.add(ByteBuffer.wrap(key.sort()));
    }
    // Cassandra refuses an IF with nothing inside it ("No condition should exist without updates
    // present"). A commit of expectations alone (TransactGetItems proving its snapshot) is then
    // a read-only transaction: its LETs read every version at one instant and the SELECT returns
    // them, so comparing them below is the whole check.
    boolean guarded = !expectations.isEmpty() && !writes.isEmpty();
    if (!expectations.isEmpty()) {
      cql.append("  SELECT ");
      for (int i = 0; i < expectations.size(); i++) {
        cql.append(i == 0 ? "" : ", ").append("e").append(i).append(".version");
      }
      cql.append(";\n");
    }
    if (guarded) {
      cql.append("  IF ");
      for (int i = 0; i < expectations.size(); i++) {
        cql.append(i == 0 ? "" : " AND ");
        if (expectations.get(i).version() == Commit.Expectation.ABSENT) {
          cql.append("e").append(i).append(" IS NULL");
        } else {
          cql.append("e").append(i).append(".version = ?");
          values.add(expectations.get(i).version());
        }
      }
      cql.append(" THEN\n");
    }
    for (Map.Entry<Target, Commit.Write> entry : writes.entrySet()) {
      Target t = entry.getKey();
      Commit.Write w = entry.getValue();
      if (w.isDelete()) {
        cql.append("    DELETE FROM ").append(k)
            .append(".records WHERE space = ? AND bucket = ? AND partition = ? AND sort = ?;\n");
        values.add(t.space());
        values.add(ScanRange.bucket(t.key().partition()));
        values.add(ByteBuffer.wrap(t.key().partition()));
        values.add(ByteBuffer.wrap(t.key().sort()));
      } else {
        cql.append("    INSERT INTO ").append(k)
            .append(".records (space, bucket, partition, sort, version, value, size)")
            .append(" VALUES (?, ?, ?, ?, ?, ?, ?);\n");
        values.add(t.space());
        values.add(ScanRange.bucket(t.key().partition()));
        values.add(ByteBuffer.wrap(t.key().partition()));
        values.add(ByteBuffer.wrap(t.key().sort()));
        values.add(version);
        values.add(ByteBuffer.wrap(w.value()));
        values.add(t.key().partition().length + t.key().sort().length + w.value().length);
      }
    }
    if (guarded) {
      cql.append("  END IF\n");
    }
    cql.append("COMMIT TRANSACTION");
    BoundStatement statement = transactions.prepared(cql.toString()).bind(values.toArray());
    ResultSet result;
    try {
      result = session.execute(statement);
    } catch (DriverException e) {
      if (refusedBeforeRunning(e)) {
        throw e;
      }
      throw new CommitOutcomeUnknownException("Cassandra: " + e.getMessage(), version, e);
    }
    if (expectations.isEmpty()) {
      return version;
    }
    Row row = result.one();
    for (int i = 0; i < expectations.size(); i++) {
      long expected = expectations.get(i).version();
      long actual = row == null || row.isNull(i) ? Commit.Expectation.ABSENT : row.getLong(i);
      if (actual != expected) {
        throw new CommitConflictException(expectations.get(i));
      }
    }
    return version;
  }

  private record Target(UUID space, StorageKey key) {}

  /**
   * Whether a commit's failure shows that its transaction never ran: refused by the driver
   * before it was sent, or by the coordinator before it began (invalid, unavailable, overloaded,
   * bootstrapping). Anything else (a timeout on either side, a connection lost after sending, a
   * server error, every node failing) may come after the coordinator began the transaction, and
   * Accord may complete a transaction whose client has gone: its outcome is unknown.
   */
  private static boolean refusedBeforeRunning(DriverException e) {
    if (e instanceof AllNodesFailedException all) {
      return !all.getAllErrors().isEmpty()
          && all.getAllErrors().values().stream()
              .flatMap(List::stream)
              .allMatch(t -> t instanceof DriverException d && refusedBeforeRunning(d));
    }
    return e instanceof QueryValidationException
        || e instanceof UnavailableException
        || e instanceof OverloadedException
        || e instanceof BootstrappingException
        || e instanceof RequestThrottlingException
        || e instanceof BusyConnectionException
        || e instanceof ConnectionInitException;
  }

  // ---------------------------------------------------------------- stats

  /**
   * Counted from each record's {@code size} column, which every put writes: the 256 buckets'
   * sizes read all at once, and no value (see docs/cassandra.md, "Stats", for why not counters
   * or Cassandra's size estimates).
   */
  @Override
  public SpaceStats stats(String space) {
    return run(() -> {
      UUID id = id(space);
      List<CompletionStage<AsyncResultSet>> reads =
          everyBucket(bucket -> records.sizes(id, bucket));
      long count = 0;
      long bytes = 0;
      for (CompletionStage<AsyncResultSet> read : reads) {
        for (AsyncResultSet page = Rows.answer(read); ; page = Rows.answer(page.fetchNextPage())) {
          for (Row row : page.currentPage()) {
            count++;
            bytes += row.isNull(0) ? 0 : row.getInt(0);
          }
          if (!page.hasMorePages()) {
            break;
          }
        }
      }
      return new SpaceStats(count, bytes);
    });
  }

  /** The statement of every bucket of a space, all sent at once; their answers to wait for. */
  private List<CompletionStage<AsyncResultSet>> everyBucket(
      java.util.function.IntFunction<BoundStatement> statement) {
    List<CompletionStage<AsyncResultSet>> pending = new ArrayList<>(ScanRange.BUCKETS);
    for (int bucket = 0; bucket < ScanRange.BUCKETS; bucket++) {
      pending.add(session.executeAsync(statement.apply(bucket)));
    }
    return pending;
  }

  @Override
  public void close() {
    if (ownsSession) {
      session.close();
    }
  }

  // ---------------------------------------------------------------- helpers

  private interface Call<T> {
    T call();
  }

  /**
   * Driver failures are the storage's faults: timeouts, unavailability, refused statements. A
   * timeout (the driver's own, or the coordinator's wait for replicas) says so, so that the
   * engine asks nothing more of a node that is not answering.
   */
  private static <T> T run(Call<T> call) {
    try {
      return call.call();
    } catch (DriverTimeoutException | ReadTimeoutException | WriteTimeoutException e) {
      throw new StorageTimeoutException("Cassandra: " + e.getMessage(), e);
    } catch (DriverException e) {
      throw new StorageException("Cassandra: " + e.getMessage(), e);
    }
  }
}
