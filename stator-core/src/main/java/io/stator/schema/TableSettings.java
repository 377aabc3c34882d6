package io.stator.schema;

import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The settings of a table that change nothing about its items, only what DescribeTable and the
 * small table-level operations report: deletion protection, table class, server-side
 * encryption, the point-in-time recovery flag and the tags. Immutable.
 *
 * @param deletionProtectionEnabled DeleteTable refuses the table while true
 * @param tableClass STANDARD or STANDARD_INFREQUENT_ACCESS as last given, or null when never
 *     given (DynamoDB then shows no TableClassSummary)
 * @param tableClassUpdated when UpdateTable last changed the class, or null
 * @param kmsMasterKeyId null for DynamoDB's default encryption (an AWS owned key, which
 *     DescribeTable does not show); {@link #DEFAULT_KMS_KEY} for the AWS managed key; otherwise
 *     the key id, ARN, alias or alias ARN the user gave
 * @param pointInTimeRecovery the point-in-time recovery flag ({@link PointInTimeRecovery#OFF}
 *     when never enabled)
 * @param tags the tags, by key in key order
 * @param restored for a table restored from a backup, where from and whether it goes on; else
 *     null
 * @param backupHistorySince while a backup of the table is being copied on a storage that does
 *     not copy a space at one instant, when the backup had its writes start keeping the change
 *     history (recovery enabled or not), from which the copy takes the items as of its instant
 *     (see {@code backup.OnDemandBackups}); else null
 */
public record TableSettings(
    boolean deletionProtectionEnabled,
    String tableClass,
    Instant tableClassUpdated,
    String kmsMasterKeyId,
    PointInTimeRecovery pointInTimeRecovery,
    SortedMap<String, String> tags,
    Restored restored,
    Instant backupHistorySince) {

  /** A table's settings when CreateTable gave none. */
  public static final TableSettings DEFAULT =
      new TableSettings(false, null, null, null, PointInTimeRecovery.OFF, null);

  /** Server-side encryption with DynamoDB's AWS managed key ({@code alias/aws/dynamodb}). */
  public static final String DEFAULT_KMS_KEY = "";

  public TableSettings {
    if (pointInTimeRecovery == null) {
      pointInTimeRecovery = PointInTimeRecovery.OFF;
    }
    tags = tags == null
        ? Collections.emptySortedMap()
        : Collections.unmodifiableSortedMap(new TreeMap<>(tags));
  }

  /** Settings of a table not restored from a backup. */
  public TableSettings(
      boolean deletionProtectionEnabled,
      String tableClass,
      Instant tableClassUpdated,
      String kmsMasterKeyId,
      PointInTimeRecovery pointInTimeRecovery,
      SortedMap<String, String> tags) {
    this(deletionProtectionEnabled, tableClass, tableClassUpdated, kmsMasterKeyId,
        pointInTimeRecovery, tags, null, null);
  }

  /**
   * True when every change of an item commits a record of it into the table's change history:
   * while point-in-time recovery is enabled, and while a backup is being copied from it.
   */
  public boolean keepsHistory() {
    return pointInTimeRecovery.enabled() || backupHistorySince != null;
  }

  public TableSettings withBackupHistorySince(Instant since) {
    return new TableSettings(deletionProtectionEnabled, tableClass, tableClassUpdated,
        kmsMasterKeyId, pointInTimeRecovery, tags, restored, since);
  }

  /**
   * Where a restored table's items came from: the backup's ARN, its table's ARN, when the restore
   * began, and whether it is still writing them (DescribeTable's RestoreSummary).
   */
  public record Restored(
      String sourceBackupArn, String sourceTableArn, Instant at, boolean inProgress) {
    public Restored done() {
      return new Restored(sourceBackupArn, sourceTableArn, at, false);
    }
  }

  public TableSettings withRestored(Restored setting) {
    return new TableSettings(deletionProtectionEnabled, tableClass, tableClassUpdated,
        kmsMasterKeyId, pointInTimeRecovery, tags, setting, backupHistorySince);
  }

  /**
   * The point-in-time recovery flag: while it is on, every change of an item commits a record of
   * it into the table's change history, from which a table is restored to a point in time (see
   * {@code backup.ChangeHistory}).
   *
   * @param recoveryPeriodInDays 1 to 35 while enabled, else null
   * @param enabledAt when it was last enabled (the earliest restorable time), or null
   */
  public record PointInTimeRecovery(
      boolean enabled, Integer recoveryPeriodInDays, Instant enabledAt) {
    public static final PointInTimeRecovery OFF = new PointInTimeRecovery(false, null, null);
  }

  public TableSettings withDeletionProtection(boolean enabled) {
    return new TableSettings(
        enabled, tableClass, tableClassUpdated, kmsMasterKeyId, pointInTimeRecovery, tags,
        restored, backupHistorySince);
  }

  public TableSettings withTableClass(String newClass, Instant updated) {
    return new TableSettings(
        deletionProtectionEnabled, newClass, updated, kmsMasterKeyId, pointInTimeRecovery, tags,
        restored, backupHistorySince);
  }

  public TableSettings withKmsMasterKeyId(String keyId) {
    return new TableSettings(
        deletionProtectionEnabled, tableClass, tableClassUpdated, keyId, pointInTimeRecovery,
        tags, restored, backupHistorySince);
  }

  public TableSettings withPointInTimeRecovery(PointInTimeRecovery setting) {
    return new TableSettings(
        deletionProtectionEnabled, tableClass, tableClassUpdated, kmsMasterKeyId, setting, tags,
        restored, backupHistorySince);
  }

  public TableSettings withTags(Map<String, String> newTags) {
    return new TableSettings(
        deletionProtectionEnabled, tableClass, tableClassUpdated, kmsMasterKeyId,
        pointInTimeRecovery, new TreeMap<>(newTags), restored, backupHistorySince);
  }

  // ---- catalog encoding ---------------------------------------------------------------------

  /**
   * The settings as the catalog's map field {@code settings}, with only the members that differ
   * from {@link #DEFAULT}: {@code protected}, {@code class}, {@code classUpdated}, {@code kms},
   * {@code pitr} (a map: {@code enabled}, {@code days}, {@code since}), {@code tags} (a map of
   * strings), {@code restored} (a map: {@code backup}, {@code table}, {@code at}, {@code
   * inProgress}) and {@code backupHistory} (milliseconds). Records of tables that never changed a
   * setting, and records written before the field existed, have no {@code settings} and read as
   * {@link #DEFAULT}.
   */
  AttributeValue encode() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    if (deletionProtectionEnabled) {
      m.put("protected", AttributeValue.bool(true));
    }
    if (tableClass != null) {
      m.put("class", new AttributeValue.S(tableClass));
    }
    if (tableClassUpdated != null) {
      m.put("classUpdated", millis(tableClassUpdated));
    }
    if (kmsMasterKeyId != null) {
      m.put("kms", new AttributeValue.S(kmsMasterKeyId));
    }
    if (!pointInTimeRecovery.equals(PointInTimeRecovery.OFF)) {
      Map<String, AttributeValue> p = new LinkedHashMap<>();
      p.put("enabled", AttributeValue.bool(pointInTimeRecovery.enabled()));
      if (pointInTimeRecovery.recoveryPeriodInDays() != null) {
        p.put("days", new AttributeValue.N(pointInTimeRecovery.recoveryPeriodInDays().toString()));
      }
      if (pointInTimeRecovery.enabledAt() != null) {
        p.put("since", millis(pointInTimeRecovery.enabledAt()));
      }
      m.put("pitr", new AttributeValue.M(p));
    }
    if (!tags.isEmpty()) {
      Map<String, AttributeValue> t = new LinkedHashMap<>();
      tags.forEach((k, v) -> t.put(k, new AttributeValue.S(v)));
      m.put("tags", new AttributeValue.M(t));
    }
    if (restored != null) {
      Map<String, AttributeValue> r = new LinkedHashMap<>();
      if (restored.sourceBackupArn() != null) { // none for a point-in-time restore
        r.put("backup", new AttributeValue.S(restored.sourceBackupArn()));
      }
      r.put("table", new AttributeValue.S(restored.sourceTableArn()));
      r.put("at", millis(restored.at()));
      r.put("inProgress", AttributeValue.bool(restored.inProgress()));
      m.put("restored", new AttributeValue.M(r));
    }
    if (backupHistorySince != null) {
      m.put("backupHistory", millis(backupHistorySince));
    }
    return new AttributeValue.M(m);
  }

  /** True when {@link #encode()} has nothing to write. */
  boolean isDefault() {
    return equals(DEFAULT);
  }

  static TableSettings decode(AttributeValue v) {
    if (v == null) {
      return DEFAULT;
    }
    Map<String, AttributeValue> m = ((AttributeValue.M) v).value();
    PointInTimeRecovery pitr = PointInTimeRecovery.OFF;
    if (m.get("pitr") instanceof AttributeValue.M p) {
      Map<String, AttributeValue> f = p.value();
      pitr = new PointInTimeRecovery(
          ((AttributeValue.Bool) f.get("enabled")).value(),
          f.get("days") == null ? null : Integer.valueOf(text(f.get("days"))),
          instant(f.get("since")));
    }
    SortedMap<String, String> tags = new TreeMap<>();
    if (m.get("tags") instanceof AttributeValue.M t) {
      t.value().forEach((k, value) -> tags.put(k, text(value)));
    }
    Restored restored = null;
    if (m.get("restored") instanceof AttributeValue.M r) {
      Map<String, AttributeValue> f = r.value();
      restored = new Restored(f.get("backup") == null ? null : text(f.get("backup")), text(f.get("table")), instant(f.get("at")),
          ((AttributeValue.Bool) f.get("inProgress")).value());
    }
    return new TableSettings(
        m.get("protected") instanceof AttributeValue.Bool b && b.value(),
        m.get("class") == null ? null : text(m.get("class")),
        instant(m.get("classUpdated")),
        m.get("kms") == null ? null : text(m.get("kms")),
        pitr,
        tags,
        restored,
        instant(m.get("backupHistory")));
  }

  private static AttributeValue millis(Instant i) {
    return new AttributeValue.N(Long.toString(i.toEpochMilli()));
  }

  private static Instant instant(AttributeValue v) {
    return v == null ? null : Instant.ofEpochMilli(Long.parseLong(text(v)));
  }

  private static String text(AttributeValue v) {
    return v instanceof AttributeValue.S s ? s.value() : ((AttributeValue.N) v).value();
  }
}
