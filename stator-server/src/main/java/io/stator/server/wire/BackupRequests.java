package io.stator.server.wire;

import static io.stator.server.wire.ShapeReader.member;
import static io.stator.server.wire.ShapeReader.request;

import io.stator.api.CreateBackupRequest;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.ListBackupsRequest;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.server.wire.ShapeReader.Member;
import java.util.Arrays;

/** Readers of the on-demand backup operations' requests; unknown members are skipped. */
final class BackupRequests {
  private BackupRequests() {}

  private static final Member BACKUP_ARN = member("BackupArn", JsonInput::string);
  private static final Member TARGET_TABLE_NAME = member("TargetTableName", JsonInput::string);

  /** The overrides both restores take, last in both records. */
  private static final Member[] OVERRIDES = {
    member("BillingModeOverride", JsonInput::string),
    member("GlobalSecondaryIndexOverride", in -> in.list(Requests.GSI)),
    member("LocalSecondaryIndexOverride", in -> in.list(Requests.LSI)),
    member("ProvisionedThroughputOverride", Requests.PROVISIONED_THROUGHPUT),
    member("OnDemandThroughputOverride", Requests.ON_DEMAND_THROUGHPUT),
    member("SSESpecificationOverride", Requests.SSE_SPECIFICATION)
  };

  static final ShapeReader<CreateBackupRequest> CREATE_BACKUP = request(
      v -> new CreateBackupRequest(v.next(), v.next()),
      Requests.TABLE_NAME, member("BackupName", JsonInput::string));

  static final ShapeReader<DescribeBackupRequest> DESCRIBE_BACKUP =
      request(v -> new DescribeBackupRequest(v.next()), BACKUP_ARN);

  static final ShapeReader<DeleteBackupRequest> DELETE_BACKUP =
      request(v -> new DeleteBackupRequest(v.next()), BACKUP_ARN);

  static final ShapeReader<ListBackupsRequest> LIST_BACKUPS = request(
      v -> new ListBackupsRequest(v.next(), v.next(), v.next(), v.next(), v.next(), v.next()),
      Requests.TABLE_NAME, member("Limit", JsonInput::integer),
      member("TimeRangeLowerBound", JsonInput::timestamp),
      member("TimeRangeUpperBound", JsonInput::timestamp),
      member("ExclusiveStartBackupArn", JsonInput::string),
      member("BackupType", JsonInput::string));

  static final ShapeReader<RestoreTableFromBackupRequest> RESTORE_TABLE_FROM_BACKUP = request(
      v -> new RestoreTableFromBackupRequest(
          v.next(), v.next(), v.next(), v.next(), v.next(), v.next(), v.next(), v.next()),
      withOverrides(TARGET_TABLE_NAME, BACKUP_ARN));

  static final ShapeReader<RestoreTableToPointInTimeRequest> RESTORE_TABLE_TO_POINT_IN_TIME =
      request(v -> new RestoreTableToPointInTimeRequest(v.next(), v.next(), v.next(), v.next(),
              v.next(), v.next(), v.next(), v.next(), v.next(), v.next(), v.next()),
          withOverrides(member("SourceTableArn", JsonInput::string),
              member("SourceTableName", JsonInput::string), TARGET_TABLE_NAME,
              member("UseLatestRestorableTime", JsonInput::bool),
              member("RestoreDateTime", JsonInput::timestamp)));

  private static Member[] withOverrides(Member... own) {
    Member[] members = Arrays.copyOf(own, own.length + OVERRIDES.length);
    System.arraycopy(OVERRIDES, 0, members, own.length, OVERRIDES.length);
    return members;
  }
}
