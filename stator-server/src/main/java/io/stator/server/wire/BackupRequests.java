package io.stator.server.wire;

import io.stator.api.CreateBackupRequest;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.ListBackupsRequest;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.OnDemandThroughput;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.SSESpecification;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** Readers of the on-demand backup operations' requests; unknown members are skipped. */
final class BackupRequests {
  private BackupRequests() {}

  static CreateBackupRequest createBackup(JsonInput in) throws IOException {
    String table = null;
    String name = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> table = in.string();
        case "BackupName" -> name = in.string();
        default -> in.skip();
      }
    }
    return new CreateBackupRequest(table, name);
  }

  static DescribeBackupRequest describeBackup(JsonInput in) throws IOException {
    return new DescribeBackupRequest(backupArn(in));
  }

  static DeleteBackupRequest deleteBackup(JsonInput in) throws IOException {
    return new DeleteBackupRequest(backupArn(in));
  }

  private static String backupArn(JsonInput in) throws IOException {
    String arn = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      if (m.equals("BackupArn")) {
        arn = in.string();
      } else {
        in.skip();
      }
    }
    return arn;
  }

  static ListBackupsRequest listBackups(JsonInput in) throws IOException {
    String table = null;
    Integer limit = null;
    Instant lower = null;
    Instant upper = null;
    String start = null;
    String type = null;
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TableName" -> table = in.string();
        case "Limit" -> limit = in.integer();
        case "TimeRangeLowerBound" -> lower = in.timestamp();
        case "TimeRangeUpperBound" -> upper = in.timestamp();
        case "ExclusiveStartBackupArn" -> start = in.string();
        case "BackupType" -> type = in.string();
        default -> in.skip();
      }
    }
    return new ListBackupsRequest(table, limit, lower, upper, start, type);
  }

  /** The overrides both restores take, read member by member. */
  private static final class Overrides {
    String billing;
    List<GlobalSecondaryIndex> globals;
    List<LocalSecondaryIndex> locals;
    ProvisionedThroughput throughput;
    OnDemandThroughput onDemand;
    SSESpecification sse;

    /** Reads {@code member} if it is an override; false if it is not one. */
    boolean read(String member, JsonInput in) throws IOException {
      switch (member) {
        case "BillingModeOverride" -> billing = in.string();
        case "GlobalSecondaryIndexOverride" -> globals = in.list(Requests::gsi);
        case "LocalSecondaryIndexOverride" -> locals = in.list(Requests::lsi);
        case "ProvisionedThroughputOverride" -> throughput = Requests.provisionedThroughput(in);
        case "OnDemandThroughputOverride" -> onDemand = Requests.onDemandThroughput(in);
        case "SSESpecificationOverride" -> sse = SettingsRequests.sseSpecification(in);
        default -> {
          return false;
        }
      }
      return true;
    }
  }

  static RestoreTableFromBackupRequest restoreTableFromBackup(JsonInput in) throws IOException {
    String target = null;
    String arn = null;
    Overrides o = new Overrides();
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "TargetTableName" -> target = in.string();
        case "BackupArn" -> arn = in.string();
        default -> {
          if (!o.read(m, in)) {
            in.skip();
          }
        }
      }
    }
    return new RestoreTableFromBackupRequest(
        target, arn, o.billing, o.globals, o.locals, o.throughput, o.onDemand, o.sse);
  }

  static RestoreTableToPointInTimeRequest restoreTableToPointInTime(JsonInput in)
      throws IOException {
    String sourceArn = null;
    String sourceName = null;
    String target = null;
    Boolean latest = null;
    Instant at = null;
    Overrides o = new Overrides();
    for (String m = in.nextMember(); m != null; m = in.nextMember()) {
      switch (m) {
        case "SourceTableArn" -> sourceArn = in.string();
        case "SourceTableName" -> sourceName = in.string();
        case "TargetTableName" -> target = in.string();
        case "UseLatestRestorableTime" -> latest = in.bool();
        case "RestoreDateTime" -> at = in.timestamp();
        default -> {
          if (!o.read(m, in)) {
            in.skip();
          }
        }
      }
    }
    return new RestoreTableToPointInTimeRequest(sourceArn, sourceName, target, latest, at,
        o.billing, o.globals, o.locals, o.throughput, o.onDemand, o.sse);
  }
}
