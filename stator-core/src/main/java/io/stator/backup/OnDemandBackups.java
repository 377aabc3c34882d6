package io.stator.backup;

import io.stator.api.BackupDescription;
import io.stator.api.BackupSummary;
import io.stator.api.CreateBackupRequest;
import io.stator.api.CreateBackupResponse;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DeleteBackupResponse;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.DescribeBackupResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ListBackupsRequest;
import io.stator.api.ListBackupsResponse;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableFromBackupResponse;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.RestoreTableToPointInTimeResponse;
import io.stator.capacity.ContributorInsightsUpdates;
import io.stator.lease.JobLeases;
import io.stator.lease.Leases;
import io.stator.schema.Constraints;
import io.stator.schema.SpaceNames;
import io.stator.schema.TableDefinition;
import io.stator.storage.CommitConflictException;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * CreateBackup, DescribeBackup, ListBackups and DeleteBackup.
 *
 * <p>CreateBackup records the backup as CREATING with a claim on its table (a second backup of
 * the table meanwhile is BackupInUseException), has the storage copy the table's items into the
 * backup's space ({@code Storage.copySpace}), then records it AVAILABLE with the copy's size and
 * item count and answers AVAILABLE: the copy is synchronous (on RocksDB 13.7 s for a million
 * records of 200 bytes, on a shared two-core machine), so a caller that waits for AVAILABLE, as
 * DynamoDB's callers do, finds it at once. A table of many millions of items holds its request
 * that long; a background copy answering CREATING would not, and is left for later. A copy that
 * fails leaves nothing: its space is dropped and its record forgotten. A process that stops in
 * the middle leaves a CREATING record, which is forgotten with its space ({@link #settleOrphans})
 * once no server runs it. A server that paused past its lease while it copied, and finds on
 * resuming that another server forgot the backup meanwhile, answers {@link #givenUp} and drops
 * the space it copied into, leaving the record, the claim and the table's history alone.
 *
 * <p>Of several servers on one store, each backup being made (a point-in-time copy included) and
 * each restore is held by the server that runs it, a lease per job ({@link JobLeases}, {@code
 * backup/<id>} and {@code restore/<backup id>/<table>}) renewed while it runs. A server that
 * starts, and the housekeeping of every server, forgets or takes up only the jobs whose lease is
 * free: absent (its server closed) or expired (its server stopped renewing it).
 *
 * <p>DeleteBackup drops the record first and the space after: a stop between the two leaves a
 * space no record names, which the next start drops too.
 *
 * <p>DeleteTable of a table with point-in-time recovery enabled leaves a SYSTEM backup ({@link
 * #deleted}), made as CreateBackup makes one. It is listed with BackupType SYSTEM or ALL,
 * restored and deleted as any backup, and expires 35 days after it was made: from then on the
 * operations no longer find it, and the next start drops it.
 */
public final class OnDemandBackups implements AutoCloseable {
  private static final int DEFAULT_PAGE = 100;
  private static final int READ_CHUNK = 100;

  private final Storage storage;
  private final SourceTables tables;
  private final Clock clock;
  private final BackupRecords records;
  private final BackupDescriptions descriptions;
  private final Restores restores;
  private final PointInTimeRestores pointInTimeRestores;
  private final JobLeases held;

  public OnDemandBackups(Storage storage, SourceTables tables, Clock clock, Leases leases) {
    this.storage = storage;
    this.tables = tables;
    this.clock = clock;
    this.records = new BackupRecords(storage);
    this.descriptions = new BackupDescriptions(tables);
    this.held = new JobLeases(leases, "backup");
    this.restores = new Restores(storage, tables, records, descriptions, clock,
        new JobLeases(leases, "restore"));
    this.pointInTimeRestores =
        new PointInTimeRestores(storage, tables, records, restores, clock, held);
    settleOrphans();
  }

  /**
   * At start, and from the housekeeping: forgets the backups cut short (CREATING) and the
   * point-in-time copies no restore needs any more, whose server no longer runs them (their
   * lease free); drops the spaces no backup names and expired SYSTEM backups; and takes up the
   * restores cut short whose lease is free.
   */
  public void settleOrphans() {
    // The spaces first: a backup's record is written before its space, so each space listed
    // here is named by a record the walk below reads, unless that backup is gone meanwhile.
    Set<String> spaces = storage.spaces();
    Set<String> kept = new HashSet<>();
    for (String after = null; ; ) {
      List<BackupRecords.Read> chunk = records.after(after, READ_CHUNK);
      for (BackupRecords.Read r : chunk) {
        if (r.backup().type().equals(StoredBackup.EXPORT)) {
          // An export's copy is its export's to drop: that export may be running on another
          // server of the store (its lease says so, which the export package reads).
          kept.add(r.backup().space());
          continue;
        }
        boolean unused = !records.restoring(r.backup().id());
        boolean creating = r.backup().status().equals(StoredBackup.CREATING);
        if ((creating || !r.backup().listed() && unused) && held.orphaned(r.backup().id())) {
          // cut short, or a point-in-time copy whose restore is done, and no server makes it
          try {
            if (creating && r.backup().type().equals(StoredBackup.USER)
                && !storage.copiesAtOneInstant()) {
              // its table's writes kept it for the copy
              stopHistory(r.backup().table().name(), null);
            }
            if (!records.abandon(r)) {
              kept.add(r.backup().space()); // its holder resumed and made it meanwhile
            }
          } finally {
            held.release(r.backup().id());
          }
        } else if (!creating && r.backup().listed() && r.backup().expiredAt(clock.instant())
            && unused) {
          records.abandon(r); // a SYSTEM backup expired
        } else {
          kept.add(r.backup().space());
        }
      }
      if (chunk.size() < READ_CHUNK) {
        break;
      }
      after = chunk.get(chunk.size() - 1).backup().id();
    }
    for (String space : spaces) {
      if (SpaceNames.isBackup(space) && !kept.contains(space)) {
        storage.dropSpace(space);
      }
    }
    restores.resume(records.restoreClaims());
  }

  public RestoreTableFromBackupResponse restore(RestoreTableFromBackupRequest r) {
    checkArn(r.backupArn());
    return restores.restore(r, this);
  }

  public RestoreTableToPointInTimeResponse restore(RestoreTableToPointInTimeRequest r) {
    return pointInTimeRestores.restore(r);
  }

  /**
   * The table's items as of {@code at}, a time inside its recovery window, copied into a space of
   * their own (as RestoreTableToPointInTime copies them), for an export to read while writes go
   * on; the caller closes the copy when done.
   */
  public PointInTimeCopy copyAsOf(TableDefinition table, Instant at, String export) {
    StoredBackup copy =
        pointInTimeRestores.copy(table, at, exportCopy(export), StoredBackup.EXPORT);
    held.end(copy.id()); // its export's lease holds it from here on
    return new PointInTimeCopy(copy, restores);
  }

  /**
   * Drops the copy that the export {@code export} (its id) was reading, if its server left one:
   * when the export is settled after being cut short. A walk over the backups' records, done
   * only for an export cut short.
   */
  public void forgetExportCopy(String export) {
    for (String after = null; ; ) {
      List<BackupRecords.Read> chunk = records.after(after, READ_CHUNK);
      for (BackupRecords.Read r : chunk) {
        if (r.backup().type().equals(StoredBackup.EXPORT)
            && r.backup().name().equals(exportCopy(export))) {
          restores.forget(r.backup());
        }
      }
      if (chunk.size() < READ_CHUNK) {
        return;
      }
      after = chunk.get(chunk.size() - 1).backup().id();
    }
  }

  private static String exportCopy(String export) {
    return "export " + export;
  }

  /**
   * Stops the restores in progress and gives the leases up: the next server to settle them
   * (another's housekeeping, or this one's next start) takes them up.
   */
  @Override
  public void close() {
    try {
      restores.close();
    } finally {
      held.close();
    }
  }

  public CreateBackupResponse create(CreateBackupRequest r) {
    Constraints c = ContributorInsightsUpdates.checkTableArn(r.tableName());
    c.notNull("backupName", r.backupName()).name("backupName", r.backupName());
    c.check();
    String name = ContributorInsightsUpdates.tableNameOf(r.tableName());
    TableDefinition table = sourceTable(name);
    if (table.creating()) {
      // A table being restored holds only some of its items yet.
      throw new DynamoDbException(ErrorType.TableInUseException, "Table is being created: "
          + name + "; back it up once it is ACTIVE.");
    }
    StoredBackup made;
    try {
      made = take(table, r.backupName(), StoredBackup.USER);
    } catch (StorageException e) {
      if (!storage.spaces().contains(table.space())) {
        throw tableNotFound(name); // deleted while the copy read it
      }
      throw e;
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        throw tableNotFound(name); // deleted before the copy could keep its history
      }
      throw e;
    }
    return new CreateBackupResponse(BackupDescriptions.details(made));
  }

  /**
   * The SYSTEM backup DynamoDB leaves of a table with point-in-time recovery enabled when it is
   * deleted, named {@code <table>$DeletedTableBackup} as DynamoDB names it, kept 35 days; for
   * DeleteTable to call once the table's record is gone and before its items are dropped, so
   * the backup holds the table as it was when deleted. Nothing for a table without recovery.
   */
  public void deleted(TableDefinition table) {
    if (table.settings().pointInTimeRecovery().enabled()) {
      take(table, table.name() + "$DeletedTableBackup", StoredBackup.SYSTEM);
    }
  }

  /** A backup of the table's items as they are now: recorded CREATING, copied, AVAILABLE. */
  private StoredBackup take(TableDefinition table, String name, String type) {
    Instant created = clock.instant();
    String id = BackupArns.newId(created);
    String arn = BackupArns.arn(tables.describe(table).tableArn(), id);
    StoredBackup creating =
        new StoredBackup(id, name, StoredBackup.CREATING, arn, created, 0, 0, table, type);
    held.start(id, () -> records.creating(creating));
    try {
      return make(table, creating);
    } finally {
      held.end(id);
    }
  }

  /** Copies the table into the CREATING backup's space and records the backup AVAILABLE. */
  private StoredBackup make(TableDefinition table, StoredBackup creating) {
    RuntimeException failed = null;
    try {
      copy(table, creating.space(), creating.type().equals(StoredBackup.USER));
      SpaceStats copied = storage.stats(creating.space());
      StoredBackup made = creating.with(StoredBackup.AVAILABLE, copied.bytes(), copied.records());
      if (records.made(made)) {
        return made;
      }
    } catch (RuntimeException e) {
      failed = e;
    }
    // The space is this backup's alone (its id is new), so it goes whoever forgot the record.
    boolean ours = abandon(creating);
    if (failed != null && ours) {
      throw failed;
    }
    throw givenUp(creating, failed);
  }

  /**
   * The answer for a backup (or a point-in-time copy) that another server forgot while this one
   * made it: this server paused past its lease, the other took the lease as a dead server's and
   * forgot the backup, record, claim and space. DynamoDB has no error for a backup that failed
   * (nor a FAILED backup status), so it is InternalServerError, which the AWS SDKs retry: the
   * retry makes a new backup. Nothing of this one is left.
   */
  static DynamoDbException givenUp(StoredBackup b, Throwable cause) {
    String what = b.listed() ? "The backup " + b.arn() + " of table " + b.table().name()
        : "The copy of table " + b.table().name() + " as of a time";
    DynamoDbException e = new DynamoDbException(ErrorType.InternalServerError, what
        + " was given up while this server made it: the server paused past its lease ("
        + JobLeases.TERM.toSeconds() + " s) and another server forgot it. Nothing of it was"
        + " kept; ask again.");
    if (cause != null) {
      e.addSuppressed(cause);
    }
    return e;
  }

  /**
   * Copies the table's items into {@code target} as they were at one instant. The storage's
   * copy is that when it copies at one instant, and for a table no one can write any more (a
   * deleted table's, {@code live} false). Otherwise writes go on while the copy reads, so the
   * writes are made to keep the change history for the time of the copy, as point-in-time
   * recovery has them keep it, and the items are copied as of an instant from the table and the
   * history, as a point-in-time restore copies them.
   *
   * <p>The instant: a first catalog change ({@code backupHistorySince}) makes every write that
   * commits after it record its change (the write hook expects the catalog record it read);
   * then the clock is read, T, and a second catalog change makes every write that read the
   * catalog before it unable to commit. A write staged before T's millisecond has therefore
   * committed, or never will, by the time the copy reads; the copy is the items as of the
   * millisecond before T's, which holds each commit wholly or not at all (all records of one
   * commit carry one time, {@link ChangeHistory#stage}).
   */
  private void copy(TableDefinition table, String target, boolean live) {
    if (!live || storage.copiesAtOneInstant()) {
      storage.copySpace(table.space(), target);
      return;
    }
    storage.createSpace(table.history()); // before a write may commit a record into it
    // In milliseconds, as the catalog keeps it, so that stopHistory finds it as set.
    Instant since = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    try {
      tables.change(table.name(),
          t -> t.withSettings(t.settings().withBackupHistorySince(since)));
      Instant taken = clock.instant();
      tables.change(table.name(), t -> t); // a new version: the writes staged before T are done
      PointInTimeRestores.writeAsOf(storage, table,
          Instant.ofEpochMilli(taken.toEpochMilli() - 1), target);
    } finally {
      stopHistory(table.name(), since);
    }
  }

  /**
   * Ends the history kept for a backup, deleting its records unless point-in-time recovery keeps
   * them (disabling recovery meanwhile left that to this); nothing when the table is gone, its
   * spaces with it.
   *
   * <p>The records are deleted, the space kept (empty; DeleteTable drops it): a write staged
   * with the definition that kept the history may still try to commit a record into it, and
   * meets the catalog change as a conflict, then writes again without a record; with the space
   * dropped, a storage that looks the space up first (Cassandra) fails that write instead, a
   * 500 to its client.
   *
   * <p>{@code since}, when not null, is what this backup set: the history is ended only if it is
   * still that. A holder that paused past its lease, and whose backup another server forgot
   * meanwhile, leaves alone the history a newer backup of the table keeps.
   */
  private void stopHistory(String name, Instant since) {
    TableDefinition after;
    try {
      after = tables.change(name, t -> since == null
          || since.equals(t.settings().backupHistorySince())
          ? t.withSettings(t.settings().withBackupHistorySince(null)) : t);
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        return;
      }
      throw e;
    }
    if (!after.settings().keepsHistory()) {
      // No write commits a record any more: every one up to now goes (the millisecond included)
      ChangeHistory.trim(storage, after, clock.instant().plusMillis(1));
    }
  }

  /**
   * Drops the space of a backup whose making failed, and forgets its record if it is still
   * there: false when another server forgot it first.
   */
  private boolean abandon(StoredBackup b) {
    boolean ours;
    try {
      storage.dropSpace(b.space());
    } finally {
      ours = records.abandon(b);
    }
    return ours;
  }

  public DescribeBackupResponse describe(DescribeBackupRequest r) {
    checkArn(r.backupArn());
    return new DescribeBackupResponse(descriptions.description(backup(r.backupArn()).backup()));
  }

  public ListBackupsResponse list(ListBackupsRequest r) {
    Constraints c = new Constraints();
    c.atLeast("limit", r.limit(), 1).atMost("limit", r.limit(), 100);
    c.oneOf("backupType", r.backupType(), "USER", "SYSTEM", "AWS_BACKUP", "ALL");
    if (r.tableName() != null) {
      c.lengthAtLeast("tableName", r.tableName(), r.tableName().length(), 1);
      c.lengthAtMost("tableName", r.tableName(), r.tableName().length(), 1024);
    }
    c.check();
    Instant lower = r.timeRangeLowerBound();
    Instant upper = r.timeRangeUpperBound();
    if (lower != null && upper != null && !lower.isBefore(upper)) {
      throw DynamoDbException.validation("TimeRangeLowerBound (" + lower + ") must be before"
          + " TimeRangeUpperBound (" + upper + "): the lower bound is inclusive and the upper"
          + " bound exclusive.");
    }
    String after = null;
    if (r.exclusiveStartBackupArn() != null) {
      after = BackupArns.idOf(r.exclusiveStartBackupArn());
      if (after == null) {
        throw DynamoDbException.validation("Invalid ExclusiveStartBackupArn: "
            + r.exclusiveStartBackupArn() + " is not a backup ARN; pass the"
            + " LastEvaluatedBackupArn of the previous page.");
      }
    }
    // USER (the default) lists on-demand backups, SYSTEM those of deleted tables, ALL both;
    // AWS_BACKUP none, as Stator has no AWS Backup.
    String type = r.backupType() == null ? StoredBackup.USER : r.backupType();
    boolean listed = !type.equals("AWS_BACKUP");
    Instant now = clock.instant();
    String table = r.tableName() == null ? null
        : ContributorInsightsUpdates.tableNameOf(r.tableName());
    int limit = r.limit() == null ? DEFAULT_PAGE : r.limit();
    List<BackupSummary> page = new ArrayList<>();
    boolean more = false;
    while (listed && !more) {
      List<BackupRecords.Read> chunk = records.after(after, READ_CHUNK);
      for (BackupRecords.Read read : chunk) {
        StoredBackup b = read.backup();
        if (b.listed() && (type.equals("ALL") || b.type().equals(type))
            && !b.expiredAt(now) && (table == null || b.table().name().equals(table))
            && (lower == null || !b.created().isBefore(lower))
            && (upper == null || b.created().isBefore(upper))) {
          if (page.size() == limit) {
            more = true;
            break;
          }
          page.add(descriptions.summary(b));
        }
      }
      if (chunk.size() < READ_CHUNK) {
        break;
      }
      after = chunk.get(chunk.size() - 1).backup().id();
    }
    return new ListBackupsResponse(page, more ? page.get(page.size() - 1).backupArn() : null);
  }

  public DeleteBackupResponse delete(DeleteBackupRequest r) {
    checkArn(r.backupArn());
    while (true) {
      BackupRecords.Read read = backup(r.backupArn());
      StoredBackup b = read.backup();
      if (b.status().equals(StoredBackup.CREATING) || records.restoring(b.id())) {
        throw backupInUse(r.backupArn(), b.status().equals(StoredBackup.CREATING)
            ? "it is being created" : "a table is being restored from it");
      }
      BackupDescription before = descriptions.description(b);
      try {
        records.delete(read);
      } catch (CommitConflictException changed) {
        continue; // a restore claimed it, or another delete took it: decide again
      }
      storage.dropSpace(b.space());
      return new DeleteBackupResponse(new BackupDescription(
          BackupDescriptions.details(b.with(StoredBackup.DELETED, b.sizeBytes(), b.itemCount())),
          before.sourceTableDetails(), before.sourceTableFeatureDetails()));
    }
  }

  /** The backup an ARN names; BackupNotFoundException when there is none. */
  BackupRecords.Read backup(String arn) {
    String id = BackupArns.idOf(arn);
    Optional<BackupRecords.Read> read = id == null ? Optional.empty() : records.get(id);
    if (read.isEmpty() || !read.get().backup().arn().equals(arn) || !read.get().backup().listed()
        || read.get().backup().expiredAt(clock.instant())) {
      throw new DynamoDbException(ErrorType.BackupNotFoundException, "Backup not found: " + arn);
    }
    return read.get();
  }

  static DynamoDbException backupInUse(String arn, String why) {
    return new DynamoDbException(ErrorType.BackupInUseException,
        "Backup is in use: " + arn + " (" + why + "); try again once it is done.");
  }

  private static void checkArn(String arn) {
    Constraints c = new Constraints().notNull("backupArn", arn);
    if (arn != null) {
      c.lengthAtLeast("backupArn", arn, arn.length(), 37);
      c.lengthAtMost("backupArn", arn, arn.length(), 1024);
    }
    c.check();
  }

  /** The table to back up; TableNotFoundException, as DynamoDB's backups say, when none. */
  private TableDefinition sourceTable(String name) {
    try {
      return tables.definition(name);
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        throw tableNotFound(name);
      }
      throw e;
    }
  }

  private static DynamoDbException tableNotFound(String name) {
    return new DynamoDbException(ErrorType.TableNotFoundException, "Table not found: " + name);
  }
}
