package io.stator.backup;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.RestoreTableToPointInTimeResponse;
import io.stator.api.TableDescription;
import io.stator.capacity.ContributorInsightsUpdates;
import io.stator.item.ItemCodec;
import io.stator.lease.JobLeases;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.schema.TableSettings.PointInTimeRecovery;
import io.stator.storage.Commit;
import io.stator.storage.ScanPage;
import io.stator.storage.SpaceStats;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * RestoreTableToPointInTime: a new table holding the source table's items as of a time inside its
 * recovery window.
 *
 * <p>The request first writes the source's items as of that time into a copy of the backup kind
 * (type {@code POINT_IN_TIME}, which no backup operation shows): it reads the live table page by
 * page and takes each item from {@link ChangeHistory#asOf} where the history has records of it,
 * else as it is; then it takes every item the history has records of that the live table no
 * longer holds. Both reads may run while writes go on: a change the live read saw had committed
 * its history record before, so the history read after it finds the record and the item is taken
 * from the history. The copy done, the restore goes on as a restore of a backup ({@link
 * Restores}): the table made by CreateTable with the source's settings and the overrides, the
 * items written through the engine's write path, the restore taken up again after a restart.
 * The copy is dropped once its restore is done.
 *
 * <p>Why a copy rather than writing the new table from the history directly: the restore then
 * reads one fixed set of items, whatever happens to the source meanwhile (its window moving on,
 * the table deleted, recovery disabled), and a restore cut short by a stop starts again from the
 * same items. It costs one more write of each item; the copy is made while the request waits, as
 * CreateBackup's is.
 */
final class PointInTimeRestores {
  private static final int PAGE = 100;

  private final Storage storage;
  private final SourceTables tables;
  private final BackupRecords records;
  private final Restores restores;
  private final Clock clock;
  private final JobLeases held;

  /**
   * @param held the leases of the copies being made ({@code backup/<id>}), held until their
   *     restore has claimed them: unclaimed, a copy is one another server's start would forget
   */
  PointInTimeRestores(Storage storage, SourceTables tables, BackupRecords records,
      Restores restores, Clock clock, JobLeases held) {
    this.storage = storage;
    this.tables = tables;
    this.records = records;
    this.restores = restores;
    this.clock = clock;
    this.held = held;
  }

  RestoreTableToPointInTimeResponse restore(RestoreTableToPointInTimeRequest r) {
    Constraints c = new Constraints();
    c.notNull("targetTableName", r.targetTableName()).name("targetTableName", r.targetTableName());
    if (r.sourceTableName() != null) {
      c.name("sourceTableName", r.sourceTableName());
    }
    c.oneOf("billingModeOverride", r.billingModeOverride(), TableDefinition.PROVISIONED,
        TableDefinition.PAY_PER_REQUEST);
    c.check();
    if ((r.sourceTableName() == null) == (r.sourceTableArn() == null)) {
      throw DynamoDbException.validation("Exactly one of SourceTableName and SourceTableArn must"
          + " be given: name the table to restore from by one of them.");
    }
    boolean latest = Boolean.TRUE.equals(r.useLatestRestorableTime());
    if (latest == (r.restoreDateTime() != null)) {
      throw DynamoDbException.validation("Exactly one of RestoreDateTime and"
          + " UseLatestRestorableTime=true must be given: the time to restore the table as of.");
    }
    String name = r.sourceTableName() != null ? r.sourceTableName()
        : ContributorInsightsUpdates.tableNameOf(r.sourceTableArn());
    TableDefinition source = source(name);
    PointInTimeRecovery pitr = source.settings().pointInTimeRecovery();
    if (!pitr.enabled()) {
      throw new DynamoDbException(ErrorType.PointInTimeRecoveryUnavailableException,
          "Point in time recovery is not enabled for table '" + name + "': enable it with"
              + " UpdateContinuousBackups; a table can be restored to times after that.");
    }
    ChangeHistory.Window window = ChangeHistory.window(pitr, clock.instant());
    Instant at = latest ? window.latest() : r.restoreDateTime();
    if (!window.contains(at)) {
      throw new DynamoDbException(ErrorType.InvalidRestoreTimeException, "RestoreDateTime " + at
          + " is outside the restorable window of table '" + name + "': between "
          + window.earliest() + " and " + window.latest() + " (DescribeContinuousBackups).");
    }
    if (exists(r.targetTableName())) {
      throw restores.taken(r.targetTableName()); // before the copy, which would be for nothing
    }
    StoredBackup copy = copy(source, at);
    try {
      TableDescription made = restores.restore(asBackupRestore(r, copy.arn()),
          () -> records.get(copy.id()).orElseThrow(), at);
      return new RestoreTableToPointInTimeResponse(made);
    } catch (RuntimeException e) {
      if (!records.restoring(copy.id())) {
        restores.forget(copy); // no restore took it
      }
      throw e;
    } finally {
      held.end(copy.id()); // the restore's own lease holds it from here on
    }
  }

  /** Writes the source's items as of {@code at} into a new point-in-time copy. */
  StoredBackup copy(TableDefinition source, Instant at) {
    return copy(source, at, "point-in-time " + at, StoredBackup.POINT_IN_TIME);
  }

  /**
   * A new copy of the source's items as of {@code at}, recorded with its name and type; its
   * lease is this engine's until the caller ends it.
   */
  StoredBackup copy(TableDefinition source, Instant at, String name, String type) {
    Instant now = clock.instant();
    String id = BackupArns.newId(now);
    String arn = BackupArns.arn(tables.describe(source).tableArn(), id);
    StoredBackup creating = new StoredBackup(id, name, StoredBackup.CREATING,
        arn, now, 0, 0, source, type);
    held.start(id, () -> records.creatingCopy(creating));
    RuntimeException failed = null;
    try {
      // A change of the catalog record first: a write staged at or before the time (so before
      // now) that has not committed yet cannot commit any more, where it could otherwise commit
      // after the copy read its items and be as of the time in the history but not in the copy.
      tables.change(source.name(), t -> t);
      writeAsOf(storage, source, at, creating.space());
      SpaceStats copied = storage.stats(creating.space());
      StoredBackup made =
          creating.with(StoredBackup.AVAILABLE, copied.bytes(), copied.records());
      if (records.made(made)) {
        return made;
      }
    } catch (RuntimeException e) {
      failed = e;
    }
    try {
      if (restores.forget(creating) && failed != null) {
        throw failed;
      }
      // forgotten by another server while this one, paused past its lease, wrote it
      throw OnDemandBackups.givenUp(creating, failed);
    } finally {
      held.end(id);
    }
  }

  /**
   * Writes {@code source}'s items as of {@code at} into {@code target}, which this creates: the
   * live table page by page, each item taken from its history where it has records, then every
   * item the history has records of (see the class comment). The history must hold a record of
   * every change committed after {@code at}, and of every change at or before it that had not
   * committed when the history began.
   */
  static void writeAsOf(Storage storage, TableDefinition source, Instant at, String target) {
    storage.createSpace(target);
    for (StorageKey after = null; ; ) {
      ScanPage page = storage.scanPage(source.space(), null, null, after, PAGE);
      Commit commit = new Commit();
      for (StoredRecord live : page.records()) {
        Optional<ChangeHistory.AsOf> then =
            ChangeHistory.asOf(storage, source, live.key(), at);
        if (then.isEmpty()) {
          commit.put(target, live.key(), live.value());
        } else if (then.get().item() != null) {
          commit.put(target, live.key(), ItemCodec.encode(then.get().item()));
        }
      }
      if (!commit.writes().isEmpty()) {
        storage.commit(commit);
      }
      if (!page.more()) {
        break;
      }
      after = page.records().get(page.records().size() - 1).key();
    }
    // The items the history knows of, the live read's ones included (a change may have come
    // after the live read passed them); each as of the time, or none. A page of them a commit:
    // on a networked storage a commit is a round trip.
    List<Commit> pending = new ArrayList<>(List.of(new Commit()));
    ChangeHistory.changedItems(storage, source, key -> {
      Optional<ChangeHistory.AsOf> then = ChangeHistory.asOf(storage, source, key, at);
      Commit commit = pending.get(0);
      if (then.isPresent() && then.get().item() != null) {
        commit.put(target, key, ItemCodec.encode(then.get().item()));
      } else {
        commit.delete(target, key);
      }
      if (commit.writes().size() == PAGE) {
        storage.commit(commit);
        pending.set(0, new Commit());
      }
    });
    if (!pending.get(0).writes().isEmpty()) {
      storage.commit(pending.get(0));
    }
  }

  private static RestoreTableFromBackupRequest asBackupRestore(
      RestoreTableToPointInTimeRequest r, String copyArn) {
    return new RestoreTableFromBackupRequest(r.targetTableName(), copyArn,
        r.billingModeOverride(), r.globalSecondaryIndexOverride(),
        r.localSecondaryIndexOverride(), r.provisionedThroughputOverride(),
        r.onDemandThroughputOverride(), r.sseSpecificationOverride());
  }

  private boolean exists(String table) {
    try {
      tables.definition(table);
      return true;
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        return false;
      }
      throw e;
    }
  }

  /** The table to restore from; TableNotFoundException, as DynamoDB's restores say, when none. */
  private TableDefinition source(String name) {
    try {
      return tables.definition(name);
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        throw new DynamoDbException(ErrorType.TableNotFoundException,
            "Table not found: " + name);
      }
      throw e;
    }
  }
}
