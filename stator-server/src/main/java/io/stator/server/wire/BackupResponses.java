package io.stator.server.wire;

import static io.stator.server.wire.Responses.list;
import static io.stator.server.wire.ShapeWriter.field;
import static io.stator.server.wire.ShapeWriter.number;
import static io.stator.server.wire.ShapeWriter.object;
import static io.stator.server.wire.ShapeWriter.string;
import static io.stator.server.wire.ShapeWriter.timestamp;

import io.stator.api.BackupDescription;
import io.stator.api.BackupDetails;
import io.stator.api.BackupSummary;
import io.stator.api.CreateBackupResponse;
import io.stator.api.DeleteBackupResponse;
import io.stator.api.DescribeBackupResponse;
import io.stator.api.GlobalSecondaryIndexInfo;
import io.stator.api.ListBackupsResponse;
import io.stator.api.LocalSecondaryIndexInfo;
import io.stator.api.RestoreTableFromBackupResponse;
import io.stator.api.RestoreTableToPointInTimeResponse;
import io.stator.api.SourceTableDetails;
import io.stator.api.SourceTableFeatureDetails;

/** Writers of the on-demand backup operations' responses. */
final class BackupResponses {
  private BackupResponses() {}

  private static final ShapeWriter<BackupDetails> DETAILS = object(
      string("BackupArn", BackupDetails::backupArn),
      string("BackupName", BackupDetails::backupName),
      number("BackupSizeBytes", BackupDetails::backupSizeBytes),
      string("BackupStatus", BackupDetails::backupStatus),
      string("BackupType", BackupDetails::backupType),
      timestamp("BackupCreationDateTime", BackupDetails::backupCreationDateTime),
      timestamp("BackupExpiryDateTime", BackupDetails::backupExpiryDateTime));

  private static final ShapeWriter<BackupSummary> SUMMARY = object(
      string("TableName", BackupSummary::tableName), string("TableId", BackupSummary::tableId),
      string("TableArn", BackupSummary::tableArn), string("BackupArn", BackupSummary::backupArn),
      string("BackupName", BackupSummary::backupName),
      timestamp("BackupCreationDateTime", BackupSummary::backupCreationDateTime),
      timestamp("BackupExpiryDateTime", BackupSummary::backupExpiryDateTime),
      string("BackupStatus", BackupSummary::backupStatus),
      string("BackupType", BackupSummary::backupType),
      number("BackupSizeBytes", BackupSummary::backupSizeBytes));

  private static final ShapeWriter<SourceTableDetails> SOURCE = object(
      string("TableName", SourceTableDetails::tableName),
      string("TableId", SourceTableDetails::tableId),
      string("TableArn", SourceTableDetails::tableArn),
      number("TableSizeBytes", SourceTableDetails::tableSizeBytes),
      field("KeySchema", SourceTableDetails::keySchema, list(TableResponses.KEY_SCHEMA_ELEMENT)),
      timestamp("TableCreationDateTime", SourceTableDetails::tableCreationDateTime),
      field("ProvisionedThroughput", SourceTableDetails::provisionedThroughput,
          TableResponses.PROVISIONED_THROUGHPUT),
      field("OnDemandThroughput", SourceTableDetails::onDemandThroughput,
          TableResponses.ON_DEMAND_THROUGHPUT),
      number("ItemCount", SourceTableDetails::itemCount),
      string("BillingMode", SourceTableDetails::billingMode));

  private static final ShapeWriter<SourceTableFeatureDetails> FEATURES = object(
      field("LocalSecondaryIndexes", SourceTableFeatureDetails::localSecondaryIndexes,
          list(object(string("IndexName", LocalSecondaryIndexInfo::indexName),
              field("KeySchema", LocalSecondaryIndexInfo::keySchema,
                  list(TableResponses.KEY_SCHEMA_ELEMENT)),
              field("Projection", LocalSecondaryIndexInfo::projection,
                  TableResponses.PROJECTION)))),
      field("GlobalSecondaryIndexes", SourceTableFeatureDetails::globalSecondaryIndexes,
          list(object(string("IndexName", GlobalSecondaryIndexInfo::indexName),
              field("KeySchema", GlobalSecondaryIndexInfo::keySchema,
                  list(TableResponses.KEY_SCHEMA_ELEMENT)),
              field("Projection", GlobalSecondaryIndexInfo::projection,
                  TableResponses.PROJECTION),
              field("ProvisionedThroughput", GlobalSecondaryIndexInfo::provisionedThroughput,
                  TableResponses.PROVISIONED_THROUGHPUT),
              field("OnDemandThroughput", GlobalSecondaryIndexInfo::onDemandThroughput,
                  TableResponses.ON_DEMAND_THROUGHPUT)))),
      field("StreamDescription", SourceTableFeatureDetails::streamDescription,
          TableResponses.STREAM_SPECIFICATION),
      field("TimeToLiveDescription", SourceTableFeatureDetails::timeToLiveDescription,
          TableResponses.TIME_TO_LIVE_DESCRIPTION),
      (out, f) -> SettingsResponses.sseDescription(out, f.sseDescription()));

  private static final ShapeWriter<BackupDescription> DESCRIPTION = object(
      field("BackupDetails", BackupDescription::backupDetails, DETAILS),
      field("SourceTableDetails", BackupDescription::sourceTableDetails, SOURCE),
      field("SourceTableFeatureDetails", BackupDescription::sourceTableFeatureDetails, FEATURES));

  static final ShapeWriter<CreateBackupResponse> CREATE_BACKUP =
      object(field("BackupDetails", CreateBackupResponse::backupDetails, DETAILS));

  static final ShapeWriter<DescribeBackupResponse> DESCRIBE_BACKUP =
      object(field("BackupDescription", DescribeBackupResponse::backupDescription, DESCRIPTION));

  static final ShapeWriter<DeleteBackupResponse> DELETE_BACKUP =
      object(field("BackupDescription", DeleteBackupResponse::backupDescription, DESCRIPTION));

  static final ShapeWriter<ListBackupsResponse> LIST_BACKUPS = object(
      field("BackupSummaries", ListBackupsResponse::backupSummaries, list(SUMMARY)),
      string("LastEvaluatedBackupArn", ListBackupsResponse::lastEvaluatedBackupArn));

  static final ShapeWriter<RestoreTableFromBackupResponse> RESTORE_TABLE_FROM_BACKUP =
      object(field("TableDescription", RestoreTableFromBackupResponse::tableDescription,
          TableResponses.TABLE_DESCRIPTION));

  static final ShapeWriter<RestoreTableToPointInTimeResponse> RESTORE_TABLE_TO_POINT_IN_TIME =
      object(field("TableDescription", RestoreTableToPointInTimeResponse::tableDescription,
          TableResponses.TABLE_DESCRIPTION));
}
