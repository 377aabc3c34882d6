package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BackupDescription;
import software.amazon.awssdk.services.dynamodb.model.BackupDetails;
import software.amazon.awssdk.services.dynamodb.model.BackupNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.BackupStatus;
import software.amazon.awssdk.services.dynamodb.model.BackupSummary;
import software.amazon.awssdk.services.dynamodb.model.BackupType;
import software.amazon.awssdk.services.dynamodb.model.BackupTypeFilter;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListBackupsResponse;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.SourceTableDetails;
import software.amazon.awssdk.services.dynamodb.model.SourceTableFeatureDetails;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableNotFoundException;

/**
 * On-demand backups through the AWS SDK: CreateBackup of a table while it is written,
 * DescribeBackup with the source table's details and features as they were, ListBackups with
 * each of its filters and its paging, DeleteBackup, a backup that outlives its table and a
 * restart, and DynamoDB's errors for each mistake. BackupInUseException, which needs a backup held half made, is in the engine's {@code OnDemandBackupsTest}.
 */
class BackupsTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  /** A table with a sort key, an LSI, a GSI, a stream and Time to Live, as a backup shows. */
  private String richTable(String purpose) {
    String name = uniqueTableName(purpose);
    dynamo.createTable(b -> b.tableName(name)
        .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
        .attributeDefinitions(attribute("pk", S), attribute("sk", S), attribute("g", S),
            attribute("l", S))
        .billingMode(BillingMode.PROVISIONED)
        .provisionedThroughput(t -> t.readCapacityUnits(50L).writeCapacityUnits(40L))
        .localSecondaryIndexes(i -> i.indexName("byL")
            .keySchema(key("pk", KeyType.HASH), key("l", KeyType.RANGE))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
        .globalSecondaryIndexes(i -> i.indexName("byG").keySchema(key("g", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("v"))
            .provisionedThroughput(t -> t.readCapacityUnits(7L).writeCapacityUnits(8L)))
        .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
    awaitActive(name);
    dynamo.updateTimeToLive(r -> r.tableName(name)
        .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires")));
    return name;
  }

  private void put(String table, int i) {
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("p" + i % 7),
        "sk", s(String.format("%05d", i)), "g", s("g" + i % 3), "l", s("l" + i), "v", n("" + i))));
  }

  private BackupDetails backup(String table, String name) {
    return dynamo.createBackup(r -> r.tableName(table).backupName(name)).backupDetails();
  }

  @Test
  void aBackupIsAvailableAndDescribesItsTableAsItWas() {
    String table = richTable("backup-describe");
    for (int i = 0; i < 40; i++) {
      put(table, i);
    }
    TableDescription source = dynamo.describeTable(r -> r.tableName(table)).table();
    Instant before = Instant.now().minusSeconds(1);
    BackupDetails made = backup(table, "nightly_1.a-b");
    assertThat(made.backupStatus()).isEqualTo(BackupStatus.AVAILABLE);
    assertThat(made.backupType()).isEqualTo(BackupType.USER);
    assertThat(made.backupName()).isEqualTo("nightly_1.a-b");
    assertThat(made.backupArn()).matches(
        java.util.regex.Pattern.quote(source.tableArn()) + "/backup/\\d{14}-[0-9a-f]{8}");
    assertThat(made.backupCreationDateTime()).isBetween(before, Instant.now().plusSeconds(1));
    assertThat(made.backupSizeBytes()).isPositive();

    // Written after the backup: not in it, and the table's changes do not change it.
    for (int i = 40; i < 60; i++) {
      put(table, i);
    }
    dynamo.updateTable(r -> r.tableName(table)
        .provisionedThroughput(t -> t.readCapacityUnits(60L).writeCapacityUnits(40L)));
    BackupDescription d =
        dynamo.describeBackup(r -> r.backupArn(made.backupArn())).backupDescription();
    assertThat(d.backupDetails()).isEqualTo(made);
    SourceTableDetails s = d.sourceTableDetails();
    assertThat(s.tableName()).isEqualTo(table);
    assertThat(s.tableId()).isEqualTo(source.tableId());
    assertThat(s.tableArn()).isEqualTo(source.tableArn());
    assertThat(s.itemCount()).isEqualTo(40L);
    assertThat(s.tableSizeBytes()).isEqualTo(made.backupSizeBytes());
    assertThat(s.keySchema()).isEqualTo(source.keySchema());
    assertThat(s.tableCreationDateTime()).isEqualTo(source.creationDateTime());
    assertThat(s.provisionedThroughput().readCapacityUnits()).isEqualTo(50L);
    assertThat(s.provisionedThroughput().writeCapacityUnits()).isEqualTo(40L);
    assertThat(s.billingMode()).isEqualTo(BillingMode.PROVISIONED);
    SourceTableFeatureDetails f = d.sourceTableFeatureDetails();
    assertThat(f.localSecondaryIndexes()).singleElement().satisfies(i -> {
      assertThat(i.indexName()).isEqualTo("byL");
      assertThat(i.keySchema()).containsExactly(key("pk", KeyType.HASH), key("l", KeyType.RANGE));
      assertThat(i.projection().projectionType()).isEqualTo(ProjectionType.KEYS_ONLY);
    });
    assertThat(f.globalSecondaryIndexes()).singleElement().satisfies(i -> {
      assertThat(i.indexName()).isEqualTo("byG");
      assertThat(i.projection().nonKeyAttributes()).containsExactly("v");
      assertThat(i.provisionedThroughput().readCapacityUnits()).isEqualTo(7L);
      assertThat(i.provisionedThroughput().writeCapacityUnits()).isEqualTo(8L);
    });
    assertThat(f.streamDescription().streamEnabled()).isTrue();
    assertThat(f.streamDescription().streamViewType()).isEqualTo(StreamViewType.NEW_IMAGE);
    assertThat(f.timeToLiveDescription().attributeName()).isEqualTo("expires");
  }

  /**
   * A backup taken while a writer keeps adding items holds every item written before it began,
   * and none written after it answered.
   */
  @Test
  void aBackupOfATableBeingWrittenHoldsWhatWasWrittenBeforeIt() throws Exception {
    String table = createTable("backup-written", "id", S);
    for (int i = 0; i < 100; i++) {
      int n = i;
      dynamo.putItem(r -> r.tableName(table).item(item("id", s("before" + n))));
    }
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> writer = pool.submit(() -> {
        int n = 0;
        for (; !stop.get(); n++) {
          int k = n;
          dynamo.putItem(r -> r.tableName(table).item(item("id", s("during" + k))));
        }
        return n;
      });
      BackupDetails made = backup(table, "while-written");
      long afterBackup = countItems(table);
      stop.set(true);
      int written = writer.get(1, TimeUnit.MINUTES);
      long count = dynamo.describeBackup(r -> r.backupArn(made.backupArn()))
          .backupDescription().sourceTableDetails().itemCount();
      assertThat(count).isBetween(100L, afterBackup);
      assertThat(countItems(table)).isEqualTo(100L + written);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  private long countItems(String table) {
    long n = 0;
    for (var page : dynamo.scanPaginator(r -> r.tableName(table))) {
      n += page.count();
    }
    return n;
  }

  @Test
  void listBackupsFiltersByTableTimeAndTypeAndPages() {
    String first = createTable("backup-list-a", "id", S);
    String second = createTable("backup-list-b", "id", S);
    List<BackupDetails> ofFirst = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ofFirst.add(backup(first, "first-" + i));
    }
    BackupDetails ofSecond = backup(second, "second-0");

    assertThat(arns(dynamo.listBackups(r -> r.tableName(first)).backupSummaries()))
        .containsExactlyElementsOf(arns(ofFirst));
    String firstArn = dynamo.describeTable(r -> r.tableName(first)).table().tableArn();
    assertThat(arns(dynamo.listBackups(r -> r.tableName(firstArn)).backupSummaries()))
        .containsExactlyElementsOf(arns(ofFirst));
    assertThat(dynamo.listBackups(r -> r.tableName(second)).backupSummaries())
        .singleElement().satisfies(b -> {
          assertThat(b.backupArn()).isEqualTo(ofSecond.backupArn());
          assertThat(b.tableName()).isEqualTo(second);
          assertThat(b.tableArn())
              .isEqualTo(dynamo.describeTable(r -> r.tableName(second)).table().tableArn());
          assertThat(b.tableId())
              .isEqualTo(dynamo.describeTable(r -> r.tableName(second)).table().tableId());
          assertThat(b.backupName()).isEqualTo("second-0");
          assertThat(b.backupStatus()).isEqualTo(BackupStatus.AVAILABLE);
          assertThat(b.backupType()).isEqualTo(BackupType.USER);
          assertThat(b.backupSizeBytes()).isEqualTo(ofSecond.backupSizeBytes());
          assertThat(b.backupCreationDateTime()).isEqualTo(ofSecond.backupCreationDateTime());
        });
    // Every backup of the endpoint, the others' included, holds both tables' backups.
    List<String> all = new ArrayList<>();
    for (String start = null; ; ) {
      String from = start;
      ListBackupsResponse page = dynamo.listBackups(r -> r.exclusiveStartBackupArn(from));
      all.addAll(arns(page.backupSummaries()));
      if (page.lastEvaluatedBackupArn() == null) {
        break;
      }
      start = page.lastEvaluatedBackupArn();
    }
    assertThat(all).containsSubsequence(arns(ofFirst)).contains(ofSecond.backupArn());

    // Types: on-demand backups are USER, the default; ALL lists them too; no other kind exists.
    assertThat(dynamo.listBackups(r -> r.tableName(first).backupType(BackupTypeFilter.USER))
        .backupSummaries()).hasSize(3);
    assertThat(dynamo.listBackups(r -> r.tableName(first).backupType(BackupTypeFilter.ALL))
        .backupSummaries()).hasSize(3);
    assertThat(dynamo.listBackups(r -> r.tableName(first).backupType(BackupTypeFilter.SYSTEM))
        .backupSummaries()).isEmpty();
    assertThat(dynamo.listBackups(r -> r.tableName(first)
        .backupType(BackupTypeFilter.AWS_BACKUP)).backupSummaries()).isEmpty();

    // Time range: the lower bound is inclusive, the upper exclusive.
    Instant secondMade = ofFirst.get(1).backupCreationDateTime();
    assertThat(arns(dynamo.listBackups(r -> r.tableName(first).timeRangeLowerBound(secondMade))
        .backupSummaries())).containsExactlyElementsOf(arns(ofFirst.subList(1, 3)));
    assertThat(arns(dynamo.listBackups(r -> r.tableName(first).timeRangeUpperBound(secondMade))
        .backupSummaries())).containsExactlyElementsOf(arns(ofFirst.subList(0, 1)));

    // Paging one at a time: each page names its last backup until the last page.
    List<String> paged = new ArrayList<>();
    String start = null;
    for (int page = 0; page < 10; page++) {
      String from = start;
      ListBackupsResponse r =
          dynamo.listBackups(b -> b.tableName(first).limit(1).exclusiveStartBackupArn(from));
      paged.addAll(arns(r.backupSummaries()));
      start = r.lastEvaluatedBackupArn();
      if (start == null) {
        break;
      }
      assertThat(start).isEqualTo(paged.get(paged.size() - 1));
    }
    assertThat(paged).containsExactlyElementsOf(arns(ofFirst));
  }

  private static List<String> arns(List<?> backups) {
    List<String> out = new ArrayList<>();
    for (Object b : backups) {
      out.add(b instanceof BackupDetails d ? d.backupArn() : ((BackupSummary) b).backupArn());
    }
    return out;
  }

  @Test
  void deleteBackupAnswersItDeletedAndItIsGone() {
    String table = createTable("backup-delete", "id", S);
    dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"))));
    BackupDetails made = backup(table, "to-delete");
    BackupDescription deleted =
        dynamo.deleteBackup(r -> r.backupArn(made.backupArn())).backupDescription();
    assertThat(deleted.backupDetails().backupStatus()).isEqualTo(BackupStatus.DELETED);
    assertThat(deleted.backupDetails().backupArn()).isEqualTo(made.backupArn());
    assertThat(deleted.sourceTableDetails().itemCount()).isEqualTo(1L);
    assertError(BackupNotFoundException.class, "BackupNotFoundException",
        "Backup not found: " + made.backupArn(),
        () -> dynamo.describeBackup(r -> r.backupArn(made.backupArn())));
    assertError(BackupNotFoundException.class, "BackupNotFoundException",
        "Backup not found: " + made.backupArn(),
        () -> dynamo.deleteBackup(r -> r.backupArn(made.backupArn())));
    assertThat(dynamo.listBackups(r -> r.tableName(table)).backupSummaries()).isEmpty();
  }

  @Test
  void aBackupOutlivesItsTable() {
    String table = createTable("backup-outlives", "id", S);
    dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"))));
    BackupDetails made = backup(table, "kept");
    dynamo.deleteTable(r -> r.tableName(table));
    BackupDescription d =
        dynamo.describeBackup(r -> r.backupArn(made.backupArn())).backupDescription();
    assertThat(d.backupDetails().backupStatus()).isEqualTo(BackupStatus.AVAILABLE);
    assertThat(d.sourceTableDetails().itemCount()).isEqualTo(1L);
    assertThat(arns(dynamo.listBackups(r -> r.tableName(table)).backupSummaries()))
        .containsExactly(made.backupArn());
  }

  @Test
  void aBackupSurvivesARestart() {
    assumeTrue(target.isDurable(), "a restart needs durable storage");
    String table = createTable("backup-restart", "id", S);
    dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"))));
    BackupDetails made = backup(table, "survives");
    endpoint.restart();
    dynamo = endpoint.client();
    BackupDescription d =
        dynamo.describeBackup(r -> r.backupArn(made.backupArn())).backupDescription();
    assertThat(d.backupDetails()).isEqualTo(made);
    assertThat(d.sourceTableDetails().itemCount()).isEqualTo(1L);
    assertThat(arns(dynamo.listBackups(r -> r.tableName(table)).backupSummaries()))
        .containsExactly(made.backupArn());
  }

  @Test
  void mistakesAreRefusedInDynamoDbsWords() {
    String table = createTable("backup-errors", "id", S);
    String missing = uniqueTableName("backup-missing");
    assertError(TableNotFoundException.class, "TableNotFoundException",
        "Table not found: " + missing,
        () -> dynamo.createBackup(r -> r.tableName(missing).backupName("first")));
    assertValidation("1 validation error detected: Value 'a b' at 'backupName' failed to satisfy"
        + " constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        () -> dynamo.createBackup(r -> r.tableName(table).backupName("a b")));
    assertValidationContaining("at 'backupName' failed to satisfy constraint: Member must not"
        + " be null", () -> dynamo.createBackup(r -> r.tableName(table)));
    assertValidationContaining("at 'limit' failed to satisfy constraint: Member must have value"
        + " greater than or equal to 1", () -> dynamo.listBackups(r -> r.limit(0)));
    Instant now = Instant.now();
    assertValidationContaining("must be before TimeRangeUpperBound",
        () -> dynamo.listBackups(r -> r.timeRangeLowerBound(now).timeRangeUpperBound(now)));
    String unknown = dynamo.describeTable(r -> r.tableName(table)).table().tableArn()
        + "/backup/01700000000000-0badf00d";
    assertError(BackupNotFoundException.class, "BackupNotFoundException",
        "Backup not found: " + unknown, () -> dynamo.describeBackup(r -> r.backupArn(unknown)));
    assertValidationContaining("at 'backupArn' failed to satisfy constraint: Member must have"
        + " length greater than or equal to 37",
        () -> dynamo.describeBackup(r -> r.backupArn("arn:short")));
    assertThat(dynamo.listBackups(r -> r.tableName(table)).backupSummaries()).isEmpty();
  }
}
