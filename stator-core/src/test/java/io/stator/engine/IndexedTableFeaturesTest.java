package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.Fixtures.values;
import static io.stator.engine.IndexesTest.indexQuery;
import static io.stator.engine.IndexesTest.indexScan;
import static io.stator.engine.IndexesTest.order;
import static io.stator.engine.IndexesTest.orders;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.ConsumedCapacity;
import io.stator.api.GetItemRequest;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Secondary indexes together with Time to Live and consumed capacity: expired items leave every
 * index, and reads of an index report their capacity under the index's name.
 */
class IndexedTableFeaturesTest {
  private final Engine db =
      new Engine(
          new MemoryStorage(),
          EngineOptions.defaults().withTimeToLiveSweepInterval(Duration.ZERO));

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void theTimeToLiveSweepRemovesExpiredItemsFromEveryIndex() throws Exception {
    db.createTable(orders("Orders"));
    db.updateTimeToLive(
        new UpdateTimeToLiveRequest("Orders", new TimeToLiveSpecification(true, "expiresAt")));
    long now = System.currentTimeMillis() / 1000;
    Map<String, AttributeValue> expired = order("u", "o1", "prod-1", "10", "pending", "p");
    expired.put("expiresAt", AttributeValue.n(Long.toString(now - 60)));
    Map<String, AttributeValue> live = order("u", "o2", "prod-1", "20", "pending", "p");
    live.put("expiresAt", AttributeValue.n(Long.toString(now + 3600)));
    put(db, "Orders", expired);
    put(db, "Orders", live);
    await();
    assertThat(db.scan(indexScan("Orders", "ProductOrderIndex", null, null)).count())
        .isEqualTo(2);

    assertThat(db.sweepExpiredItems()).isEqualTo(1);
    await();

    assertThat(db.getItem(new GetItemRequest(
            "Orders", item("userId", "u", "orderId", "o1"), null, null, null, null, null))
        .item()).isNull();
    // LSI: same commit as the delete.
    assertThat(db.query(indexQuery("Orders", "ByTotal", "userId = :u", values(":u", "u")))
            .items())
        .extracting(i -> i.get("orderId"))
        .containsExactly(AttributeValue.s("o2"));
    // GSIs: through the change log.
    assertThat(db.query(indexQuery("Orders", "ProductOrderIndex", "productId = :p",
            values(":p", "prod-1"))).items())
        .extracting(i -> i.get("orderId"))
        .containsExactly(AttributeValue.s("o2"));
    assertThat(db.query(indexQuery("Orders", "PendingIndex", "pendingAt = :p",
            values(":p", "p"))).items())
        .extracting(i -> i.get("orderId"))
        .containsExactly(AttributeValue.s("o2"));
  }

  @Test
  void aWriteToAnIndexedTableReportsItsCapacity() throws Exception {
    db.createTable(orders("Orders"));
    ConsumedCapacity consumed =
        db.putItem(new PutItemRequest("Orders", order("u", "o1", "prod-1", "10", "shipped", "p"),
                null, null, null, null, "TOTAL", null, null, null, null))
            .consumedCapacity();
    assertThat(consumed.tableName()).isEqualTo("Orders");
    // 1 for the table and 1 for each index the new item enters (ByTotal, ProductOrderIndex,
    // PendingIndex).
    assertThat(consumed.capacityUnits()).isEqualTo(4.0);
    await();
    assertThat(db.query(indexQuery("Orders", "PendingIndex", "pendingAt = :p",
            values(":p", "p"))).count())
        .isEqualTo(1);
  }

  @Test
  void indexReadsReportTheirCapacityUnderTheIndex() throws Exception {
    db.createTable(orders("Orders"));
    put(db, "Orders", order("u", "o1", "prod-1", "10", "shipped", null));
    put(db, "Orders", order("u", "o2", "prod-1", "20", "shipped", null));
    await();

    ConsumedCapacity global =
        db.query(query("ProductOrderIndex", null, "productId = :p", null, values(":p", "prod-1"),
                "INDEXES"))
            .consumedCapacity();
    assertThat(global.capacityUnits()).isEqualTo(0.5); // eventually consistent, one block
    assertThat(global.globalSecondaryIndexes()).containsOnlyKeys("ProductOrderIndex");
    assertThat(global.globalSecondaryIndexes().get("ProductOrderIndex").capacityUnits())
        .isEqualTo(0.5);
    assertThat(global.localSecondaryIndexes()).isNull();

    ConsumedCapacity local =
        db.query(query("ByTotal", true, "userId = :u", null, values(":u", "u"), "INDEXES"))
            .consumedCapacity();
    assertThat(local.capacityUnits()).isEqualTo(1.0); // strongly consistent, one block
    assertThat(local.localSecondaryIndexes()).containsOnlyKeys("ByTotal");
    assertThat(local.globalSecondaryIndexes()).isNull();

    // Attributes the LSI does not project are fetched from the table, at extra cost.
    ConsumedCapacity fetching =
        db.query(query("ByTotal", true, "userId = :u", "productName", values(":u", "u"),
                "TOTAL"))
            .consumedCapacity();
    assertThat(fetching.capacityUnits()).isGreaterThan(local.capacityUnits());
  }

  private static QueryRequest query(
      String index, Boolean consistent, String keyCondition, String projection,
      Map<String, AttributeValue> values, String returnConsumedCapacity) {
    return new QueryRequest("Orders", index, null, null, consistent, null, null, keyCondition,
        null, projection, null, values, returnConsumedCapacity, null, null, null, null);
  }

  private void await() throws InterruptedException {
    assertThat(db.awaitIndexes(Duration.ofSeconds(30))).as("indexes caught up").isTrue();
  }
}
