package io.stator.engine;

import io.stator.api.ContinuousBackupsDescription;
import io.stator.backup.ChangeHistory;
import io.stator.storage.Storage;
import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DescribeContinuousBackupsResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.PointInTimeRecoveryDescription;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.api.UpdateContinuousBackupsResponse;
import io.stator.capacity.ContributorInsightsUpdates;
import io.stator.schema.Constraints;
import io.stator.schema.TableDefinition;
import io.stator.schema.TableSettings.PointInTimeRecovery;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * DescribeContinuousBackups and UpdateContinuousBackups: point-in-time recovery's window, and
 * the change history kept for it ({@link ChangeHistory}).
 *
 * <p>DynamoDB enables continuous backups on every table at creation, so ContinuousBackupsStatus
 * is always ENABLED; point-in-time recovery is off until UpdateContinuousBackups turns it on,
 * with a recovery period of 1 to 35 days (35 when not given). Enabling it creates the table's
 * history space, then records the flag in the catalog: every write committed after that
 * carries a history record (the write hook adds an expectation on the catalog record, so a
 * write computed against the definition without the flag cannot commit after it). The time
 * recovery counts from ({@code enabledAt}, the earliest restorable time until the window moves
 * past it) is taken after that catalog commit, in a second one, so that no change before it
 * lacks its record. Disabling records the flag off, then drops the history.
 *
 * <p>The window is {@link ChangeHistory#window}'s; {@link #trim} deletes the records older than
 * it.
 */
final class ContinuousBackups implements AutoCloseable {
  static final int DEFAULT_RECOVERY_PERIOD_DAYS = 35;
  /** How often the history is trimmed: records outlive the window by up to this much. */
  private static final Duration TRIM_INTERVAL = Duration.ofHours(1);

  private final Tables tables;
  private final Storage storage;
  private final Clock clock;

  ContinuousBackups(Tables tables, Storage storage, Clock clock) {
    this.tables = tables;
    this.storage = storage;
    this.clock = clock;
    trimmer.scheduleWithFixedDelay(this::trimQuietly, TRIM_INTERVAL.toMinutes(),
        TRIM_INTERVAL.toMinutes(), TimeUnit.MINUTES);
  }

  private final ScheduledExecutorService trimmer =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stator-history-trim");
        t.setDaemon(true);
        return t;
      });

  private void trimQuietly() {
    try {
      trim();
    } catch (RuntimeException e) {
      // The next round trims what this one left; a record kept longer costs only its space.
      System.err.println("stator: trimming the point-in-time recovery history failed: " + e);
    }
  }

  @Override
  public void close() {
    trimmer.shutdownNow();
  }

  DescribeContinuousBackupsResponse describe(DescribeContinuousBackupsRequest r) {
    ContributorInsightsUpdates.checkTableArn(r.tableName()).check();
    String name = ContributorInsightsUpdates.tableNameOf(r.tableName());
    TableDefinition table = table(name, () -> tables.definition(name));
    return new DescribeContinuousBackupsResponse(description(table));
  }

  UpdateContinuousBackupsResponse update(UpdateContinuousBackupsRequest r) {
    Constraints c = ContributorInsightsUpdates.checkTableArn(r.tableName());
    PointInTimeRecoverySpecification spec = r.pointInTimeRecoverySpecification();
    c.notNull("pointInTimeRecoverySpecification", spec);
    if (spec != null) {
      String path = "pointInTimeRecoverySpecification";
      c.notNull(path + ".pointInTimeRecoveryEnabled", spec.pointInTimeRecoveryEnabled());
      c.atLeast(path + ".recoveryPeriodInDays", spec.recoveryPeriodInDays(), 1);
      c.atMost(path + ".recoveryPeriodInDays", spec.recoveryPeriodInDays(),
          DEFAULT_RECOVERY_PERIOD_DAYS);
    }
    c.check();
    String name = ContributorInsightsUpdates.tableNameOf(r.tableName());
    TableDefinition before = table(name, () -> tables.definition(name));
    if (spec.pointInTimeRecoveryEnabled()) {
      storage.createSpace(before.history()); // before any write may commit a record into it
    }
    TableDefinition changed = table(name, () -> tables.change(name, t -> {
      PointInTimeRecovery current = t.settings().pointInTimeRecovery();
      PointInTimeRecovery next;
      if (!spec.pointInTimeRecoveryEnabled()) {
        next = PointInTimeRecovery.OFF;
      } else {
        Integer days = spec.recoveryPeriodInDays() != null ? spec.recoveryPeriodInDays()
            : current.enabled() ? current.recoveryPeriodInDays()
            : Integer.valueOf(DEFAULT_RECOVERY_PERIOD_DAYS);
        // Enabling again keeps the window that recovery already covers.
        next = new PointInTimeRecovery(true, days,
            current.enabled() ? current.enabledAt() : clock.instant());
      }
      return t.withSettings(t.settings().withPointInTimeRecovery(next));
    }));
    if (!spec.pointInTimeRecoveryEnabled() && !changed.settings().keepsHistory()) {
      // No write commits into it any more; while a backup copies from it, the backup empties it.
      storage.dropSpace(changed.history());
    } else if (!before.settings().pointInTimeRecovery().enabled()) {
      Instant since = clock.instant(); // every change committed from now on has its record
      changed = table(name, () -> tables.change(name, t -> {
        PointInTimeRecovery p = t.settings().pointInTimeRecovery();
        return !p.enabled() ? t : t.withSettings(t.settings().withPointInTimeRecovery(
            new PointInTimeRecovery(true, p.recoveryPeriodInDays(), since)));
      }));
    }
    return new UpdateContinuousBackupsResponse(description(changed));
  }

  private ChangeHistory.Window window(PointInTimeRecovery pitr) {
    return ChangeHistory.window(pitr, clock.instant());
  }

  /**
   * Deletes, for each table with recovery enabled, the history records older than its window
   * (a background job's work; see {@link ChangeHistory#trim}). Returns how many it deleted.
   */
  long trim() {
    long deleted = 0;
    for (TableDefinition t : tables.all()) {
      PointInTimeRecovery pitr = t.settings().pointInTimeRecovery();
      if (pitr.enabled()) {
        deleted += ChangeHistory.trim(storage, t, window(pitr).earliest());
      }
    }
    return deleted;
  }

  private ContinuousBackupsDescription description(TableDefinition table) {
    PointInTimeRecovery pitr = table.settings().pointInTimeRecovery();
    if (!pitr.enabled()) {
      return new ContinuousBackupsDescription(
          "ENABLED", new PointInTimeRecoveryDescription("DISABLED", null, null, null));
    }
    ChangeHistory.Window w = window(pitr);
    return new ContinuousBackupsDescription(
        "ENABLED",
        new PointInTimeRecoveryDescription(
            "ENABLED", pitr.recoveryPeriodInDays(), w.earliest(), w.latest()));
  }

  /** DynamoDB's backup operations answer TableNotFoundException for a missing table. */
  static TableDefinition table(String name, Supplier<TableDefinition> s) {
    try {
      return s.get();
    } catch (DynamoDbException e) {
      if (e.type() == ErrorType.ResourceNotFoundException) {
        throw new DynamoDbException(ErrorType.TableNotFoundException, "Table not found: " + name);
      }
      throw e;
    }
  }
}
