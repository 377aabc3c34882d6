package io.stator.backup;

import io.stator.api.BackupDescription;
import io.stator.api.CreateTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableFromBackupResponse;
import io.stator.api.TableDescription;
import io.stator.item.ItemCodec;
import io.stator.lease.JobLeases;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.schema.TableSettings;
import io.stator.storage.CommitConflictException;
import io.stator.storage.ScanPage;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * RestoreTableFromBackup: a new table from a backup, as DynamoDB restores one.
 *
 * <p>The request answers at once with the new table CREATING and its RestoreSummary in
 * progress; the items are written afterwards, on a thread of the engine's, and the table turns
 * ACTIVE, its RestoreSummary done, once they all are. The table is made by the engine's own
 * CreateTable, with the backed-up table's settings and the request's overrides ({@link
 * RestoredTableRequest}), and each item is put through the engine's write path (uncharged), so
 * that the indexes asked for, LSIs and GSIs, are written by the one mechanism every write uses
 * (the item collection sizes of an LSI included), not by a second one that would have to agree
 * with it. What that costs: a restore writes each item with its index entries as a PutItem
 * does, rather than copying the backup's space whole; a bulk copy would still have to build the
 * indexes, since a restore may choose other indexes than the backed-up table had.
 *
 * <p>While it runs, the backup carries a claim (DeleteBackup of it is BackupInUseException), and
 * the restore is held by a lease of this engine ({@code restore/<backup id>/<table>}, taken
 * before the claim). A stop or a failure cuts a restore short; once its lease is free, the next
 * start or housekeeping tick of a server takes the claim up again and writes the backup's items
 * again from the first (a put of an item already written writes it once more), then turns the
 * table ACTIVE. A failure (not a stop) is counted in the claim, so a restore that fails each time
 * is not tried again at every tick for ever: at the {@value #ATTEMPTS}th it ends, its table
 * deleted as DynamoDB leaves no half-restored table, and the server says so once, with the
 * reason. A claim whose lease another engine holds is its restore, left alone. A holder
 * that paused past its lease and resumes after another server took its restore up asks its lease
 * before each item and before making the table ACTIVE ({@link JobLeases#holds}), and stops once
 * it finds the lease lost, leaving the claim, the table and the backup to that server, so a
 * client's writes to the restored table are not overwritten by a second load. Writes to
 * the table while it is CREATING are not refused, unlike DynamoDB's, and a restore's put of the
 * same key replaces them.
 */
final class Restores implements AutoCloseable {
  private static final int PAGE = 100;
  /** How many times a restore may fail before it ends, its table deleted. */
  static final int ATTEMPTS = 3;

  private final Storage storage;
  private final SourceTables tables;
  private final BackupRecords records;
  private final BackupDescriptions descriptions;
  private final Clock clock;
  private final JobLeases held;
  private final ExecutorService loaders = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "stator-restore");
    t.setDaemon(true);
    return t;
  });

  Restores(Storage storage, SourceTables tables, BackupRecords records,
      BackupDescriptions descriptions, Clock clock, JobLeases held) {
    this.storage = storage;
    this.tables = tables;
    this.records = records;
    this.descriptions = descriptions;
    this.clock = clock;
    this.held = held;
  }

  private static String job(String backupId, String target) {
    return backupId + "/" + target;
  }

  RestoreTableFromBackupResponse restore(RestoreTableFromBackupRequest r, OnDemandBackups backups) {
    return new RestoreTableFromBackupResponse(
        restore(r, () -> backups.backup(r.backupArn()), null));
  }

  /**
   * Makes the table {@code r} describes from the backup {@code backup} reads and starts writing
   * its items; {@code pointInTime} is the time a point-in-time restore restores to (its backup
   * the copy of the table as of then), null for a restore of a user's backup.
   */
  TableDescription restore(RestoreTableFromBackupRequest r, Supplier<BackupRecords.Read> backup,
      Instant pointInTime) {
    Constraints c = new Constraints();
    c.notNull("targetTableName", r.targetTableName()).name("targetTableName", r.targetTableName());
    c.notNull("backupArn", r.backupArn()); // a point-in-time restore's is its copy's
    c.oneOf("billingModeOverride", r.billingModeOverride(), TableDefinition.PROVISIONED,
        TableDefinition.PAY_PER_REQUEST);
    c.check();
    while (true) {
      BackupRecords.Read read = backup.get();
      StoredBackup b = read.backup();
      if (b.status().equals(StoredBackup.CREATING)) {
        throw OnDemandBackups.backupInUse(r.backupArn(), "it is being created");
      }
      BackupDescription d = descriptions.description(b);
      CreateTableRequest create = RestoredTableRequest.of(r, d.sourceTableDetails(),
          d.sourceTableFeatureDetails(), tables.describe(b.table()));
      String job = job(b.id(), r.targetTableName());
      try {
        if (!held.startIfFree(job, () -> records.claimForRestore(read, r.targetTableName()))) {
          // the same restore, cut short on a server whose lease has not expired yet
          throw taken(r.targetTableName());
        }
      } catch (CommitConflictException changed) {
        continue; // deleted, or claimed by another restore meanwhile: read it again
      }
      TableSettings.Restored restored = pointInTime == null
          ? new TableSettings.Restored(
              b.arn(), BackupDescriptions.tableArn(b), clock.instant(), true)
          : new TableSettings.Restored(null, BackupDescriptions.tableArn(b), pointInTime, true);
      TableDescription made;
      try {
        made = tables.create(create, t -> t.withStatus("CREATING")
            .withSettings(t.settings().withRestored(restored)));
      } catch (RuntimeException e) {
        try {
          records.releaseRestore(b.id(), r.targetTableName());
        } finally {
          held.end(job);
        }
        if (e instanceof DynamoDbException de && de.type() == ErrorType.ResourceInUseException) {
          throw taken(r.targetTableName());
        }
        throw e;
      }
      loaders.execute(() -> load(b, r.targetTableName()));
      return made;
    }
  }

  /**
   * The answer for a target name that is taken: TableInUseException while that table is being
   * made (a restore in progress), TableAlreadyExistsException otherwise, as DynamoDB tells them
   * apart.
   */
  DynamoDbException taken(String target) {
    boolean creating = false;
    try {
      creating = tables.definition(target).creating();
    } catch (DynamoDbException gone) {
      // deleted since: it was there, so it existed
    }
    if (creating) {
      return new DynamoDbException(ErrorType.TableInUseException, "Table is being created: "
          + target + "; a restore to it is in progress, so wait until it is ACTIVE, or restore"
          + " to another name.");
    }
    return new DynamoDbException(ErrorType.TableAlreadyExistsException,
        "Table already exists: " + target);
  }

  /** Writes the backup's items into the table, then turns it ACTIVE and lets the backup go. */
  private void load(StoredBackup b, String target) {
    try {
      loadItems(b, target);
    } finally {
      held.end(job(b.id(), target));
    }
  }

  private void loadItems(StoredBackup b, String target) {
    String job = job(b.id(), target);
    try {
      StorageKey after = null;
      while (true) {
        ScanPage page = storage.scanPage(b.space(), null, null, after, PAGE);
        List<StoredRecord> found = page.records();
        for (StoredRecord record : found) {
          if (!held.holds(job)) {
            return; // taken over (this server paused past its lease): the restore is another's
          }
          tables.restore(target, ItemCodec.decode(record.value()));
        }
        if (Thread.currentThread().isInterrupted()) {
          return; // the engine closes: the claim stays, and the next server to settle it goes on
        }
        if (!page.more()) {
          break;
        }
        after = found.get(found.size() - 1).key();
      }
      if (!held.holds(job)) {
        return; // taken over: the server that took it makes the table ACTIVE
      }
      tables.change(target, t -> t.withStatus("ACTIVE")
          .withSettings(t.settings().withRestored(t.settings().restored().done())));
      records.releaseRestore(b.id(), target);
      if (!b.listed()) {
        forget(b); // a point-in-time copy serves its one restore
      }
    } catch (RuntimeException e) {
      failed(b, target, e);
    }
  }

  /**
   * A restore that failed: counted in its claim, which stays, so the next settling (a start, or
   * a housekeeping tick) takes it up again, the table still CREATING; at the {@value #ATTEMPTS}th
   * failure it ends instead ({@link #end}). Nothing when the restore is no longer this server's.
   */
  private void failed(StoredBackup b, String target, RuntimeException e) {
    int failures;
    try {
      failures = held.holds(job(b.id(), target))
          ? records.restoreFailed(b.id(), target, String.valueOf(e)) : 0;
    } catch (RuntimeException uncounted) {
      // the storage fails: the restore is taken up again, this failure not counted
      e.addSuppressed(uncounted);
      failures = 0;
    }
    if (failures >= ATTEMPTS) {
      end(b, target, failures, String.valueOf(e));
      return;
    }
    System.err.println("stator: the restore of " + target + " from " + b.arn() + " stopped: "
        + e + " (failure " + failures + " of at most " + ATTEMPTS + "); it is taken up again at"
        + " the next housekeeping");
  }

  /**
   * Ends a restore that failed {@value #ATTEMPTS} times: its table, still CREATING and this
   * restore's, is deleted (DynamoDB leaves no half-restored table), then the claim released and
   * a point-in-time copy forgotten; said once on the server's error output, with the last
   * failure's reason. A stop in the middle leaves the claim, which the next settling ends.
   */
  private void end(StoredBackup b, String target, int failures, String reason) {
    tables.removeCreating(target, t -> restoring(t, b));
    records.releaseRestore(b.id(), target);
    if (!b.listed()) {
      forget(b);
    }
    System.err.println("stator: the restore of " + target + " from " + b.arn() + " failed "
        + failures + " times and ends: the table " + target + " is deleted; restore again once"
        + " the cause is mended. The last failure: " + reason);
  }

  /** Whether {@code table} is being restored from {@code b}. */
  private static boolean restoring(TableDefinition table, StoredBackup b) {
    TableSettings.Restored restored = table.settings().restored();
    return restored != null && restored.inProgress()
        && (b.listed() ? b.arn().equals(restored.sourceBackupArn())
            : restored.sourceBackupArn() == null);
  }

  /**
   * At start and from the housekeeping: each restore cut short whose lease is free goes on from
   * the first item, if its table is still there and restoring from that backup; any other claim
   * whose lease is free is let go. A claim whose lease another engine holds is left alone: its
   * restore runs there, or is about to make its table.
   */
  void resume(List<BackupRecords.Claim> claims) {
    for (BackupRecords.Claim claim : claims) {
      String job = job(claim.backupId(), claim.target());
      if (!held.resume(job)) {
        continue;
      }
      try {
        resume(claim);
      } catch (RuntimeException e) {
        held.end(job);
        throw e;
      }
    }
  }

  /** Takes up the restore of a claim whose lease this engine has just taken, or lets it go. */
  private void resume(BackupRecords.Claim claim) {
    StoredBackup b = records.get(claim.backupId()).map(BackupRecords.Read::backup).orElse(null);
    TableDefinition table = null;
    try {
      table = tables.definition(claim.target());
    } catch (DynamoDbException gone) {
      // deleted while it was restored
    }
    if (b != null && table != null && restoring(table, b)) {
      if (claim.failures() >= ATTEMPTS) {
        // failed as often as allowed, and its ending cut short
        try {
          end(b, claim.target(), claim.failures(), claim.reason());
        } finally {
          held.end(job(claim.backupId(), claim.target()));
        }
        return;
      }
      loaders.execute(() -> load(b, claim.target())); // which ends the lease
      return;
    }
    records.releaseRestore(claim.backupId(), claim.target());
    if (b != null && !b.listed()) {
      forget(b);
    }
    held.end(job(claim.backupId(), claim.target()));
  }

  /**
   * Forgets a backup, its record first (a stop between the two leaves a space start drops), and
   * its space whoever forgot the record: false when another server had forgotten it.
   */
  boolean forget(StoredBackup b) {
    boolean ours = records.abandon(b);
    storage.dropSpace(b.space());
    return ours;
  }

  /** Stops the restores in progress (they go on at the next start). */
  @Override
  public void close() {
    loaders.shutdownNow();
    try {
      loaders.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      held.close();
    }
  }
}
