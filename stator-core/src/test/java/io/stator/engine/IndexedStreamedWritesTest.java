package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.IndexWritesTest.collectionSize;
import static io.stator.engine.IndexesTest.order;
import static io.stator.engine.IndexesTest.orders;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.BatchWriteItemRequest;
import io.stator.api.BatchWriteItemResponse;
import io.stator.api.Capacity;
import io.stator.api.ConsumedCapacity;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeStreamRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DescribeTimeToLiveRequest;
import io.stator.api.ErrorType;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetRecordsResponse;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.ItemCollectionMetrics;
import io.stator.api.Put;
import io.stator.api.PutRequest;
import io.stator.api.Record;
import io.stator.api.Shard;
import io.stator.api.StreamSpecification;
import io.stator.api.TimeToLiveSpecification;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactWriteItemsResponse;
import io.stator.api.TransactionCanceledException;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.api.WriteRequest;
import io.stator.capacity.ManualClock;
import io.stator.schema.Catalog;
import io.stator.schema.OrphanSpaces;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One write path for everything a write touches: on a table with an LSI, two GSIs and a stream,
 * each BatchWriteItem and TransactWriteItems write stages its index entries, its item collection
 * counter and its stream record in one commit, charges the table's partition once, and reports
 * the index writes (ConsumedCapacity) and the item collection (ItemCollectionMetrics). A write
 * refused by the item collection limit records nothing in the stream and does not hold back the
 * stream's later records. The catalog keeps every part of such a table across a restart.
 */
class IndexedStreamedWritesTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private final MemoryStorage storage = new MemoryStorage();
  private Engine db = open(EngineOptions.defaults());

  private Engine open(EngineOptions options) {
    return new Engine(storage, options.withClock(clock).withTimeToLiveSweepInterval(Duration.ZERO));
  }

  @AfterEach
  void close() {
    try {
      IndexInvariants.checkAll(db);
    } finally {
      db.close();
    }
  }

  @Test
  void aTransactionReportsIndexWritesDoubledItsCollectionsAndItsStreamRecords() {
    String arn = streamedOrders();
    TransactWriteItemsResponse r = db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        put(order("u", "o1", "prod", "3", "new", "p")),
        put(order("v", "o1", "prod", "3", "new", null))),
        "INDEXES", "SIZE", null));

    // Twice the plain cost everywhere: o1 of u enters all three indexes, o1 of v two of them.
    assertThat(r.consumedCapacity()).containsExactly(new ConsumedCapacity("Orders", 14.0, null,
        14.0, write(4), Map.of("ByTotal", write(4)),
        Map.of("ProductOrderIndex", write(4), "PendingIndex", write(2))));
    assertThat(r.itemCollectionMetrics().get("Orders"))
        .containsExactly(collection("u"), collection("v"));
    assertThat(records(arn)).extracting(Record::eventName).containsExactly("INSERT", "INSERT");
    // The two items are in different partitions, so in different shards: DynamoDB orders a
    // stream's records per item, never across shards.
    assertThat(records(arn)).extracting(rec -> rec.dynamodb().keys())
        .containsExactlyInAnyOrder(item("userId", "u", "orderId", "o1"),
            item("userId", "v", "orderId", "o1"));
    // The partition model is charged the table's writes, once.
    assertThat(writeUnitsOf("u")).isEqualTo(2.0);
    assertThat(writeUnitsOf("v")).isEqualTo(2.0);
  }

  @Test
  void aBatchReportsIndexWritesPerIndexItsCollectionsAndItsStreamRecords() {
    String arn = streamedOrders();
    BatchWriteItemResponse r = db.batchWriteItem(new BatchWriteItemRequest(Map.of("Orders",
        List.of(putRequest(order("u", "o1", "prod", "3", "new", "p")),
            putRequest(order("v", "o1", "prod", "3", "new", null)))), "INDEXES", "SIZE"));

    assertThat(r.unprocessedItems()).isEmpty();
    assertThat(r.consumedCapacity()).containsExactly(new ConsumedCapacity("Orders", 7.0, null,
        null, units(2), Map.of("ByTotal", units(2)),
        Map.of("ProductOrderIndex", units(2), "PendingIndex", units(1))));
    assertThat(r.itemCollectionMetrics().get("Orders"))
        .containsExactly(collection("u"), collection("v"));
    assertThat(records(arn)).extracting(Record::eventName).containsExactly("INSERT", "INSERT");
    assertThat(writeUnitsOf("u")).isEqualTo(1.0);
    assertThat(writeUnitsOf("v")).isEqualTo(1.0);
  }

  @Test
  void aWriteRefusedByTheCollectionLimitLeavesNoStreamRecordAndHoldsNothingBack() {
    Map<String, AttributeValue> first = order("u", "o1", "prod", "3", "new", null);
    db.close();
    db = open(EngineOptions.defaults().withItemCollectionSizeLimit(collectionSize(first)));
    String arn = streamedOrders();
    Fixtures.put(db, "Orders", first);

    String message = "Item collection size limit exceeded. The total size of an item collection"
        + " has exceeded the maximum limit of " + collectionSize(first) + " bytes";
    Map<String, AttributeValue> second = order("u", "o2", "prod", "3", "new", null);
    expect(() -> Fixtures.put(db, "Orders", second),
        ErrorType.ItemCollectionSizeLimitExceededException, message);
    expect(() -> db.batchWriteItem(new BatchWriteItemRequest(
            Map.of("Orders", List.of(putRequest(second))), null, null)),
        ErrorType.ItemCollectionSizeLimitExceededException, message);
    assertThatThrownBy(() -> db.transactWriteItems(new TransactWriteItemsRequest(List.of(
            put(order("w", "o1", "prod", "3", "new", null)), put(second)), null, null, null)))
        .isInstanceOfSatisfying(TransactionCanceledException.class, e ->
            assertThat(e.cancellationReasons()).extracting(c -> c.code())
                .containsExactly("None", "ItemCollectionSizeLimitExceeded"));

    // A later write of another collection is recorded and readable: no refused write left a
    // stream sequence number unresolved in front of it.
    Fixtures.put(db, "Orders", order("x", "o1", "prod", "3", "new", null));
    assertThat(records(arn)).extracting(rec -> rec.dynamodb().keys()) // shards in any order
        .containsExactlyInAnyOrder(item("userId", "u", "orderId", "o1"),
            item("userId", "x", "orderId", "o1"));
  }

  @Test
  void theCatalogKeepsEveryPartOfTheTableAndItsCountersAcrossARestart() {
    Map<String, AttributeValue> first = order("u", "o1", "prod", "3", "new", null);
    db.close();
    db = open(EngineOptions.defaults().withItemCollectionSizeLimit(collectionSize(first)));
    String arn = streamedOrders();
    db.updateTimeToLive(
        new UpdateTimeToLiveRequest("Orders", new TimeToLiveSpecification(true, "expiresAt")));
    db.updateContributorInsights(
        new UpdateContributorInsightsRequest("Orders", null, "ENABLE", null));
    Fixtures.put(db, "Orders", first);
    var definition = new Catalog(storage).get("Orders").orElseThrow().table();
    assertThat(Catalog.spaces(definition)).contains(definition.itemCollections());
    assertThat(storage.spaces())
        .contains(definition.enabledStream().space(definition.tableId()));

    // Spaces no table refers to, of every kind, go once seen unused from the start on for the
    // grace period; the table's stay.
    storage.createSpace("collections.gone");
    storage.createSpace("stream.gone.1");
    db.close();
    db = open(EngineOptions.defaults().withItemCollectionSizeLimit(collectionSize(first)));
    clock.advance(OrphanSpaces.GRACE);
    db.housekeepNow();
    assertThat(storage.spaces()).doesNotContain("collections.gone", "stream.gone.1")
        .contains(definition.itemCollections(),
            definition.enabledStream().space(definition.tableId()));

    assertThat(db.describeTable(new DescribeTableRequest("Orders")).table().latestStreamArn())
        .isEqualTo(arn);
    assertThat(db.describeTimeToLive(new DescribeTimeToLiveRequest("Orders"))
        .timeToLiveDescription().attributeName()).isEqualTo("expiresAt");
    assertThat(db.describeContributorInsights(new DescribeContributorInsightsRequest("Orders",
        null)).contributorInsightsStatus()).isEqualTo("ENABLED");
    // The collection counter survived: the full collection still refuses a new item.
    expect(() -> Fixtures.put(db, "Orders", order("u", "o2", "prod", "3", "new", null)),
        ErrorType.ItemCollectionSizeLimitExceededException,
        "Item collection size limit exceeded. The total size of an item collection has exceeded"
            + " the maximum limit of " + collectionSize(first) + " bytes");
    assertThat(records(arn)).hasSize(1);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** The orders table (LSI ByTotal, GSIs ProductOrderIndex and PendingIndex) with a stream. */
  private String streamedOrders() {
    db.createTable(orders("Orders"));
    db.updateTable(new UpdateTableRequest("Orders", null, null, null, null,
        new StreamSpecification(true, "KEYS_ONLY"), null, null));
    return db.describeTable(new DescribeTableRequest("Orders")).table().latestStreamArn();
  }

  private static TransactWriteItem put(Map<String, AttributeValue> item) {
    return new TransactWriteItem(null, new Put(item, "Orders", null, null, null, null), null,
        null);
  }

  private static WriteRequest putRequest(Map<String, AttributeValue> item) {
    return new WriteRequest(new PutRequest(item), null);
  }

  /** A transaction's share of a table or index: with the read/write split. */
  private static Capacity write(double units) {
    return new Capacity(null, units, units);
  }

  /** Any other operation's share: CapacityUnits alone, as DynamoDB answers. */
  private static Capacity units(double units) {
    return new Capacity(null, null, units);
  }

  /** A small collection's metrics: under 1 GB. */
  private static ItemCollectionMetrics collection(String userId) {
    return new ItemCollectionMetrics(Map.of("userId", AttributeValue.s(userId)),
        List.of(0.0, 1.0));
  }

  private double writeUnitsOf(String partitionKey) {
    return Fixtures.writeUnitsOf(db, "Orders", partitionKey);
  }

  /** Every record of the stream, shard after shard. */
  private List<Record> records(String arn) {
    List<Record> out = new ArrayList<>();
    for (Shard shard : db.describeStream(new DescribeStreamRequest(arn, null, null, null))
        .streamDescription().shards()) {
      String it = db.getShardIterator(
          new GetShardIteratorRequest(arn, shard.shardId(), "TRIM_HORIZON", null)).shardIterator();
      while (it != null) {
        GetRecordsResponse r = db.getRecords(new GetRecordsRequest(it, null));
        out.addAll(r.records());
        if (r.records().isEmpty()) {
          break;
        }
        it = r.nextShardIterator();
      }
    }
    return out;
  }
}
