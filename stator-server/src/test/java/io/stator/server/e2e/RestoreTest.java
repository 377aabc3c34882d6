package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BackupNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.RestoreSummary;
import software.amazon.awssdk.services.dynamodb.model.SSEType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableAlreadyExistsException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * RestoreTableFromBackup through the AWS SDK: a restore of a backup taken while a writer goes on
 * is the source table as of the backup's moment, item by item and index by index; the overrides
 * change what they name and what DynamoDB does not restore is not restored; the new table is
 * CREATING with its RestoreSummary in progress, then ACTIVE; a restore after a restart; and
 * DynamoDB's errors for each mistake, creating nothing.
 */
class RestoreTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final int ITEMS = 200;

  /** pk, sk; LSI byL (KEYS_ONLY), GSI byG (INCLUDE v), a stream, TTL and a tag. */
  private String indexedTable(String purpose) {
    String name = uniqueTableName(purpose);
    dynamo.createTable(indexedTableRequest(name)
        .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE))
        .tags(t -> t.key("team").value("orders"))
        .build());
    awaitActive(name);
    dynamo.updateTimeToLive(r -> r.tableName(name)
        .timeToLiveSpecification(t -> t.enabled(true).attributeName("expires")));
    return name;
  }

  private static Map<String, AttributeValue> row(int i) {
    Map<String, AttributeValue> item = item("pk", s("p" + i % 9), "sk", s(String.format("%05d", i)),
        "l", s("l" + i % 13), "v", n("0"), "x", s("other" + i));
    if (i % 4 != 0) {
      item.put("g", s("g" + i % 5)); // every fourth item is in no GSI
    }
    return item;
  }

  private List<Map<String, AttributeValue>> scan(String table, String index) {
    List<Map<String, AttributeValue>> out = new ArrayList<>();
    for (var page : dynamo.scanPaginator(r -> r.tableName(table).indexName(index)
        .consistentRead(index == null || index.equals("byL")))) {
      out.addAll(page.items());
    }
    return out;
  }

  private static Set<Map<String, AttributeValue>> projected(
      Iterable<Map<String, AttributeValue>> items, String indexKey, String... attributes) {
    Set<Map<String, AttributeValue>> out = new HashSet<>();
    for (Map<String, AttributeValue> item : items) {
      if (!item.containsKey(indexKey)) {
        continue;
      }
      Map<String, AttributeValue> p = new HashMap<>();
      for (String a : List.of("pk", "sk", indexKey)) {
        p.put(a, item.get(a));
      }
      for (String a : attributes) {
        if (item.containsKey(a)) {
          p.put(a, item.get(a));
        }
      }
      out.add(p);
    }
    return out;
  }

  /**
   * A writer commits step after step, each one transaction that adds an item and sets the count
   * of steps on a counter item and {@code v} of an older item; the backup is taken meanwhile.
   * The restored table holds exactly the steps up to its counter's count: every item added by
   * them, none added after, each older item's {@code v} as those steps left it; and each index
   * is that table's projection. On every target: on Cassandra, whose copy of a space is not one
   * instant, the backup copies the items as of one from the table and its change history.
   */
  @Test
  void aRestoreIsTheTableAtTheBackupItemByItemAndIndexByIndex() throws Exception {
    String source = indexedTable("restore-source");
    for (int i = 0; i < ITEMS; i++) {
      Map<String, AttributeValue> item = row(i);
      dynamo.putItem(r -> r.tableName(source).item(item));
    }
    Map<String, AttributeValue> counterKey = item("pk", s("counter"), "sk", s("-"));
    dynamo.putItem(r -> r.tableName(source).item(item("pk", s("counter"), "sk", s("-"),
        "n", n("0"))));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger committed = new AtomicInteger();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    String backupArn;
    int steps;
    try {
      Future<Integer> writer = pool.submit(() -> {
        int step = 0;
        while (!stop.get()) {
          int n = ++step;
          Map<String, AttributeValue> older = row(n % ITEMS);
          dynamo.transactWriteItems(t -> t.transactItems(
              TransactWriteItem.builder().put(p -> p.tableName(source).item(item(
                  "pk", s("w"), "sk", s(String.format("%05d", n)), "g", s("gw"),
                  "l", s("l" + n), "v", n("" + n)))).build(),
              TransactWriteItem.builder().update(u -> u.tableName(source).key(counterKey)
                  .updateExpression("SET n = :n").expressionAttributeValues(
                      Map.of(":n", n("" + n)))).build(),
              TransactWriteItem.builder().update(u -> u.tableName(source)
                  .key(item("pk", older.get("pk"), "sk", older.get("sk")))
                  .updateExpression("SET v = :n").expressionAttributeValues(
                      Map.of(":n", n("" + n)))).build()));
          committed.set(n);
        }
        return step;
      });
      // Some steps before the backup (300 ms of them, and at least one however slowly a busy
      // machine runs the writer), and some after.
      long until = System.nanoTime() + Duration.ofMillis(300).toNanos();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while ((System.nanoTime() < until || committed.get() == 0)
          && System.nanoTime() < deadline && !writer.isDone()) {
        Thread.sleep(10);
      }
      backupArn = dynamo.createBackup(r -> r.tableName(source).backupName("under-load"))
          .backupDetails().backupArn();
      until = System.nanoTime() + Duration.ofMillis(200).toNanos();
      while (System.nanoTime() < until && !writer.isDone()) {
        Thread.sleep(10);
      }
      stop.set(true);
      steps = writer.get(1, TimeUnit.MINUTES);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }

    String restored = uniqueTableName("restore-target");
    String arn = backupArn;
    TableDescription answered = dynamo.restoreTableFromBackup(r -> r.targetTableName(restored)
        .backupArn(arn)).tableDescription();
    assertThat(answered.tableStatus()).isEqualTo(TableStatus.CREATING);
    assertThat(answered.restoreSummary().restoreInProgress()).isTrue();
    assertThat(answered.restoreSummary().sourceBackupArn()).isEqualTo(backupArn);
    TableDescription sourceTable = dynamo.describeTable(r -> r.tableName(source)).table();
    assertThat(answered.restoreSummary().sourceTableArn()).isEqualTo(sourceTable.tableArn());
    TableDescription done = awaitRestored(restored);
    RestoreSummary summary = done.restoreSummary();
    assertThat(summary.restoreDateTime()).isEqualTo(answered.restoreSummary().restoreDateTime());

    List<Map<String, AttributeValue>> items = scan(restored, null);
    long backedUp = dynamo.describeBackup(r -> r.backupArn(arn)).backupDescription()
        .sourceTableDetails().itemCount();
    assertThat((long) items.size()).isEqualTo(backedUp);
    TreeMap<String, Map<String, AttributeValue>> expected = new TreeMap<>();
    int count = Integer.parseInt(items.stream()
        .filter(i -> i.get("pk").s().equals("counter")).findFirst().orElseThrow()
        .get("n").n());
    assertThat(count).as("steps in the backup").isBetween(1, steps);
    for (int i = 0; i < ITEMS; i++) {
      expected.put(keyText(row(i)), row(i));
    }
    for (int n = 1; n <= count; n++) {
      Map<String, AttributeValue> added = item("pk", s("w"), "sk", s(String.format("%05d", n)),
          "g", s("gw"), "l", s("l" + n), "v", n("" + n));
      expected.put(keyText(added), added);
      expected.get(keyText(row(n % ITEMS))).put("v", n("" + n));
    }
    Map<String, AttributeValue> counter = item("pk", s("counter"), "sk", s("-"),
        "n", n("" + count));
    expected.put(keyText(counter), counter);
    TreeMap<String, Map<String, AttributeValue>> actual = new TreeMap<>();
    items.forEach(i -> actual.put(keyText(i), i));
    assertThat(actual).isEqualTo(expected);
    // Index by index: each is the projection of the restored items.
    assertThat(new HashSet<>(scan(restored, "byG"))).isEqualTo(projected(items, "g", "v"));
    assertThat(new HashSet<>(scan(restored, "byL"))).isEqualTo(projected(items, "l"));
    assertThat(done.itemCount()).isEqualTo(backedUp);
  }

  private static String keyText(Map<String, AttributeValue> item) {
    return item.get("pk").s() + "\u0000" + item.get("sk").s();
  }

  @Test
  void theOverridesChangeWhatTheyNameAndWhatDynamoDbDoesNotRestoreIsNot() {
    String source = indexedTable("restore-override-source");
    for (int i = 0; i < 30; i++) {
      Map<String, AttributeValue> item = row(i);
      dynamo.putItem(r -> r.tableName(source).item(item));
    }
    String arn = dynamo.createBackup(r -> r.tableName(source).backupName("overrides"))
        .backupDetails().backupArn();

    // Without overrides: the source's key schema, indexes and billing mode.
    String plain = uniqueTableName("restore-plain");
    dynamo.restoreTableFromBackup(r -> r.targetTableName(plain).backupArn(arn));
    TableDescription p = awaitRestored(plain);
    TableDescription s = dynamo.describeTable(r -> r.tableName(source)).table();
    assertThat(p.keySchema()).isEqualTo(s.keySchema());
    assertThat(p.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(p.globalSecondaryIndexes()).singleElement().satisfies(g -> {
      assertThat(g.indexName()).isEqualTo("byG");
      assertThat(g.projection()).isEqualTo(s.globalSecondaryIndexes().get(0).projection());
    });
    assertThat(p.localSecondaryIndexes()).singleElement()
        .satisfies(l -> assertThat(l.indexName()).isEqualTo("byL"));
    // Not restored: the stream, Time to Live, tags.
    assertThat(p.streamSpecification()).isNull();
    assertThat(dynamo.describeTimeToLive(r -> r.tableName(plain)).timeToLiveDescription()
        .timeToLiveStatus()).isEqualTo(TimeToLiveStatus.DISABLED);
    assertThat(dynamo.listTagsOfResource(r -> r.resourceArn(p.tableArn())).tags()).isEmpty();
    assertThat(scan(plain, null)).hasSize(30);

    // With overrides: provisioned, one GSI with another projection, no LSI, a KMS key.
    String changed = uniqueTableName("restore-changed");
    dynamo.restoreTableFromBackup(r -> r.targetTableName(changed).backupArn(arn)
        .billingModeOverride(BillingMode.PROVISIONED)
        .provisionedThroughputOverride(t -> t.readCapacityUnits(5L).writeCapacityUnits(6L))
        .globalSecondaryIndexOverride(GlobalSecondaryIndex.builder().indexName("byG")
            .keySchema(key("g", KeyType.HASH))
            .projection(x -> x.projectionType(ProjectionType.KEYS_ONLY))
            .provisionedThroughput(t -> t.readCapacityUnits(3L).writeCapacityUnits(4L)).build())
        .localSecondaryIndexOverride(List.of())
        .sseSpecificationOverride(x -> x.enabled(true).sseType(SSEType.KMS)));
    TableDescription c = awaitRestored(changed);
    assertThat(c.billingModeSummary().billingMode()).isEqualTo(BillingMode.PROVISIONED);
    assertThat(c.provisionedThroughput().readCapacityUnits()).isEqualTo(5L);
    assertThat(c.provisionedThroughput().writeCapacityUnits()).isEqualTo(6L);
    assertThat(c.localSecondaryIndexes()).isNullOrEmpty();
    assertThat(c.globalSecondaryIndexes()).singleElement().satisfies(g -> {
      assertThat(g.projection().projectionType()).isEqualTo(ProjectionType.KEYS_ONLY);
      assertThat(g.provisionedThroughput().readCapacityUnits()).isEqualTo(3L);
    });
    assertThat(c.sseDescription().sseType()).isEqualTo(SSEType.KMS);
    List<Map<String, AttributeValue>> items = scan(changed, null);
    assertThat(items).hasSize(30);
    assertThat(new HashSet<>(scan(changed, "byG"))).isEqualTo(projected(items, "g"));
  }

  @Test
  void aBackupRestoresAfterARestartAndAfterItsTableIsDeleted() {
    assumeTrue(target.isDurable(), "a restart needs durable storage");
    String source = createTable("restore-restart", "id", S);
    Map<String, Map<String, AttributeValue>> written = new LinkedHashMap<>();
    for (int i = 0; i < 50; i++) {
      Map<String, AttributeValue> item = item("id", s("k" + i), "n", n("" + i));
      written.put("k" + i, item);
      dynamo.putItem(r -> r.tableName(source).item(item));
    }
    String arn = dynamo.createBackup(r -> r.tableName(source).backupName("restarted"))
        .backupDetails().backupArn();
    dynamo.deleteTable(r -> r.tableName(source));
    endpoint.restart();
    dynamo = endpoint.client();
    String restored = uniqueTableName("restore-after-restart");
    dynamo.restoreTableFromBackup(r -> r.targetTableName(restored).backupArn(arn));
    awaitRestored(restored);
    Map<String, Map<String, AttributeValue>> read = new LinkedHashMap<>();
    scan(restored, null).forEach(i -> read.put(i.get("id").s(), i));
    assertThat(read).isEqualTo(written);
  }

  @Test
  void mistakesAreRefusedAndCreateNothing() {
    String source = createTable("restore-errors", "id", S);
    dynamo.putItem(r -> r.tableName(source).item(item("id", s("a"))));
    String arn = dynamo.createBackup(r -> r.tableName(source).backupName("errors"))
        .backupDetails().backupArn();
    assertError(TableAlreadyExistsException.class, "TableAlreadyExistsException",
        "Table already exists: " + source,
        () -> dynamo.restoreTableFromBackup(r -> r.targetTableName(source).backupArn(arn)));
    String target = uniqueTableName("restore-none");
    String unknown = arn.substring(0, arn.lastIndexOf('/') + 1) + "01700000000000-0badf00d";
    assertError(BackupNotFoundException.class, "BackupNotFoundException",
        "Backup not found: " + unknown,
        () -> dynamo.restoreTableFromBackup(r -> r.targetTableName(target).backupArn(unknown)));
    assertValidationContaining("GlobalSecondaryIndexOverride: the backup's table has no such"
        + " index: byX", () -> dynamo.restoreTableFromBackup(r -> r.targetTableName(target)
            .backupArn(arn).globalSecondaryIndexOverride(GlobalSecondaryIndex.builder()
                .indexName("byX").keySchema(key("x", KeyType.HASH))
                .projection(x -> x.projectionType(ProjectionType.ALL)).build())));
    assertValidationContaining("at 'targetTableName' failed to satisfy constraint",
        () -> dynamo.restoreTableFromBackup(r -> r.targetTableName("a b").backupArn(arn)));
    assertValidationContaining("at 'billingModeOverride' failed to satisfy constraint",
        () -> dynamo.restoreTableFromBackup(r -> r.targetTableName(target).backupArn(arn)
            .billingModeOverride("FREE")));
    assertThat(dynamo.listTables().tableNames()).doesNotContain(target);
  }
}
