package io.stator.server;

import io.stator.api.CreateBackupRequest;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.ListBackupsRequest;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.server.access.AccessRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The permissions the on-demand backup operations need, as DynamoDB's IAM documents them:
 * {@code dynamodb:CreateBackup} on the table's ARN; DescribeBackup and DeleteBackup on the
 * backup's ARN ({@code <table ARN>/backup/<id>}); ListBackups on {@code *}; and
 * RestoreTableFromBackup on the backup's ARN, with the item actions a restore performs
 * (BatchWriteItem, DeleteItem, GetItem, PutItem, Query, Scan, UpdateItem) on the new table's
 * ARN; RestoreTableToPointInTime on the source table's ARN, with the same item actions on the
 * new table's ARN. Without them, a key whose principal may read only some tables could back up or restore
 * any other, and so read it.
 *
 * <p>Kept apart from {@code access.RequestedAccess}, which lists what every other operation
 * needs, only until that class takes them in.
 */
final class BackupAccess {
  private static final List<String> RESTORE_WRITES = List.of("dynamodb:BatchWriteItem",
      "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query",
      "dynamodb:Scan", "dynamodb:UpdateItem");

  private final String tableArnPrefix;

  BackupAccess(String region, String account) {
    this.tableArnPrefix = "arn:aws:dynamodb:" + region + ":" + account + ":table/";
  }

  /** What {@code request} needs; nothing for a request of another operation. */
  List<AccessRequest> of(Object request) {
    List<AccessRequest> out = new ArrayList<>();
    if (request instanceof CreateBackupRequest r && r.tableName() != null) {
      out.add(new AccessRequest("dynamodb:CreateBackup", table(r.tableName())));
    } else if (request instanceof DescribeBackupRequest r && r.backupArn() != null) {
      out.add(new AccessRequest("dynamodb:DescribeBackup", r.backupArn()));
    } else if (request instanceof DeleteBackupRequest r && r.backupArn() != null) {
      out.add(new AccessRequest("dynamodb:DeleteBackup", r.backupArn()));
    } else if (request instanceof ListBackupsRequest) {
      out.add(new AccessRequest("dynamodb:ListBackups", "*"));
    } else if (request instanceof RestoreTableFromBackupRequest r && r.backupArn() != null
        && r.targetTableName() != null) {
      out.add(new AccessRequest("dynamodb:RestoreTableFromBackup", r.backupArn()));
      for (String action : RESTORE_WRITES) {
        out.add(new AccessRequest(action, table(r.targetTableName())));
      }
    } else if (request instanceof RestoreTableToPointInTimeRequest r
        && (r.sourceTableArn() != null || r.sourceTableName() != null)
        && r.targetTableName() != null) {
      out.add(new AccessRequest("dynamodb:RestoreTableToPointInTime",
          table(r.sourceTableArn() != null ? r.sourceTableArn() : r.sourceTableName())));
      for (String action : RESTORE_WRITES) {
        out.add(new AccessRequest(action, table(r.targetTableName())));
      }
    }
    return out;
  }

  private String table(String nameOrArn) {
    return nameOrArn.startsWith("arn:") ? nameOrArn : tableArnPrefix + nameOrArn;
  }
}
