package io.stator.engine;

import io.stator.api.ContinuousBackupsDescription;
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
import java.util.function.Supplier;

/**
 * DescribeContinuousBackups and UpdateContinuousBackups: the point-in-time recovery flag.
 *
 * <p>DynamoDB enables continuous backups on every table at creation, so ContinuousBackupsStatus
 * is always ENABLED; point-in-time recovery is off until UpdateContinuousBackups turns it on,
 * with a recovery period of 1 to 35 days (35 when not given). Stator records the flag and
 * reports the restorable window DynamoDB would (from when recovery was enabled, or the start of
 * the period, to five minutes ago), so tools that check or set it work; it keeps no history of
 * changes, and RestoreTableToPointInTime is not served (on-demand backups are {@code
 * io.stator.backup}'s).
 */
final class ContinuousBackups {
  static final int DEFAULT_RECOVERY_PERIOD_DAYS = 35;

  /** DynamoDB's latest restorable time is typically five minutes before now. */
  private static final Duration RESTORE_LAG = Duration.ofMinutes(5);

  private final Tables tables;
  private final Clock clock;

  ContinuousBackups(Tables tables, Clock clock) {
    this.tables = tables;
    this.clock = clock;
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
    Instant now = clock.instant();
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
        next = new PointInTimeRecovery(true, days, current.enabled() ? current.enabledAt() : now);
      }
      return t.withSettings(t.settings().withPointInTimeRecovery(next));
    }));
    return new UpdateContinuousBackupsResponse(description(changed));
  }

  private ContinuousBackupsDescription description(TableDefinition table) {
    PointInTimeRecovery pitr = table.settings().pointInTimeRecovery();
    if (!pitr.enabled()) {
      return new ContinuousBackupsDescription(
          "ENABLED", new PointInTimeRecoveryDescription("DISABLED", null, null, null));
    }
    Instant now = clock.instant();
    Instant periodStart = now.minus(Duration.ofDays(pitr.recoveryPeriodInDays()));
    Instant earliest = pitr.enabledAt().isAfter(periodStart) ? pitr.enabledAt() : periodStart;
    Instant latest = now.minus(RESTORE_LAG);
    if (latest.isBefore(earliest)) {
      latest = earliest;
    }
    return new ContinuousBackupsDescription(
        "ENABLED",
        new PointInTimeRecoveryDescription(
            "ENABLED", pitr.recoveryPeriodInDays(), earliest, latest));
  }

  /** DynamoDB's backup operations answer TableNotFoundException for a missing table. */
  private static TableDefinition table(String name, Supplier<TableDefinition> s) {
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
