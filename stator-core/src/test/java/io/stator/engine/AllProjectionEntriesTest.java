package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.IndexesTest.indexQuery;
import static io.stator.engine.IndexesTest.order;
import static io.stator.engine.IndexesTest.orders;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.BatchWriteItemRequest;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.PutRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.Update;
import io.stator.api.UpdateItemRequest;
import io.stator.api.WriteRequest;
import io.stator.item.ItemCodec;
import io.stator.storage.StorageException;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An index that projects ALL holds the item as the table does, so every write path hands the
 * index the table's own encoding: in memory, the item's bytes are held once for both (a table of
 * 1,000,000 items of ~1 KB with one such index held 2.6 GB of live heap when BatchWriteItem
 * encoded the entry again, 1.6 GB with one copy).
 */
class AllProjectionEntriesTest {
  private final MemoryStorage storage = new MemoryStorage();
  private final Engine db = new Engine(storage, EngineOptions.defaults());

  @AfterEach
  void close() {
    try {
      IndexInvariants.checkAll(db);
    } finally {
      db.close();
    }
  }

  @Test
  void putItemsTableRecordAndIndexEntryAreOneArray() throws Exception {
    db.createTable(orders("Orders"));
    Map<String, AttributeValue> order = order("u", "o1", "p1", "5", "new", null);
    db.putItem(new PutItemRequest("Orders", order, null, null, null, null, null, null, null,
        null, null));
    assertHeldOnce(order);
  }

  @Test
  void batchWriteItemsTableRecordAndIndexEntryAreOneArray() throws Exception {
    db.createTable(orders("Orders"));
    Map<String, AttributeValue> first = order("u", "o1", "p1", "5", "new", null);
    Map<String, AttributeValue> second = order("v", "o2", "p1", "7", "new", null);
    db.batchWriteItem(new BatchWriteItemRequest(Map.of("Orders", List.of(
        new WriteRequest(new PutRequest(first), null),
        new WriteRequest(new PutRequest(second), null))), null, null));
    assertHeldOnce(first);
    assertHeldOnce(second);
  }

  @Test
  void updateItemsTableRecordAndIndexEntryAreOneArray() throws Exception {
    db.createTable(orders("Orders"));
    db.updateItem(new UpdateItemRequest("Orders", item("userId", "u", "orderId", "o1"),
        "SET productId = :p, #t = :t", null, Map.of("#t", "total"),
        Map.of(":p", AttributeValue.s("p1"), ":t", AttributeValue.n("5")), null, null, null,
        null, null, null, null));
    assertHeldOnce(item("userId", "u", "orderId", "o1", "productId", "p1", "total",
        AttributeValue.n("5")));
  }

  @Test
  void transactionsTableRecordsAndIndexEntriesAreOneArrayEach() throws Exception {
    db.createTable(orders("Orders"));
    Map<String, AttributeValue> put = order("u", "o1", "p1", "5", "new", null);
    db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, new Put(put, "Orders", null, null, null, null), null, null),
        new TransactWriteItem(null, null, null, new Update(item("userId", "v", "orderId", "o2"),
            "SET productId = :p", "Orders", null, null, Map.of(":p", AttributeValue.s("p1")),
            null))),
        null, null, null));
    assertHeldOnce(put);
    assertHeldOnce(item("userId", "v", "orderId", "o2", "productId", "p1"));
  }

  /**
   * The item is stored twice, in the table and in its ALL index, both as one array; and the
   * index answers a Query with it.
   */
  private void assertHeldOnce(Map<String, AttributeValue> item) throws Exception {
    assertThat(db.awaitIndexes(Duration.ofSeconds(30))).as("indexes caught up").isTrue();
    List<byte[]> copies = new ArrayList<>();
    for (String space : storage.spaces()) {
      for (StoredRecord r : storage.scan(space, null, null, null, Integer.MAX_VALUE)) {
        if (holds(r.value(), item)) {
          copies.add(r.value());
        }
      }
    }
    assertThat(copies).as("the table's record and the ALL index's entry").hasSize(2);
    assertThat(copies.get(0)).isSameAs(copies.get(1));
    assertThat(db.query(indexQuery("Orders", "ProductOrderIndex", "productId = :p",
            Map.of(":p", item.get("productId")))).items())
        .contains(item);
  }

  private static boolean holds(byte[] value, Map<String, AttributeValue> item) {
    try {
      return ItemCodec.decode(value).equals(item);
    } catch (StorageException e) {
      return false; // a record that is not an item (the catalog's, a change log's)
    }
  }
}
