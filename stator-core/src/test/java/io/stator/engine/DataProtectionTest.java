package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.BackupDescription;
import io.stator.api.BackupSummary;
import io.stator.api.CreateBackupRequest;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteBackupRequest;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeBackupRequest;
import io.stator.api.DescribeExportRequest;
import io.stator.api.DescribeImportRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.ExportDescription;
import io.stator.api.ExportTableToPointInTimeRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.ImportTableDescription;
import io.stator.api.ImportTableRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListBackupsRequest;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.Projection;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.S3BucketSource;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.TableCreationParameters;
import io.stator.api.TableDescription;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.Update;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.capacity.ManualClock;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Backups, point-in-time recovery, the SYSTEM backup of a deleted table, and export and import,
 * on every storage the engine tests run on (Cassandra included, through its engine-on-cassandra
 * execution): each restored or imported table holds exactly the items of the source at the
 * time asked for, with its secondary indexes the projections of them (checked after each test
 * by {@link EngineTest}). Only what the storage does is run here; the operations' validation
 * and their errors are covered on memory by the backup and export packages' tests and the
 * server's.
 *
 * <p>The engine's clock is moved by hand, so that "the table as of a second" names a second
 * between two sets of writes without the test sleeping.
 */
class DataProtectionTest extends EngineTest {
  private static final String TABLE = "Orders";
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));

  @Override
  protected EngineOptions options() {
    return EngineOptions.defaults().withClock(clock).withExportDirectory(dir.resolve("s3"));
  }

  /** Orders by customer and order id, a GSI by status and an LSI by total. */
  private void createOrders(String name) {
    db.createTable(new CreateTableRequest(name,
        List.of(new AttributeDefinition("customer", "S"), new AttributeDefinition("order", "S"),
            new AttributeDefinition("status", "S"), new AttributeDefinition("total", "N")),
        key("customer", "order"),
        List.of(new LocalSecondaryIndex("byTotal", key("customer", "total"), all())),
        List.of(new GlobalSecondaryIndex("byStatus", key("status", "order"), all(), null, null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
  }

  private static List<KeySchemaElement> key(String hash, String range) {
    return List.of(new KeySchemaElement(hash, "HASH"), new KeySchemaElement(range, "RANGE"));
  }

  private static Projection all() {
    return new Projection("ALL", null);
  }

  /** Puts an order, also into {@code model} (by key), as of now. */
  private void put(Map<String, Map<String, AttributeValue>> model, String customer, int order,
      String status, int total) {
    Map<String, AttributeValue> item =
        item("customer", customer, "order", "o" + order, "status", status, "total", total);
    Fixtures.put(db, TABLE, item);
    model.put(customer + "/o" + order, item);
  }

  private void delete(Map<String, Map<String, AttributeValue>> model, String customer,
      int order) {
    db.deleteItem(Fixtures.delete(TABLE, item("customer", customer, "order", "o" + order), null));
    model.remove(customer + "/o" + order);
  }

  /** Twenty orders of four customers, some deleted, so a copy must leave them out. */
  private Map<String, Map<String, AttributeValue>> loadOrders() {
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    for (int i = 0; i < 20; i++) {
      put(model, "c" + i % 4, i, i % 3 == 0 ? "SHIPPED" : "OPEN", 10 + i);
    }
    delete(model, "c1", 5);
    delete(model, "c2", 6);
    return model;
  }

  /** Changes after a copy's instant, which the copy must not hold. */
  private void changeOrders(Map<String, Map<String, AttributeValue>> model) {
    put(model, "c0", 0, "RETURNED", 99);
    put(model, "c3", 100, "OPEN", 5);
    delete(model, "c1", 1);
  }

  /** Every record of a table or index (all pages), in no particular order. */
  private List<Map<String, AttributeValue>> scan(String table, String index) {
    List<Map<String, AttributeValue>> out = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      // strongly consistent where DynamoDB allows it: the table, not a GSI
      ScanResponse page = db.scan(new ScanRequest(table, index, null, null, index == null, start,
          null, null, null, null, null, null, null, null, null, null));
      out.addAll(page.items());
      start = page.lastEvaluatedKey();
    } while (start != null);
    return out;
  }

  /** The table's and each index's records, for a restored table to be compared with. */
  private Map<String, List<Map<String, AttributeValue>>> contents(String table) {
    awaitIndexes();
    return Map.of("table", scan(table, null), "byStatus", scan(table, "byStatus"),
        "byTotal", scan(table, "byTotal"));
  }

  private void assertSameContents(String restored,
      Map<String, List<Map<String, AttributeValue>>> expected) {
    Map<String, List<Map<String, AttributeValue>>> actual = contents(restored);
    for (String part : List.of("table", "byStatus", "byTotal")) {
      assertThat(actual.get(part)).as("%s of %s", part, restored)
          .containsExactlyInAnyOrderElementsOf(expected.get(part));
    }
  }

  private void awaitIndexes() {
    try {
      assertThat(db.awaitIndexes(Duration.ofSeconds(30))).as("indexes caught up").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Waits for a restored or imported table to be ACTIVE (its items are written in the back). */
  private TableDescription awaitActive(String table) {
    return await("table " + table + " ACTIVE",
        () -> db.describeTable(new DescribeTableRequest(table)).table(),
        t -> t.tableStatus().equals("ACTIVE"));
  }

  private static <T> T await(String what, Supplier<T> read,
      Predicate<T> done) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      T t = read.get();
      if (done.test(t)) {
        return t;
      }
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private void enableRecovery() {
    db.updateContinuousBackups(new UpdateContinuousBackupsRequest(TABLE,
        new PointInTimeRecoverySpecification(true, null)));
  }

  @Test
  void aBackupRestoresTheTableAndItsIndexesAsTheyWereWhenItWasMade() {
    createOrders(TABLE);
    Map<String, Map<String, AttributeValue>> model = loadOrders();
    Map<String, List<Map<String, AttributeValue>>> backedUp = contents(TABLE);
    assertThat(backedUp.get("table")).containsExactlyInAnyOrderElementsOf(model.values());

    BackupDescription made = db.describeBackup(new DescribeBackupRequest(
        db.createBackup(new CreateBackupRequest(TABLE, "nightly")).backupDetails().backupArn()))
        .backupDescription();
    String arn = made.backupDetails().backupArn();
    assertThat(made.backupDetails().backupStatus()).isEqualTo("AVAILABLE");
    assertThat(made.backupDetails().backupName()).isEqualTo("nightly");
    assertThat(made.sourceTableDetails().itemCount()).isEqualTo(model.size());
    changeOrders(model);

    List<BackupSummary> listed = db.listBackups(
        new ListBackupsRequest(TABLE, null, null, null, null, null)).backupSummaries();
    assertThat(listed).extracting(BackupSummary::backupArn).containsExactly(arn);

    db.restoreTableFromBackup(new RestoreTableFromBackupRequest("Restored", arn, null, null,
        null, null, null, null));
    TableDescription restored = awaitActive("Restored");
    assertThat(restored.globalSecondaryIndexes()).extracting(i -> i.indexName())
        .containsExactly("byStatus");
    assertThat(restored.localSecondaryIndexes()).extracting(i -> i.indexName())
        .containsExactly("byTotal");
    assertThat(restored.restoreSummary().sourceBackupArn()).isEqualTo(arn);
    assertSameContents("Restored", backedUp);
    assertThat(scan(TABLE, null)).containsExactlyInAnyOrderElementsOf(model.values());

    assertThat(db.deleteBackup(new DeleteBackupRequest(arn)).backupDescription().backupDetails()
        .backupStatus()).isEqualTo("DELETED");
    assertThatThrownBy(() -> db.describeBackup(new DescribeBackupRequest(arn)))
        .isInstanceOfSatisfying(DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.BackupNotFoundException));
    assertThat(db.listBackups(new ListBackupsRequest(TABLE, null, null, null, null, null))
        .backupSummaries()).isEmpty();
  }

  /**
   * Orders with recovery enabled a second before they were loaded; returns the second after
   * they were, and moves the clock a second on.
   */
  private Instant loadOrdersWithRecovery(Map<String, Map<String, AttributeValue>> model) {
    createOrders(TABLE);
    enableRecovery();
    clock.advanceSeconds(1);
    model.putAll(loadOrders());
    clock.advanceSeconds(1);
    Instant loaded = clock.instant();
    clock.advanceSeconds(1);
    return loaded;
  }

  @Test
  void aTableRestoresToASecondInItsWindowAndFromItsBackupOnceDeleted() {
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    Instant between = loadOrdersWithRecovery(model);
    Map<String, List<Map<String, AttributeValue>>> then = contents(TABLE);
    changeOrders(model);
    clock.advanceSeconds(1);

    db.restoreTableToPointInTime(new RestoreTableToPointInTimeRequest(null, TABLE, "AsOfThen",
        null, between, null, null, null, null, null, null));
    assertThat(awaitActive("AsOfThen").restoreSummary().restoreDateTime()).isEqualTo(between);
    assertSameContents("AsOfThen", then);

    Map<String, List<Map<String, AttributeValue>>> last = contents(TABLE);
    assertThat(last.get("table")).containsExactlyInAnyOrderElementsOf(model.values());
    db.deleteTable(new DeleteTableRequest(TABLE));
    List<BackupSummary> system = db.listBackups(
        new ListBackupsRequest(TABLE, null, null, null, null, "SYSTEM")).backupSummaries();
    assertThat(system).extracting(BackupSummary::backupName)
        .containsExactly(TABLE + "$DeletedTableBackup");
    db.restoreTableFromBackup(new RestoreTableFromBackupRequest(TABLE,
        system.get(0).backupArn(), null, null, null, null, null, null));
    awaitActive(TABLE);
    assertSameContents(TABLE, last);
  }

  @Test
  void anExportImportedIsTheTableAgain() {
    Map<String, Map<String, AttributeValue>> model = new TreeMap<>();
    Instant exportTime = loadOrdersWithRecovery(model);
    Map<String, List<Map<String, AttributeValue>>> then = contents(TABLE);
    changeOrders(model);
    String tableArn = db.describeTable(new DescribeTableRequest(TABLE)).table().tableArn();

    String exportArn = db.exportTableToPointInTime(new ExportTableToPointInTimeRequest(tableArn,
        exportTime, null, "backups", null, null, null, null, null, null, null))
        .exportDescription().exportArn();
    ExportDescription exported = await("export COMPLETED",
        () -> db.describeExport(new DescribeExportRequest(exportArn)).exportDescription(),
        d -> !d.exportStatus().equals("IN_PROGRESS"));
    assertThat(exported.exportStatus()).isEqualTo("COMPLETED");
    assertThat(exported.itemCount()).isEqualTo(then.get("table").size());

    String data = exported.exportManifest().replace("manifest-summary.json", "data/");
    String importArn = db.importTable(new ImportTableRequest(null,
        new S3BucketSource(null, "backups", data), "DYNAMODB_JSON", null, "GZIP",
        new TableCreationParameters("Imported",
            List.of(new AttributeDefinition("customer", "S"),
                new AttributeDefinition("order", "S"), new AttributeDefinition("status", "S")),
            key("customer", "order"), "PAY_PER_REQUEST", null, null, null,
            List.of(new GlobalSecondaryIndex("byStatus", key("status", "order"), all(), null,
                null)))))
        .importTableDescription().importArn();
    ImportTableDescription imported = await("import COMPLETED",
        () -> db.describeImport(new DescribeImportRequest(importArn)).importTableDescription(),
        d -> !d.importStatus().equals("IN_PROGRESS"));
    assertThat(imported.importStatus()).isEqualTo("COMPLETED");
    assertThat(imported.importedItemCount()).isEqualTo(then.get("table").size());
    assertThat(imported.errorCount()).isZero();
    awaitActive("Imported");
    awaitIndexes();
    assertThat(scan("Imported", null)).containsExactlyInAnyOrderElementsOf(then.get("table"));
    assertThat(scan("Imported", "byStatus"))
        .containsExactlyInAnyOrderElementsOf(then.get("byStatus"));
  }

  /**
   * Transfers between accounts go on from two threads while a backup is made: the restored
   * accounts hold the total they started with, as the table did at every instant. On Cassandra,
   * whose copy of a space reads page after page, this is the backup copying the items as of one
   * instant through the change history.
   */
  @Test
  void aBackupTakenWhileTransfersGoOnHoldsTheTableAtOneInstant() throws Exception {
    db.createTable(Fixtures.create("Accounts", "id", "S", null, null));
    int accounts = 150; // more than a page of a copy read page by page (100 records)
    for (int i = 0; i < accounts; i++) {
      Fixtures.put(db, "Accounts", item("id", "a" + i, "balance", 100));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger transfers = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Random random = new Random(t);
      Thread thread = new Thread(() -> {
        while (!stop.get()) {
          clock.advance(Duration.ofMillis(1)); // each transfer a millisecond of its own, or two
          int from = random.nextInt(accounts);
          int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
          int amount = 1 + random.nextInt(20);
          try {
            db.transactWriteItems(new TransactWriteItemsRequest(List.of(
                add("a" + from, -amount), add("a" + to, amount)), null, null, null));
            transfers.incrementAndGet();
          } catch (DynamoDbException refused) {
            // a conflict with the other thread or a catalog change: nothing written
          }
        }
      });
      thread.start();
      threads.add(thread);
    }
    try {
      await("transfers under way", transfers::get, n -> n >= 5);
      int before = transfers.get();
      long started = System.nanoTime();
      String arn = db.createBackup(new CreateBackupRequest("Accounts", "moving"))
          .backupDetails().backupArn();
      int during = transfers.get() - before;
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      await("transfers after the backup", transfers::get, n -> n >= before + during + 5);
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      db.restoreTableFromBackup(new RestoreTableFromBackupRequest("AccountsThen", arn, null,
          null, null, null, null, null));
      awaitActive("AccountsThen");
      System.out.printf("%s: %d transfers committed during the backup of %d accounts (%d ms)%n",
          spec, during, accounts, tookMillis);
      List<Integer> then = balances("AccountsThen");
      assertThat(then).as("accounts restored").hasSize(accounts);
      assertThat(sum(then)).as("their total").isEqualTo(100 * accounts);
      assertThat(sum(balances("Accounts"))).isEqualTo(100 * accounts);
    } finally {
      stop.set(true);
    }
  }

  private static TransactWriteItem add(String id, int amount) {
    return new TransactWriteItem(null, null, null, new Update(item("id", id), "ADD balance :a",
        "Accounts", null, null, item(":a", amount), null));
  }

  private List<Integer> balances(String table) {
    List<Integer> out = new ArrayList<>();
    for (Map<String, AttributeValue> i : scan(table, null)) {
      out.add(Integer.valueOf(((AttributeValue.N) i.get("balance")).value()));
    }
    return out;
  }

  private static int sum(List<Integer> balances) {
    return balances.stream().mapToInt(Integer::intValue).sum();
  }
}
