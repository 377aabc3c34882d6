package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.BatchGetItemRequest;
import io.stator.api.BatchGetItemResponse;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.CancellationReason;
import io.stator.api.Capacity;
import io.stator.api.ConditionCheck;
import io.stator.api.ConsumedCapacity;
import io.stator.api.CreateTableRequest;
import io.stator.api.Delete;
import io.stator.api.DeleteRequest;
import io.stator.api.Get;
import io.stator.api.GetItemRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.KeysAndAttributes;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.ProvisionedThroughputExceededException;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.PutRequest;
import io.stator.api.ThrottlingException;
import io.stator.api.ThrottlingReason;
import io.stator.api.TransactGetItem;
import io.stator.api.TransactGetItemsRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactionCanceledException;
import io.stator.api.Update;
import io.stator.api.WriteRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.item.ItemSize;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ConsumedCapacity of BatchGetItem, BatchWriteItem, TransactWriteItems and TransactGetItems with
 * the Developer Guide's examples, and enforce-mode throttling of batches (UnprocessedKeys,
 * UnprocessedItems, the all-throttled errors) and transactions (cancelled as a whole), on a
 * hand-moved clock.
 */
class MultiItemCapacityTest {
  private static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private Engine db;

  private Engine open(CapacityMode mode) {
    db = (Engine) Stator.open(new MemoryStorage(),
        EngineOptions.defaults().withClock(clock).withCapacityMode(mode));
    return db;
  }

  @AfterEach
  void close() {
    if (db != null) {
      db.close();
    }
  }

  private void table(String name, ProvisionedThroughput throughput) {
    db.createTable(new CreateTableRequest(name,
        List.of(new AttributeDefinition("pk", "S")),
        List.of(new KeySchemaElement("pk", "HASH")),
        null, null, throughput == null ? "PAY_PER_REQUEST" : null, throughput, null, null, null,
        null, null, null, null));
  }

  /** An item of exactly {@code size} bytes by DynamoDB's measure. */
  private static Map<String, AttributeValue> item(String pk, int size) {
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", new AttributeValue.S(pk));
    long keySize = ItemSize.of(item);
    item.put("d", new AttributeValue.S("x".repeat((int) (size - keySize - 1))));
    assertThat(ItemSize.of(item)).isEqualTo(size);
    return item;
  }

  private static Map<String, AttributeValue> key(String pk) {
    return Map.of("pk", new AttributeValue.S(pk));
  }

  private void put(String table, Map<String, AttributeValue> item) {
    db.putItem(new PutItemRequest(table, item, null, null, null, null, null, null, null, null,
        null));
  }

  private static WriteRequest putRequest(Map<String, AttributeValue> item) {
    return new WriteRequest(new PutRequest(item), null);
  }

  private static WriteRequest deleteRequest(String pk) {
    return new WriteRequest(null, new DeleteRequest(key(pk)));
  }

  /** A batch's TOTAL: CapacityUnits alone, without the read/write split. */
  private static ConsumedCapacity batch(String table, double read, double write) {
    return new ConsumedCapacity(table, read + write, null, null, null, null, null);
  }

  /** A transaction's TOTAL: CapacityUnits and the read/write split. */
  private static ConsumedCapacity total(String table, double read, double write) {
    return new ConsumedCapacity(table, read + write, read > 0 ? read : null,
        write > 0 ? write : null, null, null, null);
  }

  // ---- figures ------------------------------------------------------------------------------

  @Test
  void batchGetItemRoundsEachItemOnItsOwn() {
    open(CapacityMode.OBSERVE);
    table("Tbl", null);
    table("Uno", null);
    // The Developer Guide's example: a 1.5 KB and a 6.5 KB item are 4 KB + 8 KB, not 8 KB.
    put("Tbl", item("a", 1536));
    put("Tbl", item("b", 6656));
    put("Uno", item("c", 100));
    BatchGetItemResponse r = db.batchGetItem(new BatchGetItemRequest(Map.of(
        "Tbl", new KeysAndAttributes(List.of(key("a"), key("b")), null, true, null, null),
        "Uno", new KeysAndAttributes(List.of(key("c"), key("missing")), null, null, null, null)),
        "TOTAL"));
    assertThat(r.consumedCapacity()).containsExactlyInAnyOrder(
        batch("Tbl", 3.0, 0), // strongly consistent: 1 + 2
        batch("Uno", 1.0, 0)); // eventually consistent: 0.5 + the minimum 0.5 for a missing item
    assertThat(r.responses().get("Tbl")).hasSize(2);
  }

  @Test
  void batchGetItemIndexesShapeAndNone() {
    open(CapacityMode.OBSERVE);
    table("Tbl", null);
    put("Tbl", item("a", 5000));
    Map<String, KeysAndAttributes> keys = Map.of("Tbl",
        new KeysAndAttributes(List.of(key("a")), null, false, null, null));
    assertThat(db.batchGetItem(new BatchGetItemRequest(keys, "INDEXES")).consumedCapacity())
        .containsExactly(new ConsumedCapacity("Tbl", 1.0, null, null,
            new Capacity(null, null, 1.0), null, null));
    assertThat(db.batchGetItem(new BatchGetItemRequest(keys, "NONE")).consumedCapacity())
        .isNull();
    assertThat(db.batchGetItem(new BatchGetItemRequest(keys, null)).consumedCapacity()).isNull();
  }

  @Test
  void batchWriteItemPricesEachWriteAsPutItemOrDeleteItem() {
    open(CapacityMode.OBSERVE);
    table("Tbl", null);
    table("Uno", null);
    put("Tbl", item("old", 3000));
    BatchWriteItemResponse r = db.batchWriteItem(new BatchWriteItemRequest(Map.of(
        "Tbl", List.of(
            putRequest(item("new", 1536)), // 2 WCU
            putRequest(item("old", 500)), // replaces 3,000 bytes: the larger, 3 WCU
            deleteRequest("never-there")), // a delete of nothing still costs 1 WCU
        "Uno", List.of(putRequest(item("u", 100)))),
        "TOTAL", null));
    assertThat(r.consumedCapacity()).containsExactlyInAnyOrder(
        batch("Tbl", 0, 6.0), batch("Uno", 0, 1.0));
    assertThat(r.unprocessedItems()).isEmpty();
    // The partition model saw the writes too.
    assertThat(db.partitions("Tbl").partitions().stream().flatMap(p -> p.hotKeys().stream()))
        .extracting(PartitionReport.HotKey::partitionKey).contains("new", "old", "never-there");
  }

  @Test
  void transactWriteItemsCostsTwiceThePlainWriteAndConditionCheckConsumesWriteUnits() {
    open(CapacityMode.OBSERVE);
    table("Tbl", null);
    table("Uno", null);
    put("Tbl", item("checked", 1500));
    put("Tbl", item("updated", 2500));
    var response = db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(item("p", 1536), "Tbl", null, null, null, null),
            null, null), // 2 KB: 4 WCU
        new TransactWriteItem(new ConditionCheck(key("checked"), "Tbl",
            "attribute_exists(pk)", null, null, null), null, null, null), // 2 KB: 4 WCU
        new TransactWriteItem(null, null, new Delete(key("gone"), "Uno", null, null, null, null),
            null), // nothing to delete: 2 WCU
        new TransactWriteItem(null, null, null, new Update(key("updated"), "REMOVE d", "Tbl",
            null, null, null, null))), // the larger of 2,500 bytes and the key: 6 WCU
        "TOTAL", null, null));
    assertThat(response.consumedCapacity()).containsExactly(
        total("Tbl", 0, 14.0), total("Uno", 0, 2.0));
  }

  @Test
  void transactGetItemsCostsTwiceTheStronglyConsistentRead() {
    open(CapacityMode.OBSERVE);
    table("Tbl", null);
    put("Tbl", item("a", 1536));
    put("Tbl", item("b", 6656));
    var response = db.transactGetItems(new TransactGetItemsRequest(List.of(
        new TransactGetItem(new Get(key("a"), "Tbl", null, null)),
        new TransactGetItem(new Get(key("b"), "Tbl", "pk", null)), // the projection saves nothing
        new TransactGetItem(new Get(key("missing"), "Tbl", null, null))), "INDEXES"));
    assertThat(response.consumedCapacity()).containsExactly(
        new ConsumedCapacity("Tbl", 8.0, 8.0, null, new Capacity(8.0, null, 8.0), null, null));
  }

  @Test
  void aRepeatedTransactionReportsTheReadsOfItsItems() {
    open(CapacityMode.OBSERVE);
    table("Tbl", null);
    TransactWriteItemsRequest request = new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(item("p", 5000), "Tbl", null, null, null, null),
            null, null)), "TOTAL", null, "token-1");
    assertThat(db.transactWriteItems(request).consumedCapacity())
        .containsExactly(total("Tbl", 0, 10.0));
    // Documented: the repeat reports the read units of reading the item (5,000 bytes: 2 RCU).
    assertThat(db.transactWriteItems(request).consumedCapacity())
        .containsExactly(total("Tbl", 2.0, 0));
  }

  // ---- throttling ---------------------------------------------------------------------------

  /** Strongly consistent GetItems of a missing key (1 RCU each) until the model refuses one. */
  private int readUntilThrottled(String table) {
    for (int i = 0; i < 100_000; i++) {
      try {
        db.getItem(new GetItemRequest(table, key("drain"), true, null, null, null, null));
      } catch (ProvisionedThroughputExceededException e) {
        return i;
      }
    }
    throw new AssertionError("never throttled");
  }

  /** PutItems of 1 KB or less on {@code pk} until the model refuses one. */
  private int writeUntilThrottled(String table, String pk) {
    for (int i = 0; i < 100_000; i++) {
      try {
        put(table, item(pk, 100));
      } catch (ProvisionedThroughputExceededException e) {
        return i;
      }
    }
    throw new AssertionError("never throttled");
  }

  @Test
  void batchGetItemReturnsThrottledKeysAsUnprocessedAndFailsOnlyWhenNoneWasRead() {
    open(CapacityMode.ENFORCE);
    table("Tbl", new ProvisionedThroughput(1L, 1L)); // 1 RCU/s: 300 RCU of burst
    put("Tbl", item("a", 100));
    put("Tbl", item("b", 100));
    assertThat(readUntilThrottled("Tbl")).isGreaterThanOrEqualTo(299);
    clock.advanceSeconds(1); // one more RCU: one strongly consistent read of a small item
    BatchGetItemResponse r = db.batchGetItem(new BatchGetItemRequest(Map.of("Tbl",
        new KeysAndAttributes(List.of(key("a"), key("b")), null, true, null, null)), "TOTAL"));
    assertThat(r.responses().get("Tbl")).hasSize(1);
    assertThat(r.unprocessedKeys().get("Tbl").keys()).hasSize(1);
    assertThat(r.unprocessedKeys().get("Tbl").consistentRead()).isTrue();
    assertThat(r.consumedCapacity()).containsExactly(batch("Tbl", 1.0, 0));
    // Nothing left: no key can be read, and the whole call fails.
    assertThatThrownBy(() -> db.batchGetItem(new BatchGetItemRequest(Map.of("Tbl",
        new KeysAndAttributes(List.of(key("a"), key("b")), null, true, null, null)), null)))
        .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e ->
            assertThat(e.throttlingReasons()).containsExactly(new ThrottlingReason(
                "TableReadProvisionedThroughputExceeded", ARN + "Tbl")));
  }

  @Test
  void batchWriteItemReturnsThrottledWritesAsUnprocessedItems() {
    open(CapacityMode.ENFORCE);
    // 990 WCU/s provisioned on one partition: the partition's 1,000 WCU/s ceiling binds first.
    table("Tbl", new ProvisionedThroughput(10L, 990L));
    assertThat(writeUntilThrottled("Tbl", "hot")).isEqualTo(1000);
    clock.advance(Duration.ofMillis(2)); // the ceiling refills 2 WCU
    WriteRequest third = putRequest(item("c", 100));
    BatchWriteItemResponse r = db.batchWriteItem(new BatchWriteItemRequest(Map.of("Tbl",
        List.of(putRequest(item("a", 100)), putRequest(item("b", 100)), third)), "TOTAL", null));
    assertThat(r.unprocessedItems()).isEqualTo(Map.of("Tbl", List.of(third)));
    assertThat(r.consumedCapacity()).containsExactly(batch("Tbl", 0, 2.0));
    assertThat(db.getItem(new GetItemRequest("Tbl", key("c"), true, null, null, null, null))
        .item()).isNull();
    assertThat(db.getItem(new GetItemRequest("Tbl", key("b"), true, null, null, null, null))
        .item()).isNotNull();
  }

  @Test
  void batchWriteItemWithNothingProcessedFailsWithThrottlingOrProvisionedThroughput() {
    open(CapacityMode.ENFORCE);
    table("Hot", new ProvisionedThroughput(10L, 990L));
    writeUntilThrottled("Hot", "hot");
    // Only the partition's ceiling ran out: ThrottlingException, as documented for batches.
    assertThatThrownBy(() -> db.batchWriteItem(new BatchWriteItemRequest(Map.of("Hot",
        List.of(putRequest(item("a", 100)), deleteRequest("b"))), null, null)))
        .isInstanceOfSatisfying(ThrottlingException.class, e ->
            assertThat(e.throttlingReasons()).containsExactly(new ThrottlingReason(
                "TableWriteKeyRangeThroughputExceeded", ARN + "Hot")));

    table("Small", new ProvisionedThroughput(1L, 1L)); // 300 WCU of burst
    writeUntilThrottled("Small", "k");
    assertThatThrownBy(() -> db.batchWriteItem(new BatchWriteItemRequest(Map.of("Small",
        List.of(putRequest(item("a", 100)))), null, null)))
        .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e ->
            assertThat(e.throttlingReasons()).containsExactly(new ThrottlingReason(
                "TableWriteProvisionedThroughputExceeded", ARN + "Small")));
  }

  @Test
  void aThrottledTransactionIsCancelledAsAWholeAndWritesNothing() {
    open(CapacityMode.ENFORCE);
    table("Free", null);
    table("Small", new ProvisionedThroughput(1L, 1L));
    writeUntilThrottled("Small", "k");
    assertThatThrownBy(() -> db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(item("x", 100), "Free", null, null, null, null),
            null, null),
        new TransactWriteItem(null, new Put(item("y", 100), "Small", null, null, null, null),
            null, null)), null, null, null)))
        .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
          assertThat(e.cancellationReasons()).extracting(CancellationReason::code)
              .containsExactly("None", "ProvisionedThroughputExceeded");
          assertThat(e.cancellationReasons().get(1).message()).isEqualTo(
              "The level of configured provisioned throughput for the table was exceeded."
                  + " Consider increasing your provisioning level with the UpdateTable API.");
        });
    assertThat(db.getItem(new GetItemRequest("Free", key("x"), true, null, null, null, null))
        .item()).isNull();

    table("Reads", new ProvisionedThroughput(1L, 1L));
    readUntilThrottled("Reads");
    assertThatThrownBy(() -> db.transactGetItems(new TransactGetItemsRequest(List.of(
        new TransactGetItem(new Get(key("x"), "Free", null, null)),
        new TransactGetItem(new Get(key("y"), "Reads", null, null))), null)))
        .isInstanceOfSatisfying(TransactionCanceledException.class, e ->
            assertThat(e.cancellationReasons()).extracting(CancellationReason::code)
                .containsExactly("None", "ProvisionedThroughputExceeded"));
  }

  @Test
  void anOnDemandTableCancelsWithThrottlingError() {
    open(CapacityMode.ENFORCE);
    table("OnDemand", null);
    writeUntilThrottled("OnDemand", "hot"); // one key: its partition's 1,000 WCU/s
    assertThatThrownBy(() -> db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(item("hot", 100), "OnDemand", null, null, null,
            null), null, null)), null, null, null)))
        .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
          assertThat(e.cancellationReasons()).extracting(CancellationReason::code)
              .containsExactly("ThrottlingError");
          assertThat(e.cancellationReasons().get(0).message())
              .startsWith("Throughput exceeds the current capacity of your table or index.");
        });
  }

  @Test
  void observeModeServesBatchesAndCountsTheirThrottles() {
    open(CapacityMode.OBSERVE);
    table("Tbl", new ProvisionedThroughput(10L, 990L));
    for (int i = 0; i < 1000; i++) {
      put("Tbl", item("hot", 100));
    }
    BatchWriteItemResponse r = db.batchWriteItem(new BatchWriteItemRequest(Map.of("Tbl",
        List.of(putRequest(item("hot", 100)))), "TOTAL", null));
    assertThat(r.unprocessedItems()).isEmpty();
    assertThat(r.consumedCapacity()).containsExactly(batch("Tbl", 0, 1.0));
    assertThat(db.partitions("Tbl").writeThrottles()).isEqualTo(1);
  }
}
