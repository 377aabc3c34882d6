package io.stator.backup;

import io.stator.api.BackupDescription;
import io.stator.api.BackupDetails;
import io.stator.api.BackupSummary;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.GlobalSecondaryIndexInfo;
import io.stator.api.LocalSecondaryIndexDescription;
import io.stator.api.LocalSecondaryIndexInfo;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.ProvisionedThroughputDescription;
import io.stator.api.SourceTableDetails;
import io.stator.api.SourceTableFeatureDetails;
import io.stator.api.TableDescription;
import io.stator.schema.TableDefinition;
import io.stator.ttl.TimeToLiveUpdates;
import java.util.ArrayList;
import java.util.List;

/**
 * A backup as DynamoDB's operations show it: BackupDetails, BackupSummary, and the
 * BackupDescription with the source table's details and features, all from the table's
 * definition kept in the backup (DescribeTable's description of it), with the size and item
 * count of the backup's copy.
 */
final class BackupDescriptions {
  private final SourceTables tables;

  BackupDescriptions(SourceTables tables) {
    this.tables = tables;
  }

  static BackupDetails details(StoredBackup b) {
    return new BackupDetails(b.arn(), b.name(), b.sizeBytes(), b.status(), b.type(),
        b.created(), b.expires());
  }

  BackupSummary summary(StoredBackup b) {
    TableDefinition t = b.table();
    return new BackupSummary(t.name(), t.tableId(), tableArn(b), b.arn(), b.name(), b.created(),
        b.expires(), b.status(), b.type(), b.sizeBytes());
  }

  BackupDescription description(StoredBackup b) {
    TableDescription d = tables.describe(b.table());
    TableDefinition t = b.table();
    ProvisionedThroughputDescription p = d.provisionedThroughput();
    SourceTableDetails source = new SourceTableDetails(
        t.name(), t.tableId(), d.tableArn(), b.sizeBytes(), d.keySchema(), t.creationDateTime(),
        new ProvisionedThroughput(p.readCapacityUnits(), p.writeCapacityUnits()),
        d.onDemandThroughput(), b.itemCount(), t.billingMode());
    List<LocalSecondaryIndexInfo> locals = null;
    if (d.localSecondaryIndexes() != null) {
      locals = new ArrayList<>();
      for (LocalSecondaryIndexDescription i : d.localSecondaryIndexes()) {
        locals.add(new LocalSecondaryIndexInfo(i.indexName(), i.keySchema(), i.projection()));
      }
    }
    List<GlobalSecondaryIndexInfo> globals = null;
    if (d.globalSecondaryIndexes() != null) {
      globals = new ArrayList<>();
      for (GlobalSecondaryIndexDescription i : d.globalSecondaryIndexes()) {
        ProvisionedThroughputDescription ip = i.provisionedThroughput();
        globals.add(new GlobalSecondaryIndexInfo(i.indexName(), i.keySchema(), i.projection(),
            new ProvisionedThroughput(ip.readCapacityUnits(), ip.writeCapacityUnits()),
            i.onDemandThroughput()));
      }
    }
    SourceTableFeatureDetails features = new SourceTableFeatureDetails(
        locals, globals, d.streamSpecification(), TimeToLiveUpdates.describe(t.timeToLive()),
        d.sseDescription());
    return new BackupDescription(details(b), source, features);
  }

  /** The ARN of the table the backup was taken of: its own ARN without the backup's part. */
  static String tableArn(StoredBackup b) {
    return b.arn().substring(0, b.arn().lastIndexOf(BackupArns.BACKUP_PART));
  }
}
