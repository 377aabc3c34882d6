package io.stator.engine;

import io.stator.api.BatchExecuteStatementRequest;
import io.stator.api.BatchExecuteStatementResponse;
import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchGetItemResponse;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.ContributorInsightsSummary;
import io.stator.api.CreateBackupRequest;
import io.stator.api.CreateBackupResponse;
import io.stator.api.CreateTableRequest;
import io.stator.api.CreateTableResponse;
import io.stator.api.Database;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DeleteBackupResponse;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteItemResponse;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DeleteTableResponse;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.DescribeBackupResponse;
import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DescribeContinuousBackupsResponse;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeContributorInsightsResponse;
import io.stator.api.DescribeEndpointsRequest;
import io.stator.api.DescribeEndpointsResponse;
import io.stator.api.DescribeExportRequest;
import io.stator.api.DescribeExportResponse;
import io.stator.api.DescribeImportRequest;
import io.stator.api.DescribeImportResponse;
import io.stator.api.DescribeLimitsRequest;
import io.stator.api.DescribeLimitsResponse;
import io.stator.api.DescribeStreamRequest;
import io.stator.api.DescribeStreamResponse;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DescribeTableResponse;
import io.stator.api.DescribeTimeToLiveRequest;
import io.stator.api.DescribeTimeToLiveResponse;
import io.stator.api.DynamoDbStreams;
import io.stator.api.Endpoint;
import io.stator.api.ExecuteStatementRequest;
import io.stator.api.ExecuteStatementResponse;
import io.stator.api.ExecuteTransactionRequest;
import io.stator.api.ExecuteTransactionResponse;
import io.stator.api.ExportTableToPointInTimeRequest;
import io.stator.api.ExportTableToPointInTimeResponse;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetRecordsResponse;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.GetShardIteratorResponse;
import io.stator.api.ImportTableRequest;
import io.stator.api.ImportTableResponse;
import io.stator.api.ListBackupsRequest;
import io.stator.api.ListBackupsResponse;
import io.stator.api.ListContributorInsightsRequest;
import io.stator.api.ListContributorInsightsResponse;
import io.stator.api.ListExportsRequest;
import io.stator.api.ListExportsResponse;
import io.stator.api.ListImportsRequest;
import io.stator.api.ListImportsResponse;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ListStreamsResponse;
import io.stator.api.ListTablesRequest;
import io.stator.api.ListTablesResponse;
import io.stator.api.ListTagsOfResourceRequest;
import io.stator.api.ListTagsOfResourceResponse;
import io.stator.api.PutItemRequest;
import io.stator.api.PutItemResponse;
import io.stator.api.PutResourcePolicyRequest;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableFromBackupResponse;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.RestoreTableToPointInTimeResponse;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.TagResourceRequest;
import io.stator.api.TagResourceResponse;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactGetItemsResponse;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactWriteItemsResponse;
import io.stator.api.UntagResourceRequest;
import io.stator.api.UntagResourceResponse;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.api.UpdateContinuousBackupsResponse;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateContributorInsightsResponse;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateItemResponse;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTableResponse;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.api.UpdateTimeToLiveResponse;
import io.stator.backup.OnDemandBackups;
import io.stator.capacity.CapacityModel;
import io.stator.capacity.CapacityTotals;
import io.stator.capacity.ContributorInsightsUpdates;
import io.stator.capacity.PartitionReport;
import io.stator.capacity.PartitionReports;
import io.stator.capacity.SavedPartitions;
import io.stator.export.ExportDirectory;
import io.stator.export.Exports;
import io.stator.export.Imports;
import io.stator.index.IndexPropagation;
import io.stator.index.Indexes;
import io.stator.lease.Leases;
import io.stator.partiql.BatchStatements;
import io.stator.partiql.Statements;
import io.stator.partiql.TransactionStatements;
import io.stator.schema.Catalog;
import io.stator.schema.IndexDefinition;
import io.stator.schema.OrphanSpaces;
import io.stator.schema.PartitionKeys;
import io.stator.schema.TableDefinition;
import io.stator.storage.GroupCommit;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.stream.Streams;
import io.stator.stream.UserIdentity;
import io.stator.ttl.ExpiredItemSweep;
import io.stator.ttl.TimeToLiveSweeper;
import io.stator.ttl.TimeToLiveUpdates;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine behind {@link Database}: DynamoDB's operations on top of the Storage SPI.
 *
 * <h2>Layout of the data</h2>
 *
 * The catalog (space {@code catalog}, see {@link Catalog}) holds one versioned record per table.
 * Each incarnation of a table keeps its items in its own space, {@code table.<TableId>}: deleting
 * a table drops the space, and re-creating the name gets a new id and an empty space, so no
 * stale item can reappear even if a drop was interrupted (orphan spaces are dropped at start).
 * An item is stored under {@code (partition bytes, sort bytes)} from {@code io.stator.key}: the
 * partition bytes start with an 8-byte hash, so a Scan walks hash order and a parallel Scan
 * segment is a contiguous hash range; within a partition, the sort bytes order items as
 * DynamoDB orders sort keys, so a Query is one range read in either direction. The value is the
 * item in the versioned binary item encoding of {@code io.stator.item}.
 *
 * <h2>Writes</h2>
 *
 * Every write is "read, compute, commit with expectations": the engine reads the current item
 * and its version, evaluates any condition against it, and commits the new value expecting that
 * version. If another writer got in between, the storage refuses the whole commit and the
 * engine starts over from the read. This needs no lock held across calls (so the same code runs
 * on a distributed storage, where a commit is one transaction), gives conditional writes their
 * exact semantics, and is the shape UpdateItem, LSI maintenance and transactions extend: they
 * add expectations and writes to the same commit.
 *
 * <h2>Linearizability of one item</h2>
 *
 * Every single-item operation takes effect at one instant between its call and its return, and
 * returns what a sequential execution at that instant would return: the operations on one item
 * are linearizable (DynamoDB's strongly consistent reads and its conditional writes promise no
 * less). The argument rests on two properties of the storage SPI: {@code get} and {@code commit}
 * are themselves linearizable on a key (every commit happens at one instant, ordered with every
 * other commit, and a get of a key returns that key as the last commit before its own instant
 * left it), and a commit applies its writes iff
 * every expected version is still current at that instant, where a key gets a version it never
 * had on every write, also after a delete, and "absent" matches only absence.
 *
 * <ul>
 *   <li>GetItem answers from one storage read; that read is its instant. Stator keeps one copy of
 *       the data, so an eventually consistent read is strongly consistent too (DynamoDB allows
 *       that: eventual consistency promises less, never more).
 *   <li>A write that commits (PutItem, DeleteItem, UpdateItem) takes effect at its commit. The
 *       commit expected the version of its last read and succeeded, so at the commit instant the
 *       item was exactly what was read: the condition, the ReturnValues ({@code ALL_OLD}, {@code
 *       UPDATED_NEW}, ...) and the new item, all computed from that read, are what a write
 *       running alone at that instant computes.
 *   <li>A write that commits nothing (its condition failed, a DeleteItem of a missing item, an
 *       update that the item makes invalid such as {@code SET v = v + :1} without {@code v})
 *       takes effect, as a no-op, at its last read, from which it computed its answer.
 *   <li>A refused commit wrote nothing, so the attempts before the last one of a retry loop have
 *       no effect at all; only the last read and commit count. A commit is refused only because
 *       another commit on the item succeeded, so some writer always progresses (lock-free); one
 *       writer can lose many races in a storm of writes to one item, never forever in practice.
 *   <li>TransactWriteItems commits once, with every item's read version expected, so on each of
 *       its items it is one write at its commit instant; a transaction cancelled with
 *       TransactionConflict wrote nothing and answered nothing about the items, and one
 *       cancelled by a failed condition is, on each item, a no-op at its read of that item. A
 *       TransactGetItems takes effect at its version-checking empty commit (see {@link
 *       Transactions}).
 *   <li>BatchWriteItem commits each write on its own, expecting the version it read to price
 *       the write (a put or delete with no condition: its instant is its commit); BatchGetItem
 *       reads each item at its own instant.
 * </ul>
 *
 * {@code LinearizabilityTest} checks this: threads run random operations of all these kinds on
 * one item, recording call and return times and results, and a Wing and Gong search finds a
 * linearization of each history, on every storage engine; the same search rejects histories
 * such as a stale read after a completed write. The storages give the two properties this way:
 * the memory storage checks expectations and applies writes under one lock, each write of a key
 * replacing one entry of a concurrent map that reads see atomically; RocksDB checks expectations
 * and writes one {@code WriteBatch} under a commit lock, and a batch becomes visible to reads at
 * one sequence number.
 *
 * <h2>Validation</h2>
 *
 * Each operation validates in DynamoDB's order, because clients see which error comes first:
 * request-level constraints (all violations reported together), then relations between
 * parameters, then expressions (parsed once per request), then the table lookup, then the key
 * schema. Every client mistake is a {@link io.stator.api.DynamoDbException} with DynamoDB's message and
 * nothing is written before validation is complete.
 *
 * <h2>Concurrency</h2>
 *
 * The engine keeps some state of its own in memory, beside what the storage holds:
 *
 * <ul>
 *   <li>a cache of table definitions ({@link TableCache}): item operations take their table from
 *       it, table operations read and change the catalog in the storage and invalidate the cache
 *       after each change;
 *   <li>the sequencers of the GSI change log ({@code index.Sequencer}) and of stream records
 *       ({@code StreamSequencer}), which count in memory from the last number stored;
 *   <li>the items of the transactions in progress ({@link OngoingTransactions}) and the
 *       ClientRequestTokens of recent transactions running or ended unknown ({@link
 *       ClientRequestTokens}; applied ones are stored, {@link StoredRequestTokens});
 *   <li>the capacity model's partitions and counters ({@link CapacityModel}, its split points
 *       saved in the storage);
 *   <li>background threads: the GSI propagator and backfills, the Time to Live sweeper, and
 *       {@link Housekeeping} (orphan spaces, seen unused in memory between looks, and stored
 *       ClientRequestTokens past the window); of several engines on one storage, one runs the
 *       backfills, the sweep, the housekeeping and each export, import, backup being made or
 *       restore at a time, the holder of each job's lease ({@link io.stator.lease.Leases}).
 * </ul>
 *
 * Everything else is the storage's: a DeleteTable racing a PutItem, or two UpdateItems on one
 * item, need no coordination beyond the storage's versioned commits. Because of this state, one
 * engine owns its storage; several engines may not share one storage.
 *
 * <h2>Time to Live</h2>
 *
 * The TTL setting is part of the table's definition in the catalog. The {@link
 * TimeToLiveSweeper} deletes expired items on a background thread through {@link Items}' delete
 * path, marked with {@link UserIdentity#TIME_TO_LIVE}; see its comment.
 *
 * <h2>Capacity and Contributor Insights</h2>
 *
 * Every data-plane operation prices itself with {@code CapacityCalculator} and charges its
 * partition in the {@link CapacityModel} (see its comment), which may throttle it in enforce
 * mode; batches and transactions charge item by item (see {@link BatchOperations} and {@link
 * Transactions}). DeleteTable makes the model forget the incarnation. The Contributor Insights
 * setting is part of the table's definition in the catalog, like TTL; what it would show is the
 * model's hot-key report ({@link #partitions}).
 *
 * <h2>Streams</h2>
 *
 * A table's streams are part of its definition in the catalog; their records are written in
 * the commit of the change they describe, through the write hook every path shares ({@link
 * Indexes#stage}), and the Streams API ({@link DynamoDbStreams}, part of {@link Database},
 * which the engine serves) reads them. A stream's shards follow the capacity model's partitions
 * (one open shard per partition, children on a split), which the stream records in its
 * definition; the streams of a deleted table stay readable for 24 hours. See {@link Streams}.
 *
 * <h2>Table settings</h2>
 *
 * Deletion protection, table class, server-side encryption, the point-in-time recovery flag and
 * the tags are the table's {@code TableSettings} in the catalog: UpdateTable and the small
 * operations ({@link Tagging}, {@link ContinuousBackups}) change them like any definition
 * change, DescribeTable reports them, and DeleteTable refuses a protected table. None of them
 * changes how items are stored or read.
 */
public final class Engine
    implements Database, ExpiredItemSweep, GroupCommit, PartitionReports, PartitionKeys,
        CapacityTotals, IndexPropagation {
  private final Storage storage;
  private volatile Tables tables;
  private final Items items;
  private final Reads reads;
  private final Indexes indexes;
  private final ItemUpdates updates;
  private final BatchOperations batches;
  private final Transactions transactions;
  private final TransactGets transactGets;
  private final Clock clock;
  private final TimeToLiveSweeper sweeper;
  private final CapacityModel capacity;
  private final Tagging tagging;
  private final ResourcePolicies resourcePolicies;
  private final ContinuousBackups continuousBackups;
  private final OnDemandBackups backups;
  private final Exports exports;
  private final Imports imports;
  private final String region;
  private final Streams streams;
  private final Housekeeping housekeeping;

  public Engine(Storage storage, EngineOptions options) {
    this.storage = storage;
    Catalog catalog = new Catalog(storage);
    // The first look only notes the unused spaces: on a shared store they may be those of
    // another server's CreateTable in progress (see OrphanSpaces); later looks drop them.
    OrphanSpaces orphans = new OrphanSpaces(catalog, storage, options.clock());
    orphans.look();
    Leases leases = new Leases(storage, options.clock());
    StoredRequestTokens storedTokens = new StoredRequestTokens(storage, options.clock());
    // Streams follow the capacity model's partitions (one shard per partition); the model is
    // made below, and only asked once requests arrive.
    this.streams =
        new Streams(storage, catalog, options.region(), options.accountId(),
            options.clock(), this::partitionStarts, this::forget);
    this.indexes =
        new Indexes(
            storage, catalog, options.gsiLag(), options.synchronousGlobalIndexes(),
            options.clock(), this::forget, streams.writes(),
            options.itemCollectionSizeLimit(), leases);
    this.tables = new Tables(storage, catalog, options, indexes, streams);
    this.capacity =
        new CapacityModel(
            options.capacity(),
            options.clock(),
            "arn:aws:dynamodb:" + options.region() + ":" + options.accountId() + ":table/",
            this::spaceSize,
            new SavedPartitions(storage));
    OngoingTransactions ongoing = new OngoingTransactions();
    ReadModifyWrite pipeline = new ReadModifyWrite(storage, tables, indexes, capacity, ongoing);
    this.items = new Items(storage, tables, capacity, pipeline);
    this.reads = new Reads(storage, tables, capacity);
    this.updates = new ItemUpdates(tables, pipeline);
    this.batches = new BatchOperations(storage, tables, capacity, pipeline);
    this.transactions =
        new Transactions(
            storage, tables, indexes, new ClientRequestTokens(options.clock()),
            storedTokens, capacity,
            ongoing, pipeline);
    this.transactGets = new TransactGets(storage, tables, capacity);
    this.clock = options.clock();
    this.tagging = new Tagging(tables, options);
    this.resourcePolicies = new ResourcePolicies(storage, tables, options.clock());
    this.continuousBackups = new ContinuousBackups(tables, storage, options.clock());
    BackupTables backupTables = new BackupTables(tables, items);
    this.backups = new OnDemandBackups(storage, backupTables, options.clock(), leases);
    ExportDirectory exportDirectory = new ExportDirectory(options.exportDirectory());
    this.exports = new Exports(
        storage, backups, backupTables, options.clock(), exportDirectory, leases);
    this.imports = new Imports(storage, backupTables, options.clock(), exportDirectory, leases);
    this.region = options.region();
    // The sweeper deletes through Items' delete path, so expired items leave the secondary
    // indexes (LSI entries in the same commit, GSIs through the change log) like any delete.
    this.sweeper =
        new TimeToLiveSweeper(
            storage, catalog, clock, options.timeToLiveSweepInterval(),
            items::deleteExpired, leases);
    sweeper.startIfNeeded();
    this.housekeeping = new Housekeeping(
        List.of(() -> orphans.look(), () -> storedTokens.forgetExpired(),
            indexes::sweepChangeLogs),
        List.of(sweeper::startIfNeeded, exports::settleOrphans, imports::settleOrphans,
            backups::settleOrphans),
        leases);
  }

  /**
   * Runs the housekeeping chores now: this engine's own, then the leased ones if this engine
   * holds their lease (tests; otherwise they run every minute); false when another engine holds
   * it.
   */
  boolean housekeepNow() {
    return housekeeping.runNow();
  }

  /**
   * One background round of the Time to Live sweep now, if this engine holds its lease (tests;
   * otherwise rounds run every sweep interval); the items it deleted, or -1 when another engine
   * holds the lease.
   */
  long backgroundSweepNow() {
    return sweeper.backgroundRoundIfHeld();
  }

  /** Whether this engine's Time to Live sweeper runs its background rounds (tests). */
  boolean sweeperRunning() {
    return sweeper.running();
  }

  /**
   * Looks for CREATING GSIs to backfill now, if this engine holds the backfill lease (tests;
   * otherwise every two seconds); false when another engine holds it.
   */
  boolean resumeBackfillsNow() {
    return indexes.resumeBackfills(true);
  }

  /**
   * The check for CREATING GSIs as it runs every two seconds (tests): the holder reads the
   * catalog only when told of a new index, or once a minute.
   */
  boolean checkBackfills() {
    return indexes.resumeBackfills(false);
  }

  private long spaceSize(String space) {
    try {
      return storage.stats(space).bytes();
    } catch (StorageException e) {
      return 0;
    }
  }

  private long[] partitionStarts(TableDefinition table) {
    return capacity.partitionStarts(table);
  }

  /** Forgets a cached table definition changed by a backfill or a stream. */
  private void forget(String tableName) {
    Tables t = tables;
    if (t != null) { // null only while starting, when nothing is cached yet
      t.invalidate(tableName);
    }
  }

  @Override
  public boolean awaitIndexes(Duration timeout) throws InterruptedException {
    return indexes.awaitIndexes(timeout);
  }

  @Override
  public CreateTableResponse createTable(CreateTableRequest r) {
    if (r.resourcePolicy() == null) {
      return tables.create(r);
    }
    // A policy that PutResourcePolicy would refuse refuses the table too, before it exists
    resourcePolicies.checkSize(r.resourcePolicy());
    CreateTableResponse created = tables.create(r);
    resourcePolicies.put(new PutResourcePolicyRequest(
        created.tableDescription().tableArn(), r.resourcePolicy(), null, null));
    return created;
  }

  @Override
  public DescribeTableResponse describeTable(DescribeTableRequest r) {
    return tables.describe(r);
  }

  @Override
  public ListTablesResponse listTables(ListTablesRequest r) {
    return tables.list(r);
  }

  @Override
  public DeleteTableResponse deleteTable(DeleteTableRequest r) {
    DeleteTableResponse deleted = tables.delete(r, backups::deleted, capacity::forget);
    streams.forgetExpired();
    return deleted;
  }

  @Override
  public UpdateTableResponse updateTable(UpdateTableRequest r) {
    return tables.update(r);
  }

  @Override
  public PutItemResponse putItem(PutItemRequest r) {
    return items.put(r);
  }

  @Override
  public GetItemResponse getItem(GetItemRequest r) {
    return items.get(r);
  }

  @Override
  public DeleteItemResponse deleteItem(DeleteItemRequest r) {
    return items.delete(r);
  }

  @Override
  public UpdateItemResponse updateItem(UpdateItemRequest r) {
    return updates.update(r);
  }

  @Override
  public QueryResponse query(QueryRequest r) {
    return reads.query(r);
  }

  @Override
  public ScanResponse scan(ScanRequest r) {
    return reads.scan(r);
  }

  /**
   * The capacity model's view of a table's partitions: consumption, throttles, hot keys.
   *
   * @throws io.stator.api.DynamoDbException ResourceNotFoundException when there is no such table
   */
  public PartitionReport partitions(String tableName) {
    return partitions(tableName, null);
  }

  @Override
  public PartitionReport partitions(String tableName, String indexName) {
    TableDefinition table = tables.forItems(tableName);
    ContributorInsightsUpdates.checkIndex(table, indexName);
    return capacity.report(table, indexName);
  }

  @Override
  public long propagationBacklog(String tableName) {
    return indexes.backlog(tables.definition(tableName));
  }

  @Override
  public List<CapacityTotals.Consumed> consumedCapacity() {
    return capacity.consumedCapacity();
  }

  @Override
  public String partitionKey(String tableName, String indexName) {
    TableDefinition table = tables.definition(tableName);
    if (indexName == null) {
      return table.hashKey().name();
    }
    IndexDefinition index = table.index(indexName);
    return index == null ? null : index.hashKeys().get(0).name();
  }

  /** The capacity model (for tests in this package). */
  CapacityModel capacityModel() {
    return capacity;
  }

  @Override
  public BatchGetItemResponse batchGetItem(BatchGetItemRequest r) {
    return batches.batchGetItem(r);
  }

  @Override
  public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest r) {
    return batches.batchWriteItem(r);
  }

  /** See {@link Transactions} for how transactions commit and what they guarantee. */
  @Override
  public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest r) {
    return transactions.write(r);
  }

  @Override
  public TransactGetItemsResponse transactGetItems(TransactGetItemsRequest r) {
    return transactGets.get(r);
  }

  /** PartiQL statements run through this engine's own operations (see {@code partiql}). */
  @Override
  public ExecuteStatementResponse executeStatement(ExecuteStatementRequest r) {
    return Statements.execute(this, r);
  }

  @Override
  public BatchExecuteStatementResponse batchExecuteStatement(BatchExecuteStatementRequest r) {
    return BatchStatements.execute(this, r);
  }

  @Override
  public ExecuteTransactionResponse executeTransaction(ExecuteTransactionRequest r) {
    return TransactionStatements.execute(this, r);
  }

  @Override
  public UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest r) {
    TimeToLiveUpdates.checkRequest(r);
    TableDefinition changed =
        tables.change(
            r.tableName(),
            t ->
                t.withTimeToLive(
                    TimeToLiveUpdates.apply(
                        t.timeToLive(), r.timeToLiveSpecification(), clock.instant())));
    if (changed.timeToLive().enabled()) {
      sweeper.startIfNeeded();
    }
    return new UpdateTimeToLiveResponse(r.timeToLiveSpecification());
  }

  @Override
  public DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest r) {
    TimeToLiveUpdates.checkTableName(r.tableName());
    return new DescribeTimeToLiveResponse(
        TimeToLiveUpdates.describe(tables.definition(r.tableName()).timeToLive()));
  }

  @Override
  public UpdateContributorInsightsResponse updateContributorInsights(
      UpdateContributorInsightsRequest r) {
    ContributorInsightsUpdates.checkRequest(r);
    TableDefinition changed =
        tables.change(
            ContributorInsightsUpdates.tableNameOf(r.tableName()),
            t -> t.withContributorInsights(
                ContributorInsightsUpdates.apply(t, r, clock.instant())));
    return ContributorInsightsUpdates.updated(changed, r);
  }

  @Override
  public DescribeContributorInsightsResponse describeContributorInsights(
      DescribeContributorInsightsRequest r) {
    ContributorInsightsUpdates.checkRequest(r);
    return ContributorInsightsUpdates.describe(
        tables.definition(ContributorInsightsUpdates.tableNameOf(r.tableName())), r.indexName());
  }

  @Override
  public ListContributorInsightsResponse listContributorInsights(
      ListContributorInsightsRequest r) {
    ContributorInsightsUpdates.checkRequest(r);
    int offset = ContributorInsightsUpdates.offset(r.nextToken());
    int limit = ContributorInsightsUpdates.limit(r.maxResults());
    List<ContributorInsightsSummary> all = new ArrayList<>();
    if (r.tableName() != null) {
      TableDefinition table =
          tables.definition(ContributorInsightsUpdates.tableNameOf(r.tableName()));
      all.addAll(ContributorInsightsUpdates.summaries(table, true));
    } else {
      for (TableDefinition table : tables.all()) {
        all.addAll(ContributorInsightsUpdates.summaries(table, false));
      }
    }
    int from = Math.min(offset, all.size());
    int to = Math.min(from + limit, all.size());
    return new ListContributorInsightsResponse(
        List.copyOf(all.subList(from, to)), to < all.size() ? Integer.toString(to) : null);
  }

  @Override
  public TagResourceResponse tagResource(TagResourceRequest r) {
    return tagging.tagResource(r);
  }

  @Override
  public UntagResourceResponse untagResource(UntagResourceRequest r) {
    return tagging.untagResource(r);
  }

  @Override
  public ListTagsOfResourceResponse listTagsOfResource(ListTagsOfResourceRequest r) {
    return tagging.listTagsOfResource(r);
  }

  @Override
  public io.stator.api.PutResourcePolicyResponse putResourcePolicy(
      PutResourcePolicyRequest r) {
    return resourcePolicies.put(r);
  }

  @Override
  public io.stator.api.GetResourcePolicyResponse getResourcePolicy(
      io.stator.api.GetResourcePolicyRequest r) {
    return resourcePolicies.get(r);
  }

  @Override
  public io.stator.api.DeleteResourcePolicyResponse deleteResourcePolicy(
      io.stator.api.DeleteResourcePolicyRequest r) {
    return resourcePolicies.delete(r);
  }

  @Override
  public CreateBackupResponse createBackup(CreateBackupRequest r) {
    return backups.create(r);
  }

  @Override
  public DescribeBackupResponse describeBackup(DescribeBackupRequest r) {
    return backups.describe(r);
  }

  @Override
  public ListBackupsResponse listBackups(ListBackupsRequest r) {
    return backups.list(r);
  }

  @Override
  public DeleteBackupResponse deleteBackup(DeleteBackupRequest r) {
    return backups.delete(r);
  }

  @Override
  public RestoreTableFromBackupResponse restoreTableFromBackup(RestoreTableFromBackupRequest r) {
    return backups.restore(r);
  }

  @Override
  public RestoreTableToPointInTimeResponse restoreTableToPointInTime(
      RestoreTableToPointInTimeRequest r) {
    return backups.restore(r);
  }

  @Override
  public ExportTableToPointInTimeResponse exportTableToPointInTime(
      ExportTableToPointInTimeRequest r) {
    return exports.export(r);
  }

  @Override
  public DescribeExportResponse describeExport(DescribeExportRequest r) {
    return exports.describe(r);
  }

  @Override
  public ListExportsResponse listExports(ListExportsRequest r) {
    return exports.list(r);
  }

  @Override
  public ImportTableResponse importTable(ImportTableRequest r) {
    return imports.importTable(r);
  }

  @Override
  public DescribeImportResponse describeImport(DescribeImportRequest r) {
    return imports.describe(r);
  }

  @Override
  public ListImportsResponse listImports(ListImportsRequest r) {
    return imports.list(r);
  }

  @Override
  public DescribeContinuousBackupsResponse describeContinuousBackups(
      DescribeContinuousBackupsRequest r) {
    return continuousBackups.describe(r);
  }

  @Override
  public UpdateContinuousBackupsResponse updateContinuousBackups(
      UpdateContinuousBackupsRequest r) {
    return continuousBackups.update(r);
  }

  /**
   * Deletes the point-in-time recovery history older than each table's window now, as the
   * engine's background job does every hour (for tests, and tools that want the space back).
   * Returns the number of records deleted.
   */
  public long trimChangeHistory() {
    return continuousBackups.trim();
  }

  /**
   * DynamoDB's default quotas: 80,000 read and write capacity units per account and region,
   * 40,000 per table. Stator enforces no quota of its own; these are what tools expect to read.
   */
  @Override
  public DescribeLimitsResponse describeLimits(DescribeLimitsRequest r) {
    return new DescribeLimitsResponse(80_000L, 80_000L, 40_000L, 40_000L);
  }

  /**
   * DynamoDB's regional address, cached for a day as DynamoDB says. The server replaces it with
   * the address a client reached it at.
   */
  @Override
  public DescribeEndpointsResponse describeEndpoints(DescribeEndpointsRequest r) {
    return new DescribeEndpointsResponse(
        List.of(new Endpoint("dynamodb." + region + ".amazonaws.com", 1440)));
  }

  @Override
  public ListStreamsResponse listStreams(ListStreamsRequest r) {
    return streams.listStreams(r);
  }

  @Override
  public DescribeStreamResponse describeStream(DescribeStreamRequest r) {
    return streams.describeStream(r);
  }

  @Override
  public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest r) {
    return streams.getShardIterator(r);
  }

  @Override
  public GetRecordsResponse getRecords(GetRecordsRequest r) {
    return streams.getRecords(r);
  }

  @Override
  public long sweepExpiredItems() {
    return sweeper.sweepNow();
  }

  @Override
  public void deferDurabilityOnThisThread() {
    storage.deferDurabilityOnThisThread();
  }

  @Override
  public void awaitDurable() {
    storage.awaitDurable();
  }

  @Override
  public void close() {
    // The sweeper first (its deletes stage index changes), then the propagator and backfills,
    // then the storage they all write to.
    try {
      housekeeping.close();
      imports.close();
      exports.close();
      backups.close();
      continuousBackups.close();
      sweeper.close();
    } finally {
      try {
        streams.close();
      } finally {
        try {
          indexes.close();
        } finally {
          storage.close();
        }
      }
    }
  }
}
