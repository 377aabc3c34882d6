package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeContinuousBackupsRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.KeySchemaElement;
import io.stator.api.PointInTimeRecoveryDescription;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.backup.ChangeHistory;
import io.stator.capacity.ManualClock;
import io.stator.schema.Catalog;
import io.stator.schema.TableDefinition;
import io.stator.storage.FaultyStorage;
import io.stator.storage.StorageException;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Point-in-time recovery's window and change history in the engine: the window DescribeContinuous
 * Backups reports moves with the engine's clock; a history record exists if and only if its
 * change committed (a commit that fails before writing leaves neither, one that fails after
 * writing leaves both); the item as of a time is found from the history and the live table;
 * trimming keeps that true inside the window; disabling recovery or deleting the table drops the
 * history.
 */
class PointInTimeHistoryTest {
  private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(START);
  private final MemoryStorage memory = new MemoryStorage();
  private final FaultyStorage storage = new FaultyStorage(memory);
  private final Engine db = new Engine(storage, EngineOptions.defaults().withClock(clock));

  @AfterEach
  void close() {
    db.close();
  }

  private void createOrders() {
    db.createTable(new CreateTableRequest("Orders", List.of(new AttributeDefinition("id", "S")),
        List.of(new KeySchemaElement("id", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
        null, null, null, null, null, null));
  }

  private PointInTimeRecoveryDescription enable(Integer days) {
    return db.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders",
        new PointInTimeRecoverySpecification(true, days)))
        .continuousBackupsDescription().pointInTimeRecoveryDescription();
  }

  private PointInTimeRecoveryDescription describe() {
    return db.describeContinuousBackups(new DescribeContinuousBackupsRequest("Orders"))
        .continuousBackupsDescription().pointInTimeRecoveryDescription();
  }

  private void put(String id, String status) {
    db.putItem(new PutItemRequest("Orders", item("id", id, "status", status), null, null, null,
        null, null, null, null, null, null));
  }

  private void delete(String id) {
    db.deleteItem(new DeleteItemRequest("Orders", item("id", id), null, null, null, null, null,
        null, null, null, null));
  }

  private TableDefinition orders() {
    return new Catalog(memory).get("Orders").orElseThrow().table();
  }

  private List<StoredRecord> history() {
    return memory.scan(orders().history(), null, null, null, Integer.MAX_VALUE);
  }

  /** The item as the history and the live table say it was at {@code at}. */
  private Map<String, AttributeValue> asOf(String id, Instant at) {
    TableDefinition t = orders();
    Map<String, AttributeValue> key = item("id", id);
    Optional<ChangeHistory.AsOf> h =
        ChangeHistory.asOf(memory, t, t.storageKey(key), at);
    if (h.isPresent()) {
      return h.get().item();
    }
    return db.getItem(Fixtures.get("Orders", key)).item();
  }

  @Test
  void theWindowRunsFromEnablingToNowAndMovesWithTheClock() {
    createOrders();
    assertThat(describe().pointInTimeRecoveryStatus()).isEqualTo("DISABLED");
    assertThat(describe().earliestRestorableDateTime()).isNull();

    PointInTimeRecoveryDescription enabled = enable(2);
    assertThat(enabled.pointInTimeRecoveryStatus()).isEqualTo("ENABLED");
    assertThat(enabled.recoveryPeriodInDays()).isEqualTo(2);
    assertThat(enabled.earliestRestorableDateTime()).isEqualTo(START);
    assertThat(enabled.latestRestorableDateTime()).isEqualTo(START);

    clock.advance(Duration.ofHours(30));
    assertThat(describe().earliestRestorableDateTime()).isEqualTo(START);
    assertThat(describe().latestRestorableDateTime()).isEqualTo(START.plus(Duration.ofHours(30)));

    clock.advance(Duration.ofHours(30)); // past the two days: the window's start moves
    assertThat(describe().earliestRestorableDateTime()).isEqualTo(START.plus(Duration.ofHours(12)));
    assertThat(describe().latestRestorableDateTime()).isEqualTo(START.plus(Duration.ofHours(60)));

    // Enabling again keeps the period and where recovery counts from; without days, 35
    assertThat(enable(null).recoveryPeriodInDays()).isEqualTo(2);
    assertThat(describe().earliestRestorableDateTime()).isEqualTo(START.plus(Duration.ofHours(12)));
    db.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders",
        new PointInTimeRecoverySpecification(false, null)));
    assertThat(describe().pointInTimeRecoveryStatus()).isEqualTo("DISABLED");
    assertThat(enable(null).recoveryPeriodInDays()).isEqualTo(35);
    assertThat(describe().earliestRestorableDateTime()).isEqualTo(START.plus(Duration.ofHours(60)));
  }

  @Test
  void outOfRangePeriodsAndMissingTablesAreRefused() {
    createOrders();
    assertThatThrownBy(() -> enable(36)).isInstanceOfSatisfying(DynamoDbException.class,
        e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException));
    assertThatThrownBy(() -> enable(0)).isInstanceOfSatisfying(DynamoDbException.class,
        e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException));
    assertThat(describe().pointInTimeRecoveryStatus()).isEqualTo("DISABLED");
    assertThat(memory.spaces()).doesNotContain(orders().history());
    assertThatThrownBy(() -> db.describeContinuousBackups(
        new DescribeContinuousBackupsRequest("Missing")))
        .isInstanceOfSatisfying(DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.TableNotFoundException));
  }

  @Test
  void noHistoryIsKeptWhileRecoveryIsOff() {
    createOrders();
    put("1", "open");
    assertThat(memory.spaces()).doesNotContain(orders().history());
    enable(null);
    assertThat(history()).isEmpty(); // what was there before is the live table's
  }

  @Test
  void aRecordExistsIfAndOnlyIfItsChangeCommitted() {
    createOrders();
    enable(null);
    put("1", "open");
    assertThat(history()).hasSize(1);

    storage.failCommits(1);
    assertThatThrownBy(() -> put("1", "shipped")).isInstanceOf(StorageException.class);
    assertThat(history()).hasSize(1);
    storage.failCommits(1);
    assertThatThrownBy(() -> db.transactWriteItems(new TransactWriteItemsRequest(
        List.of(transactPut("2", "open"), transactPut("3", "open")), null, null, null)))
        .isInstanceOf(StorageException.class);
    assertThat(history()).hasSize(1);

    storage.failCommitsAfterWriting(1);
    assertThatThrownBy(() -> put("1", "shipped")).isInstanceOf(StorageException.class);
    assertThat(history()).hasSize(2); // written, answer lost: the change and its record
    db.transactWriteItems(new TransactWriteItemsRequest(
        List.of(transactPut("2", "open"), transactPut("3", "open")), null, null, null));
    assertThat(history()).hasSize(4);

    put("1", "shipped"); // the same item again: no change, no record
    delete("9"); // nothing to delete: no change, no record
    assertThat(history()).hasSize(4);
  }

  @Test
  void theRecordsOfOneCommitCarryOneTimeThoughTheClockTurnsWhileItIsStaged() {
    MemoryStorage store = new MemoryStorage();
    try (Engine ticking =
        new Engine(store, EngineOptions.defaults().withClock(ManualClock.ticking(START)))) {
      ticking.createTable(new CreateTableRequest("Orders",
          List.of(new AttributeDefinition("id", "S")),
          List.of(new KeySchemaElement("id", "HASH")), null, null, "PAY_PER_REQUEST", null, null,
          null, null, null, null, null, null));
      ticking.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders",
          new PointInTimeRecoverySpecification(true, null)));
      ticking.transactWriteItems(new TransactWriteItemsRequest(List.of(transactPut("1", "a"),
          transactPut("2", "a"), transactPut("3", "a")), null, null, null));
      TableDefinition t = new Catalog(store).get("Orders").orElseThrow().table();
      List<StoredRecord> records = store.scan(t.history(), null, null, null, 10);
      assertThat(records).hasSize(3)
          .extracting(r -> ByteBuffer.wrap(r.key().sort()).getLong()).containsOnly(
              ByteBuffer.wrap(records.get(0).key().sort()).getLong());
    }
  }

  @Test
  void theItemAsOfATimeComesFromTheHistoryAndTheLiveTable() {
    createOrders();
    put("kept", "before recovery");
    put("changed", "before recovery");
    enable(null);
    Instant enabled = clock.instant();
    clock.advanceSeconds(10);
    put("changed", "v1");
    put("new", "v1");
    Instant t1 = clock.instant();
    clock.advanceSeconds(10);
    put("changed", "v2");
    delete("new");
    put("changed", "v3"); // two changes in one millisecond: the later wins
    Instant t2 = clock.instant();

    assertThat(asOf("kept", enabled)).containsEntry("status", AttributeValue.s("before recovery"));
    assertThat(asOf("kept", t2)).containsEntry("status", AttributeValue.s("before recovery"));
    assertThat(asOf("changed", enabled))
        .containsEntry("status", AttributeValue.s("before recovery"));
    assertThat(asOf("changed", t1)).containsEntry("status", AttributeValue.s("v1"));
    assertThat(asOf("changed", t2)).containsEntry("status", AttributeValue.s("v3"));
    assertThat(asOf("new", enabled)).isNull();
    assertThat(asOf("new", t1)).containsEntry("status", AttributeValue.s("v1"));
    assertThat(asOf("new", t2)).isNull();
  }

  @Test
  void trimmingDeletesWhatIsOlderThanTheWindowAndKeepsEveryTimeInsideIt() {
    createOrders();
    enable(1);
    put("a", "v1");
    put("b", "v1");
    clock.advance(Duration.ofHours(12));
    put("a", "v2");
    Instant t = clock.instant();
    clock.advance(Duration.ofHours(18)); // the first records are now 30 hours old

    assertThat(db.trimChangeHistory()).isEqualTo(2);
    assertThat(history()).hasSize(1);
    Instant earliest = describe().earliestRestorableDateTime();
    assertThat(asOf("a", earliest)).containsEntry("status", AttributeValue.s("v1"));
    assertThat(asOf("a", t)).containsEntry("status", AttributeValue.s("v2"));
    assertThat(asOf("b", earliest)).containsEntry("status", AttributeValue.s("v1"));
    assertThat(db.trimChangeHistory()).isZero();
  }

  @Test
  void disablingRecoveryOrDeletingTheTableDropsTheHistory() {
    createOrders();
    enable(null);
    put("1", "open");
    String history = orders().history();
    db.updateContinuousBackups(new UpdateContinuousBackupsRequest("Orders",
        new PointInTimeRecoverySpecification(false, null)));
    assertThat(memory.spaces()).doesNotContain(history);
    put("1", "shipped"); // commits without a history

    enable(null);
    put("1", "closed");
    assertThat(history()).hasSize(1);
    db.deleteTable(new DeleteTableRequest("Orders"));
    assertThat(memory.spaces()).doesNotContain(history);
  }

  private static TransactWriteItem transactPut(String id, String status) {
    return new TransactWriteItem(null,
        new Put(item("id", id, "status", status), "Orders", null, null, null, null), null, null);
  }
}
