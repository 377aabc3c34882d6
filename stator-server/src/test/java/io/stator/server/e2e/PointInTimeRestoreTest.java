package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.InvalidRestoreTimeException;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryUnavailableException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableAlreadyExistsException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * RestoreTableToPointInTime through the AWS SDK: writes, then a time T, then more writes and
 * deletes; the table restored to T is the source as it was at T, item by item and index by index
 * (the indexes are also checked against their table after each test); UseLatestRestorableTime;
 * the overrides; a restore after a restart; and DynamoDB's errors, creating nothing.
 */
class PointInTimeRestoreTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  /** pk, sk; LSI byL (KEYS_ONLY), GSI byG (INCLUDE v); point-in-time recovery enabled. */
  private String recoveredTable(String purpose) {
    String name = uniqueTableName(purpose);
    dynamo.createTable(indexedTableRequest(name).build());
    awaitActive(name);
    PointInTimeRecoveryDescription pitr = dynamo.updateContinuousBackups(r -> r.tableName(name)
            .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)))
        .continuousBackupsDescription().pointInTimeRecoveryDescription();
    assertThat(pitr.recoveryPeriodInDays()).isEqualTo(35);
    return name;
  }

  private static Map<String, AttributeValue> row(int i, String version) {
    Map<String, AttributeValue> item = item("pk", s("p" + i % 7), "sk", s(String.format("%04d", i)),
        "l", s("l" + i % 11), "v", s(version), "x", s("other" + i));
    if (i % 4 != 0) {
      item.put("g", s("g" + i % 5)); // every fourth item is in no GSI
    }
    return item;
  }

  private static String keyOf(Map<String, AttributeValue> item) {
    return item.get("pk").s() + "/" + item.get("sk").s();
  }

  private void put(String table, Map<String, AttributeValue> item,
      Map<String, Map<String, AttributeValue>> model) {
    dynamo.putItem(r -> r.tableName(table).item(item));
    model.put(keyOf(item), item);
  }

  private Map<String, Map<String, AttributeValue>> items(String table) {
    Map<String, Map<String, AttributeValue>> out = new TreeMap<>();
    for (var page : dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true))) {
      page.items().forEach(i -> out.put(keyOf(i), i));
    }
    return out;
  }

  private List<Map<String, AttributeValue>> queryIndex(String table, String g) {
    List<Map<String, AttributeValue>> out = new ArrayList<>();
    for (var page : dynamo.queryPaginator(r -> r.tableName(table).indexName("byG")
        .keyConditionExpression("g = :g").expressionAttributeValues(Map.of(":g", s(g))))) {
      out.addAll(page.items());
    }
    return out;
  }

  @Test
  void aRestoreIsTheTableAtThatTimeItemByItemAndIndexByIndex() {
    String source = recoveredTable("pitr-source");
    Map<String, Map<String, AttributeValue>> atT = new TreeMap<>();
    for (int i = 0; i < 80; i++) {
      put(source, row(i, "first"), atT);
    }
    for (int i = 0; i < 10; i++) {
      put(source, row(i, "second"), atT); // changed before T
    }
    dynamo.deleteItem(r -> r.tableName(source).key(item("pk", s("p" + 79 % 7), "sk", s("0079"))));
    atT.remove("p" + 79 % 7 + "/0079");
    Instant t = instantBetweenWrites();
    Map<String, Map<String, AttributeValue>> now = new TreeMap<>(atT);
    for (int i = 5; i < 30; i++) {
      put(source, row(i, "after"), now); // changed after T, some of them twice
    }
    for (int i = 30; i < 40; i++) {
      Map<String, AttributeValue> gone = row(i, "first");
      dynamo.deleteItem(r -> r.tableName(source).key(item("pk", gone.get("pk"), "sk",
          gone.get("sk"))));
      now.remove(keyOf(gone));
    }
    for (int i = 100; i < 110; i++) {
      put(source, row(i, "new"), now); // made after T
    }
    put(source, row(79, "back"), now); // deleted before T, back after it
    assertThat(items(source)).isEqualTo(now);

    String target = uniqueTableName("pitr-at-t");
    TableDescription answered = dynamo.restoreTableToPointInTime(r -> r
        .sourceTableName(source).targetTableName(target).restoreDateTime(t)).tableDescription();
    assertThat(answered.tableStatus()).isEqualTo(TableStatus.CREATING);
    assertThat(answered.restoreSummary().restoreInProgress()).isTrue();
    TableDescription restored = awaitRestored(target);

    assertThat(items(target)).isEqualTo(atT);
    assertThat(items(source)).isEqualTo(now); // the source is as it was
    assertThat(restored.restoreSummary().restoreDateTime()).isEqualTo(t);
    assertThat(restored.restoreSummary().sourceTableArn()).endsWith(":table/" + source);
    assertThat(restored.restoreSummary().sourceBackupArn()).isNull();
    assertThat(restored.globalSecondaryIndexes()).extracting(g -> g.indexName())
        .containsExactly("byG");
    assertThat(restored.localSecondaryIndexes()).extracting(l -> l.indexName())
        .containsExactly("byL");
    assertThat(restored.itemCount()).isEqualTo(atT.size());
    for (int g = 0; g < 5; g++) {
      String value = "g" + g;
      Map<String, String> expected = new TreeMap<>();
      atT.values().stream().filter(i -> i.containsKey("g") && i.get("g").s().equals(value))
          .forEach(i -> expected.put(keyOf(i), i.get("v").s()));
      Map<String, String> read = new TreeMap<>();
      queryIndex(target, value).forEach(i -> read.put(keyOf(i), i.get("v").s()));
      assertThat(read).as("byG = %s", value).isEqualTo(expected);
    }
    // No backup operation shows the copy the restore was made from
    assertThat(dynamo.listBackups(r -> r.tableName(source).backupType("ALL")).backupSummaries())
        .isEmpty();
  }

  @Test
  void theLatestRestorableTimeIsTheTableNowAndTheOverridesApply() {
    String source = recoveredTable("pitr-latest");
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < 30; i++) {
      put(source, row(i, "first"), model);
    }
    dynamo.deleteItem(r -> r.tableName(source).key(item("pk", s("p3"), "sk", s("0003"))));
    model.remove("p3/0003");
    String target = uniqueTableName("pitr-latest-to");
    dynamo.restoreTableToPointInTime(r -> r.sourceTableArn(
            dynamo.describeTable(d -> d.tableName(source)).table().tableArn())
        .targetTableName(target).useLatestRestorableTime(true)
        .globalSecondaryIndexOverride(List.of())
        .billingModeOverride(BillingMode.PROVISIONED)
        .provisionedThroughputOverride(p -> p.readCapacityUnits(7L).writeCapacityUnits(3L)));
    TableDescription restored = awaitRestored(target);
    assertThat(items(target)).isEqualTo(model);
    assertThat(restored.globalSecondaryIndexes()).isEmpty();
    assertThat(restored.localSecondaryIndexes()).hasSize(1);
    assertThat(restored.billingModeSummary().billingMode()).isEqualTo(BillingMode.PROVISIONED);
    assertThat(restored.provisionedThroughput().readCapacityUnits()).isEqualTo(7L);
    assertThat(dynamo.describeContinuousBackups(r -> r.tableName(target))
        .continuousBackupsDescription().pointInTimeRecoveryDescription()
        .pointInTimeRecoveryStatusAsString()).isEqualTo("DISABLED");
  }

  @Test
  void aRestoreAfterARestart() {
    assumeTrue(target.isDurable(), "a restart needs durable storage");
    String source = recoveredTable("pitr-restart");
    Map<String, Map<String, AttributeValue>> atT = new TreeMap<>();
    for (int i = 0; i < 40; i++) {
      put(source, row(i, "first"), atT);
    }
    Instant t = instantBetweenWrites();
    for (int i = 0; i < 40; i += 2) {
      put(source, row(i, "after"), new HashMap<>());
    }
    endpoint.restart();
    dynamo = endpoint.client();
    String target = uniqueTableName("pitr-restart-to");
    dynamo.restoreTableToPointInTime(r -> r.sourceTableName(source).targetTableName(target)
        .restoreDateTime(t));
    awaitRestored(target);
    assertThat(items(target)).isEqualTo(atT);
  }

  @Test
  void mistakesAreRefusedAndCreateNothing() {
    String off = createTable("pitr-off", "pk", S);
    String target = uniqueTableName("pitr-none");
    assertError(PointInTimeRecoveryUnavailableException.class,
        "PointInTimeRecoveryUnavailableException",
        "Point in time recovery is not enabled for table '" + off + "': enable it with"
            + " UpdateContinuousBackups; a table can be restored to times after that.",
        () -> dynamo.restoreTableToPointInTime(r -> r.sourceTableName(off)
            .targetTableName(target).useLatestRestorableTime(true)));

    String source = recoveredTable("pitr-errors");
    PointInTimeRecoveryDescription window = dynamo.describeContinuousBackups(
        r -> r.tableName(source)).continuousBackupsDescription().pointInTimeRecoveryDescription();
    Instant before = window.earliestRestorableDateTime().minusSeconds(60);
    assertErrorContaining(InvalidRestoreTimeException.class, "InvalidRestoreTimeException",
        "is outside the restorable window of table '" + source + "'",
        () -> dynamo.restoreTableToPointInTime(r -> r.sourceTableName(source)
            .targetTableName(target).restoreDateTime(before)));
    Instant future = Instant.now().plus(Duration.ofHours(1));
    assertErrorContaining(InvalidRestoreTimeException.class, "InvalidRestoreTimeException",
        "is outside the restorable window",
        () -> dynamo.restoreTableToPointInTime(r -> r.sourceTableName(source)
            .targetTableName(target).restoreDateTime(future)));
    assertError(TableNotFoundException.class, "TableNotFoundException",
        "Table not found: " + source + "-missing",
        () -> dynamo.restoreTableToPointInTime(r -> r.sourceTableName(source + "-missing")
            .targetTableName(target).useLatestRestorableTime(true)));
    assertError(TableAlreadyExistsException.class, "TableAlreadyExistsException",
        "Table already exists: " + off,
        () -> dynamo.restoreTableToPointInTime(r -> r.sourceTableName(source)
            .targetTableName(off).useLatestRestorableTime(true)));
    assertValidationContaining("Exactly one of RestoreDateTime and UseLatestRestorableTime",
        () -> dynamo.restoreTableToPointInTime(r -> r.sourceTableName(source)
            .targetTableName(target)));
    assertValidationContaining("Exactly one of SourceTableName and SourceTableArn",
        () -> dynamo.restoreTableToPointInTime(r -> r.targetTableName(target)
            .useLatestRestorableTime(true)));
    assertThat(dynamo.listTables().tableNames()).doesNotContain(target);
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + target + " not found",
        () -> dynamo.describeTable(r -> r.tableName(target)));
    assertThat(dynamo.listBackups(r -> r.backupType("ALL")).backupSummaries())
        .noneMatch(b -> b.tableName().equals(source));
  }
}
