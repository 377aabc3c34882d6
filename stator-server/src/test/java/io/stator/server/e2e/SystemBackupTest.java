package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.BackupNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BackupSummary;
import software.amazon.awssdk.services.dynamodb.model.BackupType;
import software.amazon.awssdk.services.dynamodb.model.BackupTypeFilter;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The SYSTEM backup DeleteTable leaves of a table with point-in-time recovery enabled, as
 * DynamoDB leaves it: named {@code <table>$DeletedTableBackup}, listed with BackupType SYSTEM
 * and ALL (not USER, the default), expiring 35 days after it was made, and restoring the table as
 * it was when deleted, item by item and index by index, under its own name again; none for a
 * table without recovery; kept across a restart.
 */
class SystemBackupTest extends EndToEndTest {
  private String recoveredTable(String purpose) {
    String name = uniqueTableName(purpose);
    dynamo.createTable(indexedTableRequest(name).build());
    awaitActive(name);
    dynamo.updateContinuousBackups(r -> r.tableName(name)
        .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
    return name;
  }

  private Map<Map<String, AttributeValue>, Map<String, AttributeValue>> filled(String table,
      int n) {
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> model = new HashMap<>();
    for (int i = 0; i < n; i++) {
      Map<String, AttributeValue> item = item("pk", s("p" + i % 6),
          "sk", s(String.format("%04d", i)), "l", s("l" + i % 5), "v", n("" + i));
      if (i % 3 != 0) {
        item.put("g", s("g" + i % 4));
      }
      dynamo.putItem(r -> r.tableName(table).item(item));
      model.put(Map.of("pk", item.get("pk"), "sk", item.get("sk")), item);
    }
    // One overwritten and one deleted: the backup holds the last state, not the first.
    Map<String, AttributeValue> changed = new HashMap<>(model.get(key(1)));
    changed.put("v", n("-1"));
    dynamo.putItem(r -> r.tableName(table).item(changed));
    model.put(key(1), changed);
    dynamo.deleteItem(r -> r.tableName(table).key(key(2)));
    model.remove(key(2));
    return model;
  }

  private static Map<String, AttributeValue> key(int i) {
    return Map.of("pk", s("p" + i % 6), "sk", s(String.format("%04d", i)));
  }

  private Map<Map<String, AttributeValue>, Map<String, AttributeValue>> items(String table) {
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> out = new HashMap<>();
    for (var page : dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true))) {
      page.items().forEach(i -> out.put(Map.of("pk", i.get("pk"), "sk", i.get("sk")), i));
    }
    return out;
  }

  private Set<Map<String, AttributeValue>> index(String table) {
    Set<Map<String, AttributeValue>> out = new HashSet<>();
    for (var page : dynamo.scanPaginator(r -> r.tableName(table).indexName("byG"))) {
      out.addAll(page.items());
    }
    return out;
  }

  private List<BackupSummary> listed(String table, BackupTypeFilter type) {
    return dynamo.listBackups(r -> r.tableName(table).backupType(type)).backupSummaries();
  }

  @Test
  void aDeletedTableWithRecoveryLeavesASystemBackupThatRestoresIt() {
    String table = recoveredTable("system-backup");
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> model = filled(table, 90);
    endpoint.awaitIndexes();
    Set<Map<String, AttributeValue>> indexed = index(table);
    TableDescription source = dynamo.describeTable(r -> r.tableName(table)).table();

    dynamo.deleteTable(r -> r.tableName(table));

    List<BackupSummary> system = listed(table, BackupTypeFilter.SYSTEM);
    assertThat(system).hasSize(1);
    BackupSummary b = system.get(0);
    assertThat(b.backupName()).isEqualTo(table + "$DeletedTableBackup");
    assertThat(b.backupType()).isEqualTo(BackupType.SYSTEM);
    assertThat(b.backupStatus()).isEqualTo(BackupStatus.AVAILABLE);
    assertThat(b.backupArn()).matches(java.util.regex.Pattern.quote(source.tableArn())
        + "/backup/[0-9]{14}-[0-9a-f]{8}");
    assertThat(b.tableName()).isEqualTo(table);
    assertThat(b.tableId()).isEqualTo(source.tableId());
    assertThat(b.tableArn()).isEqualTo(source.tableArn());
    assertThat(Duration.between(b.backupCreationDateTime(), b.backupExpiryDateTime()))
        .isEqualTo(Duration.ofDays(35));
    assertThat(listed(table, BackupTypeFilter.ALL)).containsExactly(b);
    assertThat(listed(table, BackupTypeFilter.USER)).isEmpty();
    assertThat(dynamo.listBackups(r -> r.tableName(table)).backupSummaries()).isEmpty();
    assertThat(listed(table, BackupTypeFilter.AWS_BACKUP)).isEmpty();
    BackupDescription described =
        dynamo.describeBackup(r -> r.backupArn(b.backupArn())).backupDescription();
    assertThat(described.backupDetails().backupType()).isEqualTo(BackupType.SYSTEM);
    assertThat(described.backupDetails().backupExpiryDateTime())
        .isEqualTo(b.backupExpiryDateTime());
    assertThat(described.sourceTableDetails().itemCount()).isEqualTo((long) model.size());

    // Restored under the deleted table's own name, as a user gets a table back.
    dynamo.restoreTableFromBackup(r -> r.targetTableName(table).backupArn(b.backupArn()));
    TableDescription restored = awaitRestored(table);
    assertThat(restored.restoreSummary().sourceBackupArn()).isEqualTo(b.backupArn());
    assertThat(items(table)).isEqualTo(model);
    endpoint.awaitIndexes();
    assertThat(index(table)).isEqualTo(indexed);
    assertThat(restored.localSecondaryIndexes()).hasSize(1);

    BackupDescription deleted =
        dynamo.deleteBackup(r -> r.backupArn(b.backupArn())).backupDescription();
    assertThat(deleted.backupDetails().backupStatus()).isEqualTo(BackupStatus.DELETED);
    assertError(BackupNotFoundException.class, "BackupNotFoundException",
        "Backup not found: " + b.backupArn(),
        () -> dynamo.describeBackup(r -> r.backupArn(b.backupArn())));
  }

  @Test
  void aTableWithoutRecoveryLeavesNone() {
    String table = uniqueTableName("no-system-backup");
    dynamo.createTable(indexedTableRequest(table).build());
    awaitActive(table);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), "sk", s("b"))));
    dynamo.deleteTable(r -> r.tableName(table));
    assertThat(listed(table, BackupTypeFilter.ALL)).isEmpty();
  }

  @Test
  void aSystemBackupSurvivesARestart() {
    assumeTrue(target.isDurable(), "a restart needs durable storage");
    String table = recoveredTable("system-backup-restart");
    Map<Map<String, AttributeValue>, Map<String, AttributeValue>> model = filled(table, 30);
    dynamo.deleteTable(r -> r.tableName(table));
    BackupSummary made = listed(table, BackupTypeFilter.SYSTEM).get(0);
    endpoint.restart();
    dynamo = endpoint.client();
    assertThat(listed(table, BackupTypeFilter.SYSTEM)).containsExactly(made);
    String target = uniqueTableName("system-backup-restored");
    dynamo.restoreTableFromBackup(r -> r.targetTableName(target).backupArn(made.backupArn()));
    awaitRestored(target);
    assertThat(items(target)).isEqualTo(model);
  }
}
