package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.values;
import static io.stator.engine.IndexesTest.indexQuery;
import static io.stator.engine.IndexesTest.order;
import static io.stator.engine.IndexesTest.orders;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.ConsumedCapacity;
import io.stator.api.Delete;
import io.stator.api.Put;
import io.stator.api.PutRequest;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactWriteItemsResponse;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.api.WriteRequest;
import io.stator.capacity.ManualClock;
import io.stator.schema.Catalog;
import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * BatchWriteItem and TransactWriteItems on a table with secondary indexes: each write stages its
 * index changes and is charged to the capacity model, its ConsumedCapacity adds the index writes
 * to the table's, and a change of the table's definition between a write's read and its commit
 * (which makes the write start over against the new definition) does not charge it twice.
 *
 * <p>The orders table has an LSI (ByTotal) and two GSIs (ProductOrderIndex; PendingIndex, sparse
 * on pendingAt), so a new order with pendingAt costs one write in each of three indexes and one
 * without it in two, each entry under 1 KB. The partition model is charged the table's writes.
 */
class IndexedMultiItemCapacityTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private final DefinitionChangingStorage storage =
      new DefinitionChangingStorage(new MemoryStorage());
  private final Engine db =
      new Engine(storage, EngineOptions.defaults().withClock(clock)
          .withTimeToLiveSweepInterval(Duration.ZERO));

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void aBatchStagesIndexChangesAndReportsItsCapacity() throws Exception {
    db.createTable(orders("Orders"));
    BatchWriteItemResponse r = db.batchWriteItem(new BatchWriteItemRequest(Map.of("Orders",
        List.of(putRequest(order("u", "o1", "prod", "3", "new", "p")),
            putRequest(order("u", "o2", "prod", "1", "new", null)))), "TOTAL", null));
    assertThat(r.unprocessedItems()).isEmpty();
    // Table 1 + 1; indexes 3 for o1 (with pendingAt) and 2 for o2.
    assertThat(r.consumedCapacity()).containsExactly(batchWrites("Orders", 7.0));
    assertIndexed("prod", "o1", "o2");
    assertThat(writeUnitsOf("u")).isEqualTo(2.0);
  }

  @Test
  void aTransactionStagesIndexChangesAndReportsItsCapacity() throws Exception {
    db.createTable(orders("Orders"));
    TransactWriteItemsResponse r = db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null,
            new Put(order("u", "o1", "prod", "3", "new", "p"), "Orders", null, null, null, null),
            null, null),
        new TransactWriteItem(null, null,
            new Delete(item("userId", "u", "orderId", "o0"), "Orders", null, null, null, null),
            null)),
        "TOTAL", null, null));
    // Twice the plain cost: 2 WCU for the put and 2 for the delete of nothing, and 2 in each of
    // the three indexes the put enters.
    assertThat(r.consumedCapacity()).containsExactly(writes("Orders", 10.0));
    assertIndexed("prod", "o1");
    assertThat(writeUnitsOf("u")).isEqualTo(4.0);
  }

  @Test
  void aBatchWriteThatStartsOverAfterADefinitionChangeIsChargedOnce() throws Exception {
    db.createTable(orders("Orders"));
    storage.beforeNextItemCommit(this::changeDefinition);
    BatchWriteItemResponse r = db.batchWriteItem(new BatchWriteItemRequest(Map.of("Orders",
        List.of(putRequest(order("u", "o1", "prod", "3", "new", "p")))), "TOTAL", null));
    assertThat(storage.itemCommits).as("the first commit failed, the second landed")
        .isEqualTo(2);
    // The table write once, and the index writes of the attempt that landed: 1 + 3.
    assertThat(r.consumedCapacity()).containsExactly(batchWrites("Orders", 4.0));
    assertThat(writeUnitsOf("u")).isEqualTo(1.0);
    assertIndexed("prod", "o1");
  }

  @Test
  void aTransactionThatStartsOverAfterADefinitionChangeIsChargedOnce() throws Exception {
    db.createTable(orders("Orders"));
    storage.beforeNextItemCommit(this::changeDefinition);
    TransactWriteItemsResponse r = db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null,
            new Put(order("u", "o1", "prod", "3", "new", "p"), "Orders", null, null, null, null),
            null, null)),
        "TOTAL", null, null));
    assertThat(storage.itemCommits).as("the first commit failed, the second landed")
        .isEqualTo(2);
    // The table write once, and the index writes of the attempt that landed: 2 + 2 * 3.
    assertThat(r.consumedCapacity()).containsExactly(writes("Orders", 8.0));
    assertThat(writeUnitsOf("u")).isEqualTo(2.0);
    assertIndexed("prod", "o1");
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** A real change of the table's catalog record: its Time to Live setting. */
  private void changeDefinition() {
    db.updateTimeToLive(
        new UpdateTimeToLiveRequest("Orders", new TimeToLiveSpecification(true, "expiresAt")));
  }

  private static WriteRequest putRequest(Map<String, AttributeValue> item) {
    return new WriteRequest(new PutRequest(item), null);
  }

  /** A transaction's TOTAL: with the read/write split. */
  private static ConsumedCapacity writes(String table, double units) {
    return new ConsumedCapacity(table, units, null, units, null, null, null);
  }

  /** A batch's TOTAL: CapacityUnits alone. */
  private static ConsumedCapacity batchWrites(String table, double units) {
    return new ConsumedCapacity(table, units, null, null, null, null, null);
  }

  /** The write units the partition model charged to one partition key. */
  private double writeUnitsOf(String partitionKey) {
    return Fixtures.writeUnitsOf(db, "Orders", partitionKey);
  }

  /** The GSI by product and the LSI by total hold exactly these orders. */
  private void assertIndexed(String product, String... orderIds) throws Exception {
    assertThat(db.awaitIndexes(Duration.ofSeconds(30))).as("indexes caught up").isTrue();
    assertThat(db.query(indexQuery("Orders", "ProductOrderIndex", "productId = :p",
            values(":p", product))).items())
        .extracting(i -> i.get("orderId"))
        .containsExactlyInAnyOrder(ids(orderIds));
    assertThat(db.query(indexQuery("Orders", "ByTotal", "userId = :u", values(":u", "u")))
            .items())
        .extracting(i -> i.get("orderId"))
        .containsExactlyInAnyOrder(ids(orderIds));
  }

  private static AttributeValue[] ids(String... orderIds) {
    AttributeValue[] out = new AttributeValue[orderIds.length];
    for (int i = 0; i < orderIds.length; i++) {
      out[i] = AttributeValue.s(orderIds[i]);
    }
    return out;
  }

  /**
   * A storage that, once armed, runs an action just before the next commit of an item write
   * that expects a catalog version (as every indexed write does), as if a concurrent UpdateTable
   * had landed between the write's read and its commit; it counts such commits from then on.
   */
  private static final class DefinitionChangingStorage extends InterceptingStorage {
    private volatile Runnable beforeNext;
    private volatile boolean counting;
    volatile int itemCommits;

    DefinitionChangingStorage(Storage delegate) {
      super(delegate);
    }

    void beforeNextItemCommit(Runnable action) {
      beforeNext = action;
      counting = true;
    }

    @Override
    protected void beforeCommit(Commit commit) {
      boolean itemWrite =
          commit.expectations().stream().anyMatch(e -> Catalog.changedTable(e).isPresent())
              && commit.writes().stream().anyMatch(w -> w.space().startsWith("table."));
      if (itemWrite && counting) {
        itemCommits++;
        Runnable action = beforeNext;
        beforeNext = null;
        if (action != null) {
          action.run();
        }
      }
    }
  }
}
