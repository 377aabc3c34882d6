package io.stator.server.wire;

import static io.stator.server.wire.Responses.field;
import static io.stator.server.wire.Responses.list;
import static io.stator.server.wire.Responses.number;
import static io.stator.server.wire.Responses.string;
import static io.stator.server.wire.Responses.timestamp;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.BackupDescription;
import io.stator.api.BackupDetails;
import io.stator.api.BackupSummary;
import io.stator.api.CreateBackupResponse;
import io.stator.api.DeleteBackupResponse;
import io.stator.api.DescribeBackupResponse;
import io.stator.api.GlobalSecondaryIndexInfo;
import io.stator.api.ListBackupsResponse;
import io.stator.api.LocalSecondaryIndexInfo;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.RestoreTableFromBackupResponse;
import io.stator.api.RestoreTableToPointInTimeResponse;
import io.stator.api.SourceTableDetails;
import io.stator.api.SourceTableFeatureDetails;
import java.io.IOException;

/** Writers of the on-demand backup operations' responses. */
final class BackupResponses {
  private BackupResponses() {}

  static void createBackup(JsonGenerator out, CreateBackupResponse r) throws IOException {
    out.writeStartObject();
    field(out, "BackupDetails", r.backupDetails(), BackupResponses::details);
    out.writeEndObject();
  }

  static void describeBackup(JsonGenerator out, DescribeBackupResponse r) throws IOException {
    out.writeStartObject();
    field(out, "BackupDescription", r.backupDescription(), BackupResponses::description);
    out.writeEndObject();
  }

  static void deleteBackup(JsonGenerator out, DeleteBackupResponse r) throws IOException {
    out.writeStartObject();
    field(out, "BackupDescription", r.backupDescription(), BackupResponses::description);
    out.writeEndObject();
  }

  static void listBackups(JsonGenerator out, ListBackupsResponse r) throws IOException {
    out.writeStartObject();
    field(out, "BackupSummaries", r.backupSummaries(), list(BackupResponses::summary));
    string(out, "LastEvaluatedBackupArn", r.lastEvaluatedBackupArn());
    out.writeEndObject();
  }

  static void restoreTableFromBackup(JsonGenerator out, RestoreTableFromBackupResponse r)
      throws IOException {
    out.writeStartObject();
    field(out, "TableDescription", r.tableDescription(), Responses::tableDescription);
    out.writeEndObject();
  }

  static void restoreTableToPointInTime(JsonGenerator out, RestoreTableToPointInTimeResponse r)
      throws IOException {
    out.writeStartObject();
    field(out, "TableDescription", r.tableDescription(), Responses::tableDescription);
    out.writeEndObject();
  }

  private static void details(JsonGenerator out, BackupDetails d) throws IOException {
    out.writeStartObject();
    string(out, "BackupArn", d.backupArn());
    string(out, "BackupName", d.backupName());
    number(out, "BackupSizeBytes", d.backupSizeBytes());
    string(out, "BackupStatus", d.backupStatus());
    string(out, "BackupType", d.backupType());
    timestamp(out, "BackupCreationDateTime", d.backupCreationDateTime());
    timestamp(out, "BackupExpiryDateTime", d.backupExpiryDateTime());
    out.writeEndObject();
  }

  private static void summary(JsonGenerator out, BackupSummary s) throws IOException {
    out.writeStartObject();
    string(out, "TableName", s.tableName());
    string(out, "TableId", s.tableId());
    string(out, "TableArn", s.tableArn());
    string(out, "BackupArn", s.backupArn());
    string(out, "BackupName", s.backupName());
    timestamp(out, "BackupCreationDateTime", s.backupCreationDateTime());
    timestamp(out, "BackupExpiryDateTime", s.backupExpiryDateTime());
    string(out, "BackupStatus", s.backupStatus());
    string(out, "BackupType", s.backupType());
    number(out, "BackupSizeBytes", s.backupSizeBytes());
    out.writeEndObject();
  }

  private static void description(JsonGenerator out, BackupDescription d) throws IOException {
    out.writeStartObject();
    field(out, "BackupDetails", d.backupDetails(), BackupResponses::details);
    field(out, "SourceTableDetails", d.sourceTableDetails(), BackupResponses::source);
    field(out, "SourceTableFeatureDetails", d.sourceTableFeatureDetails(),
        BackupResponses::features);
    out.writeEndObject();
  }

  private static void source(JsonGenerator out, SourceTableDetails s) throws IOException {
    out.writeStartObject();
    string(out, "TableName", s.tableName());
    string(out, "TableId", s.tableId());
    string(out, "TableArn", s.tableArn());
    number(out, "TableSizeBytes", s.tableSizeBytes());
    field(out, "KeySchema", s.keySchema(), list(Responses::keySchemaElement));
    timestamp(out, "TableCreationDateTime", s.tableCreationDateTime());
    field(out, "ProvisionedThroughput", s.provisionedThroughput(), BackupResponses::throughput);
    field(out, "OnDemandThroughput", s.onDemandThroughput(), Responses::onDemandThroughput);
    number(out, "ItemCount", s.itemCount());
    string(out, "BillingMode", s.billingMode());
    out.writeEndObject();
  }

  private static void features(JsonGenerator out, SourceTableFeatureDetails f)
      throws IOException {
    out.writeStartObject();
    field(out, "LocalSecondaryIndexes", f.localSecondaryIndexes(),
        list(BackupResponses::localIndex));
    field(out, "GlobalSecondaryIndexes", f.globalSecondaryIndexes(),
        list(BackupResponses::globalIndex));
    field(out, "StreamDescription", f.streamDescription(), Responses::streamSpecification);
    field(out, "TimeToLiveDescription", f.timeToLiveDescription(),
        Responses::timeToLiveDescription);
    SettingsResponses.sseDescription(out, f.sseDescription());
    out.writeEndObject();
  }

  private static void localIndex(JsonGenerator out, LocalSecondaryIndexInfo i)
      throws IOException {
    out.writeStartObject();
    string(out, "IndexName", i.indexName());
    field(out, "KeySchema", i.keySchema(), list(Responses::keySchemaElement));
    field(out, "Projection", i.projection(), Responses::projection);
    out.writeEndObject();
  }

  private static void globalIndex(JsonGenerator out, GlobalSecondaryIndexInfo i)
      throws IOException {
    out.writeStartObject();
    string(out, "IndexName", i.indexName());
    field(out, "KeySchema", i.keySchema(), list(Responses::keySchemaElement));
    field(out, "Projection", i.projection(), Responses::projection);
    field(out, "ProvisionedThroughput", i.provisionedThroughput(), BackupResponses::throughput);
    field(out, "OnDemandThroughput", i.onDemandThroughput(), Responses::onDemandThroughput);
    out.writeEndObject();
  }

  private static void throughput(JsonGenerator out, ProvisionedThroughput p) throws IOException {
    out.writeStartObject();
    number(out, "ReadCapacityUnits", p.readCapacityUnits());
    number(out, "WriteCapacityUnits", p.writeCapacityUnits());
    out.writeEndObject();
  }
}
