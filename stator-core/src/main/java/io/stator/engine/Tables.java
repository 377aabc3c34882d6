package io.stator.engine;

import io.stator.api.AttributeDefinition;
import io.stator.api.BillingModeSummary;
import io.stator.api.CreateTableRequest;
import io.stator.api.CreateTableResponse;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DeleteTableResponse;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DescribeTableResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListTablesRequest;
import io.stator.api.ListTablesResponse;
import io.stator.api.LocalSecondaryIndexDescription;
import io.stator.api.OnDemandThroughput;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughputDescription;
import io.stator.api.RestoreSummary;
import io.stator.api.SSEDescription;
import io.stator.api.StreamSpecification;
import io.stator.api.TableClassSummary;
import io.stator.api.TableDescription;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTableResponse;
import io.stator.index.Indexes;
import io.stator.schema.Catalog;
import io.stator.schema.Constraints;
import io.stator.schema.GlobalIndexUpdates;
import io.stator.schema.IndexDefinition;
import io.stator.schema.KeyAttribute;
import io.stator.schema.MaxThroughput;
import io.stator.schema.SettingsValidation;
import io.stator.schema.StreamDefinition;
import io.stator.schema.StreamSpecifications;
import io.stator.schema.TableDefinition;
import io.stator.schema.TableSettings;
import io.stator.schema.TableValidation;
import io.stator.storage.CommitConflictException;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.OnConflict;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageTimeoutException;
import io.stator.stream.Streams;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/** The table operations: CreateTable, DescribeTable, ListTables, DeleteTable, UpdateTable. */
final class Tables {
  private final Storage storage;
  private final Catalog catalog;
  private final TableCache cache;
  private final EngineOptions options;
  private final Indexes indexes;
  private final Streams streams;

  Tables(
      Storage storage, Catalog catalog, EngineOptions options, Indexes indexes, Streams streams) {
    this.storage = storage;
    this.catalog = catalog;
    this.cache = new TableCache(catalog, options.clock());
    this.options = options;
    this.indexes = indexes;
    this.streams = streams;
  }

  /** Forgets a cached definition (after a change made outside this class, e.g. a backfill). */
  void invalidate(String tableName) {
    cache.invalidate(tableName);
  }

  CreateTableResponse create(CreateTableRequest r) {
    return create(r, UnaryOperator.identity());
  }

  /**
   * CreateTable, the definition it validated changed by {@code adjust} before it is recorded (a
   * restore's table is CREATING, with its RestoreSummary, from its first moment).
   */
  CreateTableResponse create(CreateTableRequest r, UnaryOperator<TableDefinition> adjust) {
    TableDefinition table = adjust.apply(TableValidation.createTable(r, options.clock().instant()));
    try {
      catalog.create(table);
    } finally {
      cache.invalidate(table.name());
    }
    return new CreateTableResponse(describe(table));
  }

  DescribeTableResponse describe(DescribeTableRequest r) {
    checkName(r.tableName());
    return new DescribeTableResponse(describe(lookup(r.tableName()).table()));
  }

  ListTablesResponse list(ListTablesRequest r) {
    Constraints c = new Constraints();
    c.atLeast("limit", r.limit(), 1).atMost("limit", r.limit(), 100);
    c.name("exclusiveStartTableName", r.exclusiveStartTableName());
    c.check();
    int limit = r.limit() == null ? 100 : r.limit();
    List<String> names = catalog.names(r.exclusiveStartTableName(), limit + 1);
    String last = null;
    if (names.size() > limit) {
      names = names.subList(0, limit);
      last = names.get(limit - 1);
    }
    return new ListTablesResponse(List.copyOf(names), last);
  }

  /**
   * DeleteTable; {@code retiring} is told the definition of the incarnation it removes once its
   * record is gone and while its items are still there (for the SYSTEM backup), {@code deleted}
   * once they are dropped (so the capacity model forgets its partitions).
   */
  DeleteTableResponse delete(DeleteTableRequest r, Consumer<TableDefinition> retiring,
      Consumer<TableDefinition> deleted) {
    checkName(r.tableName());
    // A conflict: the definition changed under us (UpdateTable, or delete and re-create).
    return OnConflict.rerun(() -> {
      Catalog.Entry entry = lookup(r.tableName());
      if (entry.table().creating()) {
        // being restored or imported: DynamoDB refuses to delete it until it is ACTIVE
        throw DynamoDbException.resourceInUse(
            "Attempt to change a resource which is still in use: Table is being created: "
                + r.tableName());
      }
      if (entry.table().settings().deletionProtectionEnabled()) {
        throw DynamoDbException.validation(
            "Resource cannot be deleted as it is currently protected against deletion. Disable"
                + " deletion protection first.");
      }
      TableDescription before = describe(entry.table());
      try {
        catalog.delete(entry.table(), entry.version(), options.clock().instant(), retiring);
      } finally {
        cache.invalidate(entry.table().name());
      }
      deleted.accept(entry.table());
      return new DeleteTableResponse(deleting(before));
    });
  }

  /**
   * Deletes the table {@code name} if it is CREATING and {@code which} accepts it: a restore that
   * ends without its items (DeleteTable refuses a CREATING table). Its record goes at the version
   * read, then its spaces, as DeleteTable's do; no SYSTEM backup. False when the table is gone,
   * ACTIVE, or not the one.
   */
  boolean deleteCreating(String name, Predicate<TableDefinition> which) {
    // A conflict: the definition changed under us (the restore made it ACTIVE meanwhile).
    return OnConflict.rerun(() -> {
      Optional<Catalog.Entry> entry = catalog.get(name);
      if (entry.isEmpty() || !entry.get().table().creating() || !which.test(entry.get().table())) {
        return false;
      }
      try {
        catalog.delete(entry.get().table(), entry.get().version(), options.clock().instant());
      } finally {
        cache.invalidate(name);
      }
      return true;
    });
  }

  UpdateTableResponse update(UpdateTableRequest r) {
    TableValidation.updateTableRequest(r);
    // A conflict: another change of the table; the request is applied to the new definition.
    return OnConflict.rerun(() -> updateOnce(r));
  }

  private UpdateTableResponse updateOnce(UpdateTableRequest r) {
    Catalog.Entry entry = lookup(r.tableName());
    TableDefinition updated =
        TableValidation.updateTable(entry.table(), r, options.clock().instant());
    GlobalIndexUpdates.Applied applied = null;
    if (r.globalSecondaryIndexUpdates() != null && !r.globalSecondaryIndexUpdates().isEmpty()) {
      applied = GlobalIndexUpdates.apply(updated, r);
      updated = applied.table();
    }
    updated = SettingsValidation.update(updated, r, options.clock().instant());
    updated =
        StreamSpecifications.apply(updated, r.streamSpecification(), options.clock().instant());
    if (updated == entry.table()) {
      return new UpdateTableResponse(answered(describe(updated), r));
    }
    IndexDefinition created = applied == null ? null : applied.created();
    if (created != null) {
      storage.createSpace(created.space());
      storage.createSpace(updated.changeLog());
    }
    if (!streamsOnlyIn(updated, entry.table()).isEmpty()) {
      storage.createSpace(StreamDefinition.SHARED_SPACE); // a new stream's records go there
    }
    TableDefinition replacement = updated;
    try {
      OnConflict.answer(() -> {
        catalog.replace(replacement, entry.version());
        return replacement;
      }, conflict -> {
        if (created != null) {
          storage.dropSpace(created.space()); // this attempt's index never was
        }
        throw conflict; // for update to apply the request to the new definition
      });
    } finally {
      cache.invalidate(updated.name());
    }
    if (created != null) {
      indexes.backfill(updated.name(), created);
    }
    if (applied != null && applied.deleted() != null) {
      // After the catalog commit: from now on no write or propagation commits into it.
      storage.dropSpace(applied.deleted().space());
    }
    // Streams disabled more than 24 hours ago are forgotten: their records go too.
    for (StreamDefinition s : streamsOnlyIn(entry.table(), updated)) {
      streams.deleteRecords(entry.table(), s);
    }
    return new UpdateTableResponse(answered(describe(updated), r));
  }

  /**
   * UpdateTable's answer: the table as changed, except that a ceiling the request removed with
   * -1 is shown as -1, as DynamoDB's UpdateTable answers it (its DescribeTable then leaves the
   * member out).
   */
  private static TableDescription answered(TableDescription d, UpdateTableRequest r) {
    OnDemandThroughput given = r.onDemandThroughput();
    if (given == null || !TableDefinition.PAY_PER_REQUEST.equals(
        d.billingModeSummary().billingMode())) {
      return d;
    }
    OnDemandThroughput now = d.onDemandThroughput();
    Long read = removes(given.maxReadRequestUnits())
        ? Long.valueOf(MaxThroughput.UNLIMITED) : now == null ? null : now.maxReadRequestUnits();
    Long write = removes(given.maxWriteRequestUnits())
        ? Long.valueOf(MaxThroughput.UNLIMITED) : now == null ? null : now.maxWriteRequestUnits();
    return read == null && write == null ? d
        : d.withOnDemandThroughput(new OnDemandThroughput(read, write));
  }

  private static boolean removes(Long units) {
    return units != null && units == MaxThroughput.UNLIMITED;
  }

  /** The streams {@code table} has and {@code other} has not. */
  private static List<StreamDefinition> streamsOnlyIn(
      TableDefinition table, TableDefinition other) {
    List<StreamDefinition> out = new ArrayList<>();
    for (StreamDefinition s : table.streams()) {
      if (other.streams().stream().noneMatch(o -> o.created().equals(s.created()))) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The table for a client's item operation, from the {@link TableCache}; DynamoDB's short
   * not-found message, also for a table still CREATING (one being restored from a backup or
   * imported): DynamoDB's ResourceNotFoundException covers a table whose "status might not be
   * ACTIVE", and a client's write must not mix with the items a restore or import is writing.
   */
  TableDefinition forItems(String tableName) {
    TableDefinition table = cached(tableName).table();
    if (table.creating()) {
      throw DynamoDbException.resourceNotFound("Requested resource not found");
    }
    return table;
  }

  /** The table a restore or an import writes its items into, CREATING as it is. */
  TableDefinition forFilling(String tableName) {
    return cached(tableName).table();
  }

  /**
   * Like {@link #forItems}, with the catalog version that writes expect in their commit: the
   * definition a write attempt starts from. When the table's stream has yet to record a split of
   * the table's partitions, it records it first ({@link Streams#follow}), so that the attempt
   * routes its stream record by the layout its commit expects and never changes the catalog
   * itself, which would fail its own commit.
   */
  Catalog.Entry entryForItems(String tableName) {
    Catalog.Entry entry = cached(tableName);
    if (streams.follow(entry.table())) {
      entry = cached(tableName); // the change made the cache forget the old definition
    }
    return entry;
  }

  private Catalog.Entry cached(String tableName) {
    return cache
        .entry(tableName)
        .orElseThrow(() -> DynamoDbException.resourceNotFound("Requested resource not found"));
  }

  /**
   * After a write's commit conflict: when what changed is a table's definition (the catalog
   * record, or the fence of it that every write expects, see {@code Catalog}), forgets the
   * cached copy, so that the write's next attempt reads the definition from the storage.
   * Another engine on the same storage changes the catalog without this engine's cache hearing
   * of it, and an attempt that took the cached copy again would expect the old version, and
   * conflict, forever.
   */
  void conflicted(CommitConflictException e) {
    Catalog.changedTable(e.failed()).ifPresent(cache::invalidate);
  }

  /**
   * What a storage failure during an item operation on {@code table} means to the client: when
   * DeleteTable dropped that table under the request (it is no longer in the catalog, or the name
   * now belongs to a new incarnation), the request raced the delete and lost, which DynamoDB
   * reports as ResourceNotFoundException; otherwise the failure itself, an internal error.
   *
   * <p>A timeout or an unknown outcome is answered as it is, without that check: both say the
   * storage is not answering, and the catalog read would wait as long again, doubling the
   * request's wait past the storage's one bound, only to tell the same internal error apart from
   * a rare race with DeleteTable.
   */
  RuntimeException failure(TableDefinition table, StorageException e) {
    if (e instanceof StorageTimeoutException || e instanceof CommitOutcomeUnknownException) {
      return e;
    }
    Optional<Catalog.Entry> now = catalog.get(table.name());
    if (now.isEmpty() || !now.get().table().tableId().equals(table.tableId())) {
      cache.invalidate(table.name()); // perhaps deleted by another engine, which told no cache
      return DynamoDbException.resourceNotFound("Requested resource not found");
    }
    return e;
  }

  /**
   * The same for a request of several tables (a transaction): ResourceNotFoundException when
   * DeleteTable dropped any of them under it, else the failure.
   */
  RuntimeException failure(List<TableDefinition> touched, StorageException e) {
    for (TableDefinition table : touched) {
      RuntimeException mapped = failure(table, e);
      if (mapped != e) {
        return mapped;
      }
    }
    return e;
  }

  /**
   * The definition of a table for a table-level operation (such as DescribeTimeToLive):
   * ResourceNotFoundException naming the table when it does not exist.
   */
  TableDefinition definition(String tableName) {
    return lookup(tableName).table();
  }

  /**
   * Replaces a table's definition with {@code change} applied to it, as UpdateTable does: read,
   * change, commit expecting the read version, start over on a conflict. {@code change} may throw
   * a {@link DynamoDbException} to refuse; returns the new definition.
   */
  TableDefinition change(String tableName, UnaryOperator<TableDefinition> change) {
    // A conflict: another change of the table; the change is applied to the new definition.
    return OnConflict.rerun(() -> {
      Catalog.Entry entry = lookup(tableName);
      TableDefinition changed = change.apply(entry.table());
      try {
        catalog.replace(changed, entry.version());
        return changed;
      } finally {
        cache.invalidate(tableName);
      }
    });
  }

  /**
   * The name of the table {@code arn} names in this region and account, or null when it names
   * none (another region or account, or no table's ARN).
   */
  String nameInArn(String arn) {
    int at = arn.indexOf(":table/");
    if (at < 0) {
      return null;
    }
    String name = arn.substring(at + ":table/".length());
    return arn.equals(arn(name)) ? name : null;
  }

  /** The ARN of the table named {@code tableName}. */
  String arn(String tableName) {
    return "arn:aws:dynamodb:" + options.region() + ":" + options.accountId() + ":table/"
        + tableName;
  }

  /** Every table's definition, in name order. */
  List<TableDefinition> all() {
    List<TableDefinition> out = new ArrayList<>();
    for (Catalog.Entry e : catalog.all()) {
      out.add(e.table());
    }
    return out;
  }

  /** The table for a table operation; DynamoDB names the table in the not-found message. */
  private Catalog.Entry lookup(String tableName) {
    return catalog
        .get(tableName)
        .orElseThrow(
            () ->
                DynamoDbException.resourceNotFound(
                    "Requested resource not found: Table: " + tableName + " not found"));
  }

  private static void checkName(String tableName) {
    new Constraints().notNull("tableName", tableName).name("tableName", tableName).check();
  }

  TableDescription describe(TableDefinition t) {
    List<AttributeDefinition> definitions = new ArrayList<>();
    for (KeyAttribute d : t.attributeDefinitions()) {
      definitions.add(new AttributeDefinition(d.name(), d.type()));
    }
    List<KeySchemaElement> keySchema = new ArrayList<>();
    keySchema.add(new KeySchemaElement(t.hashKey().name(), "HASH"));
    if (t.hasRangeKey()) {
      keySchema.add(new KeySchemaElement(t.rangeKey().name(), "RANGE"));
    }
    SpaceStats stats;
    try {
      stats = storage.stats(t.space());
    } catch (StorageException e) {
      stats = new SpaceStats(0, 0); // dropped by a concurrent DeleteTable
    }
    String arn =
        "arn:aws:dynamodb:" + options.region() + ":" + options.accountId() + ":table/" + t.name();
    List<LocalSecondaryIndexDescription> locals = new ArrayList<>();
    List<GlobalSecondaryIndexDescription> globals = new ArrayList<>();
    for (IndexDefinition i : t.indexes()) {
      List<KeySchemaElement> ks = new ArrayList<>();
      for (KeyAttribute k : i.hashKeys()) {
        ks.add(new KeySchemaElement(k.name(), "HASH"));
      }
      for (KeyAttribute k : i.rangeKeys()) {
        ks.add(new KeySchemaElement(k.name(), "RANGE"));
      }
      Projection projection =
          new Projection(
              i.projectionType(),
              i.nonKeyAttributes().isEmpty() ? null : i.nonKeyAttributes());
      SpaceStats indexStats = indexes.stats(i);
      if (i.global()) {
        globals.add(new GlobalSecondaryIndexDescription(
            i.name(), ks, projection, i.status(), i.isActive() ? null : Boolean.TRUE,
            new ProvisionedThroughputDescription(
                null, null, 0L, i.readCapacityUnits(), i.writeCapacityUnits()),
            indexStats.bytes(), indexStats.records(), arn + "/index/" + i.name(),
            onDemandThroughput(i.maxThroughput())));
      } else {
        locals.add(new LocalSecondaryIndexDescription(
            i.name(), ks, projection, indexStats.bytes(), indexStats.records(),
            arn + "/index/" + i.name()));
      }
    }
    return new TableDescription(
        definitions,
        t.name(),
        keySchema,
        t.status(),
        t.creationDateTime(),
        new ProvisionedThroughputDescription(
            t.lastIncrease(),
            t.lastDecrease(),
            0L,
            t.readCapacityUnits(),
            t.writeCapacityUnits()),
        stats.bytes(),
        stats.records(),
        arn,
        t.tableId(),
        new BillingModeSummary(t.billingMode(), t.lastUpdateToPayPerRequest()),
        locals.isEmpty() ? null : locals,
        globals.isEmpty() ? null : globals,
        t.enabledStream() == null
            ? null
            : new StreamSpecification(true, t.enabledStream().viewType()),
        t.latestStream() == null ? null : t.latestStream().label(),
        t.latestStream() == null ? null : arn + "/stream/" + t.latestStream().label(),
        t.settings().deletionProtectionEnabled(),
        tableClassSummary(t.settings()),
        sseDescription(t.settings()),
        onDemandThroughput(t.maxThroughput()),
        restoreSummary(t.settings().restored()));
  }

  private static RestoreSummary restoreSummary(TableSettings.Restored r) {
    return r == null ? null
        : new RestoreSummary(r.sourceBackupArn(), r.sourceTableArn(), r.at(), r.inProgress());
  }

  /**
   * The OnDemandThroughput DescribeTable shows: the ceilings set, a member without one left out,
   * and none at all while neither is set, as DynamoDB settles once a removal has spread.
   */
  private static OnDemandThroughput onDemandThroughput(MaxThroughput m) {
    if (m.isNone()) {
      return null;
    }
    return new OnDemandThroughput(
        m.limitsReads() ? m.readRequestUnits() : null,
        m.limitsWrites() ? m.writeRequestUnits() : null);
  }

  /**
   * DynamoDB shows a TableClassSummary once a class was given: at creation without a time, after
   * an UpdateTable that changed it with the time of the change.
   */
  private static TableClassSummary tableClassSummary(TableSettings s) {
    return s.tableClass() == null ? null
        : new TableClassSummary(s.tableClass(), s.tableClassUpdated());
  }

  /**
   * The SSEDescription of a table encrypted with a KMS key; none for the default encryption with
   * an AWS owned key, which DynamoDB does not describe.
   */
  private SSEDescription sseDescription(TableSettings s) {
    if (s.kmsMasterKeyId() == null) {
      return null;
    }
    return new SSEDescription("ENABLED", "KMS", kmsKeyArn(s.kmsMasterKeyId()), null);
  }

  /**
   * The ARN of a KMS key given as a key id, alias, ARN or alias ARN. DynamoDB's AWS managed key
   * ({@code alias/aws/dynamodb}) has an id of its own in each account and region; Stator makes a
   * stable one from the two.
   */
  private String kmsKeyArn(String keyId) {
    if (keyId.startsWith("arn:")) {
      return keyId;
    }
    String prefix = "arn:aws:kms:" + options.region() + ":" + options.accountId() + ":";
    if (keyId.startsWith("alias/")) {
      return prefix + keyId;
    }
    String id = keyId.equals(TableSettings.DEFAULT_KMS_KEY)
        ? UUID.nameUUIDFromBytes(
            (prefix + "alias/aws/dynamodb").getBytes(StandardCharsets.UTF_8)).toString()
        : keyId;
    return prefix + "key/" + id;
  }

  /**
   * DeleteTable's description: DynamoDB's DescribeTable fields, status DELETING, without the
   * key schema, attribute definitions, creation time and indexes, which it leaves out there.
   */
  private static TableDescription deleting(TableDescription d) {
    return new TableDescription(
        null, d.tableName(), null, "DELETING", null,
        d.provisionedThroughput(), d.tableSizeBytes(), d.itemCount(), d.tableArn(), d.tableId(),
        d.billingModeSummary(), null, null,
        d.streamSpecification(), d.latestStreamLabel(), d.latestStreamArn(),
        d.deletionProtectionEnabled(), d.tableClassSummary(), d.sseDescription(),
        d.onDemandThroughput(), null);
  }
}
