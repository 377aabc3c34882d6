package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.IndexesTest.order;
import static io.stator.engine.IndexesTest.orders;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.BatchWriteItemRequest;
import io.stator.api.Capacity;
import io.stator.api.ConsumedCapacity;
import io.stator.api.DeleteItemRequest;
import io.stator.api.ErrorType;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.PutRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactionCanceledException;
import io.stator.api.UpdateItemRequest;
import io.stator.api.WriteRequest;
import io.stator.item.ItemSize;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a write does beyond its item: index write capacity per index (ReturnConsumedCapacity
 * INDEXES) and item collections of tables with an LSI (ReturnItemCollectionMetrics and the size
 * limit).
 */
class IndexWritesTest {
  private final MemoryStorage storage = new MemoryStorage();
  private Engine db = new Engine(storage, EngineOptions.defaults());

  @AfterEach
  void close() {
    try {
      IndexInvariants.checkAll(db);
    } finally {
      db.close();
    }
  }

  // ---- index capacity ------------------------------------------------------------------------

  private ConsumedCapacity put(String table, Map<String, AttributeValue> item, String mode) {
    return db.putItem(new PutItemRequest(table, item, null, null, null, null, mode, null, null,
        null, null)).consumedCapacity();
  }

  private ConsumedCapacity update(String expression, Map<String, AttributeValue> values,
      Map<String, String> names) {
    return db.updateItem(new UpdateItemRequest("Orders",
        item("userId", "u", "orderId", "o1"), expression, null, names, values, null, "INDEXES",
        null, null, null, null, null)).consumedCapacity();
  }

  private static Capacity write(double units) {
    return new Capacity(null, null, units);
  }

  @Test
  void indexWritesAreChargedPerIndexByDynamoDbsRules() {
    db.createTable(orders("Orders"));
    // A new item with every index key: a put in each index.
    ConsumedCapacity created = put("Orders", order("u", "o1", "p1", "5", "pending", "t"),
        "INDEXES");
    assertThat(created.table()).isEqualTo(write(1));
    assertThat(created.localSecondaryIndexes()).isEqualTo(Map.of("ByTotal", write(1)));
    assertThat(created.globalSecondaryIndexes())
        .isEqualTo(Map.of("ProductOrderIndex", write(1), "PendingIndex", write(1)));
    assertThat(created.capacityUnits()).isEqualTo(4.0);
    assertThat(created.writeCapacityUnits()).as("no read/write split").isNull();

    // Changing a GSI key: a delete and a put in that index. KEYS_ONLY PendingIndex's entry and
    // ByTotal's (INCLUDE status) do not change: nothing there.
    ConsumedCapacity moved = update("SET productId = :p", Fixtures.values(":p", "p2"), null);
    assertThat(moved.globalSecondaryIndexes())
        .isEqualTo(Map.of("ProductOrderIndex", write(2)));
    assertThat(moved.localSecondaryIndexes()).isNull();
    assertThat(moved.capacityUnits()).isEqualTo(3.0);

    // Removing a sparse index key: a delete from that index (and ALL's entry changes).
    ConsumedCapacity left = update("REMOVE pendingAt", null, null);
    assertThat(left.globalSecondaryIndexes())
        .isEqualTo(Map.of("ProductOrderIndex", write(1), "PendingIndex", write(1)));

    // Changing a projected non-key attribute: one write in each index projecting it.
    ConsumedCapacity projected =
        update("SET #s = :s", Fixtures.values(":s", "shipped"), Map.of("#s", "status"));
    assertThat(projected.localSecondaryIndexes()).isEqualTo(Map.of("ByTotal", write(1)));
    assertThat(projected.globalSecondaryIndexes())
        .isEqualTo(Map.of("ProductOrderIndex", write(1)));

    // Changing the LSI sort key: a delete and a put in the LSI.
    ConsumedCapacity resorted = update("SET #t = :t", Fixtures.values(":t", 7),
        Map.of("#t", "total"));
    assertThat(resorted.localSecondaryIndexes()).isEqualTo(Map.of("ByTotal", write(2)));

    // A big item costs its entry's size in an ALL index, 1 KB units; KEYS_ONLY stays small.
    Map<String, AttributeValue> big = order("u", "o2", "p1", "5", "s", "t");
    big.put("blob", AttributeValue.s("x".repeat(2900)));
    ConsumedCapacity bigPut = put("Orders", big, "INDEXES");
    assertThat(bigPut.table()).isEqualTo(write(3));
    assertThat(bigPut.globalSecondaryIndexes())
        .isEqualTo(Map.of("ProductOrderIndex", write(3), "PendingIndex", write(1)));

    // TOTAL counts index writes too.
    ConsumedCapacity total = db.deleteItem(new DeleteItemRequest("Orders",
        item("userId", "u", "orderId", "o2"), null, null, null, null, "TOTAL", null, null, null,
        null)).consumedCapacity();
    assertThat(total).isEqualTo(new ConsumedCapacity("Orders", 8.0, null, null, null, null, null));
  }

  @Test
  void aWriteThatLeavesEveryIndexEntryAsItWasCostsNoIndexWrites() {
    db.createTable(orders("Orders"));
    put("Orders", order("u", "o1", "p1", "5", "pending", null), null);
    ConsumedCapacity c = update("SET extra = :o", Fixtures.values(":o", "x"), null);
    // ProductOrderIndex projects ALL, so its entry changed; ByTotal (INCLUDE status) did not.
    assertThat(c.globalSecondaryIndexes()).isEqualTo(Map.of("ProductOrderIndex", write(1)));
    assertThat(c.localSecondaryIndexes()).isNull();
  }

  // ---- item collections ----------------------------------------------------------------------

  @Test
  void writesToTablesWithAnLsiReportTheirItemCollection() {
    db.createTable(orders("Orders"));
    ItemCollectionMetrics expected =
        new ItemCollectionMetrics(Map.of("userId", AttributeValue.s("u")), List.of(0.0, 1.0));
    assertThat(db.putItem(new PutItemRequest("Orders", order("u", "o1", "p", "1", "s", null),
        null, null, null, null, null, "SIZE", null, null, null)).itemCollectionMetrics())
        .isEqualTo(expected);
    assertThat(db.putItem(new PutItemRequest("Orders", order("u", "o2", "p", "1", "s", null),
        null, null, null, null, null, "NONE", null, null, null)).itemCollectionMetrics())
        .isNull();
    assertThat(db.updateItem(new UpdateItemRequest("Orders", item("userId", "u", "orderId", "o1"),
        "SET a = :a", null, null, Fixtures.values(":a", 1), null, null, "SIZE", null, null, null,
        null)).itemCollectionMetrics()).isEqualTo(expected);
    assertThat(db.deleteItem(new DeleteItemRequest("Orders", item("userId", "u", "orderId", "o1"),
        null, null, null, null, null, "SIZE", null, null, null)).itemCollectionMetrics())
        .isEqualTo(expected);

    var batch = db.batchWriteItem(new BatchWriteItemRequest(Map.of("Orders", List.of(
        new WriteRequest(new PutRequest(order("u", "o3", "p", "1", "s", null)), null),
        new WriteRequest(new PutRequest(order("v", "o3", "p", "1", "s", null)), null))),
        null, "SIZE"));
    assertThat(batch.itemCollectionMetrics().get("Orders")).containsExactly(expected,
        new ItemCollectionMetrics(Map.of("userId", AttributeValue.s("v")), List.of(0.0, 1.0)));

    var transaction = db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(order("w", "o1", "p", "1", "s", null), "Orders",
            null, null, null, null), null, null)), null, "SIZE", null));
    assertThat(transaction.itemCollectionMetrics().get("Orders")).containsExactly(
        new ItemCollectionMetrics(Map.of("userId", AttributeValue.s("w")), List.of(0.0, 1.0)));

    // A table without an LSI has no item collections: nothing is returned, even when asked.
    db.createTable(Fixtures.create("Plain", "pk", "S", null, null));
    assertThat(db.putItem(new PutItemRequest("Plain", item("pk", "a"), null, null, null, null,
        null, "SIZE", null, null, null)).itemCollectionMetrics()).isNull();
    expect(() -> db.putItem(new PutItemRequest("Plain", item("pk", "a"), null, null, null, null,
            null, "ALL", null, null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'ALL' at 'returnItemCollectionMetrics' failed to"
            + " satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]");
  }

  /** The size one item adds to its collection: the item and its ByTotal entry, 100 bytes each. */
  static long collectionSize(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> entry = new java.util.LinkedHashMap<>();
    for (String a : List.of("userId", "orderId", "total", "status")) {
      entry.put(a, item.get(a));
    }
    return ItemSize.of(item) + 100 + ItemSize.of(entry) + 100;
  }

  private Engine withLimit(long limit) {
    db.close();
    db = new Engine(new MemoryStorage(), EngineOptions.defaults()
        .withItemCollectionSizeLimit(limit));
    db.createTable(orders("Orders"));
    return db;
  }

  @Test
  void aWriteThatGrowsAnItemCollectionPastTheLimitFails() {
    Map<String, AttributeValue> first = order("u", "o1", "p", "1", "s", null);
    Map<String, AttributeValue> second = order("u", "o2", "p", "1", "s", null);
    Map<String, AttributeValue> third = order("u", "o3", "p", "1", "s", null);
    long limit = collectionSize(first) + collectionSize(second); // exactly two items
    withLimit(limit);
    Fixtures.put(db, "Orders", first);
    Fixtures.put(db, "Orders", second);
    String message = "Item collection size limit exceeded. The total size of an item collection"
        + " has exceeded the maximum limit of " + limit + " bytes";
    expect(() -> Fixtures.put(db, "Orders", third),
        ErrorType.ItemCollectionSizeLimitExceededException, message);
    // Growing an item of a full collection fails too; shrinking it does not.
    expect(() -> db.updateItem(new UpdateItemRequest("Orders",
            item("userId", "u", "orderId", "o1"), "SET extra = :x", null, null,
            Fixtures.values(":x", "x"), null, null, null, null, null, null, null)),
        ErrorType.ItemCollectionSizeLimitExceededException, message);
    db.updateItem(new UpdateItemRequest("Orders", item("userId", "u", "orderId", "o1"),
        "REMOVE productName", null, null, null, null, null, null, null, null, null, null));
    // Other collections are not affected.
    Fixtures.put(db, "Orders", order("someone-else", "o3", "p", "1", "s", null));
    // Deleting an item makes room again.
    db.deleteItem(Fixtures.delete("Orders", item("userId", "u", "orderId", "o2"), null));
    Fixtures.put(db, "Orders", third);
  }

  @Test
  void writesOfOneTransactionToOneCollectionAddUp() {
    Map<String, AttributeValue> a = order("u", "o1", "p", "1", "s", null);
    Map<String, AttributeValue> b = order("u", "o2", "p", "1", "s", null);
    withLimit(collectionSize(a) + collectionSize(b) - 1);
    TransactWriteItemsRequest both = new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(a, "Orders", null, null, null, null), null, null),
        new TransactWriteItem(null, new Put(b, "Orders", null, null, null, null), null, null)),
        null, null, null);
    assertThatThrownBy(() -> db.transactWriteItems(both))
        .isInstanceOfSatisfying(TransactionCanceledException.class, e ->
            assertThat(e.cancellationReasons()).extracting(r -> r.code())
                .containsExactly("None", "ItemCollectionSizeLimitExceeded"));
    // Nothing was written: each alone fits.
    Fixtures.put(db, "Orders", a);
  }

  @Test
  void concurrentWritesToOneCollectionKeepItsSizeExact() throws Exception {
    int writers = 4;
    int perWriter = 25;
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < writers * perWriter; i++) {
      Map<String, AttributeValue> item = order("u", String.format("o%03d", i), "p", "1", "s", null);
      items.add(item);
      total += collectionSize(item);
    }
    Map<String, AttributeValue> last = order("u", "zzz", "p", "1", "s", null);
    // Room for every item and not quite for one more.
    withLimit(total + collectionSize(last) - 1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int from = w * perWriter;
        done.add(pool.submit(() -> {
          for (int i = from; i < from + perWriter; i++) {
            Fixtures.put(db, "Orders", items.get(i));
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    expect(() -> Fixtures.put(db, "Orders", last),
        ErrorType.ItemCollectionSizeLimitExceededException,
        "Item collection size limit exceeded. The total size of an item collection has exceeded"
            + " the maximum limit of " + (total + collectionSize(last) - 1) + " bytes");
    db.deleteItem(Fixtures.delete("Orders", item("userId", "u", "orderId", "o000"), null));
    Fixtures.put(db, "Orders", last);
  }
}
