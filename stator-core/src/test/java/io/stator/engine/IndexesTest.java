package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.Fixtures.values;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateGlobalSecondaryIndexAction;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteGlobalSecondaryIndexAction;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.ErrorType;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.GlobalSecondaryIndexDescription;
import io.stator.api.GlobalSecondaryIndexUpdate;
import io.stator.api.KeySchemaElement;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.Projection;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.TableDescription;
import io.stator.api.UpdateTableRequest;
import io.stator.capacity.ManualClock;
import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Secondary indexes on the engine: the seed article's Orders table (a GSI by product, a sparse
 * GSI of pending orders, an LSI by total), projections, paging through duplicate index keys,
 * validation, GSI backfill under concurrent writes and convergence of GSIs under concurrent
 * index key changes.
 */
class IndexesTest {
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

  // ---- the Orders table of the seed article --------------------------------------------------

  static CreateTableRequest orders(String name) {
    return new CreateTableRequest(
        name,
        List.of(def("userId", "S"), def("orderId", "S"), def("productId", "S"),
            def("pendingAt", "S"), def("total", "N")),
        List.of(hash("userId"), range("orderId")),
        List.of(new LocalSecondaryIndex(
            "ByTotal", List.of(hash("userId"), range("total")),
            new Projection("INCLUDE", List.of("status")))),
        List.of(
            new GlobalSecondaryIndex(
                "ProductOrderIndex", List.of(hash("productId"), range("orderId")),
                new Projection("ALL", null), null),
            new GlobalSecondaryIndex(
                "PendingIndex", List.of(hash("pendingAt")), new Projection("KEYS_ONLY", null),
                null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null);
  }

  static Map<String, AttributeValue> order(
      String user, String order, String product, String total, String status, String pendingAt) {
    Map<String, AttributeValue> item =
        item("userId", user, "orderId", order, "productId", product, "total",
            AttributeValue.n(total), "status", status, "productName", "Thing " + product);
    if (pendingAt != null) {
      item.put("pendingAt", AttributeValue.s(pendingAt));
    }
    return item;
  }

  @Test
  void ordersByProductPendingAndTotal() throws Exception {
    db.createTable(orders("Orders"));
    put(db, "Orders", order("user-abc", "2025-03-15#ord-1", "prod-789", "79.99", "shipped", null));
    put(db, "Orders", order("user-abc", "2025-03-16#ord-2", "prod-111", "5", "pending", "p"));
    put(db, "Orders", order("user-xyz", "2025-03-10#ord-3", "prod-789", "120", "pending", "p"));
    put(db, "Orders", order("user-abc", "2025-03-17#ord-4", "prod-789", "100", "shipped", null));
    await();

    QueryResponse byProduct =
        db.query(indexQuery("Orders", "ProductOrderIndex", "productId = :p",
            values(":p", "prod-789")));
    assertThat(byProduct.items()).extracting(i -> text(i.get("orderId")))
        .containsExactly("2025-03-10#ord-3", "2025-03-15#ord-1", "2025-03-17#ord-4");
    assertThat(byProduct.items().get(1))
        .isEqualTo(order("user-abc", "2025-03-15#ord-1", "prod-789", "79.99", "shipped", null));

    QueryResponse pending =
        db.query(indexQuery("Orders", "PendingIndex", "pendingAt = :p", values(":p", "p")));
    assertThat(pending.items()).hasSize(2);
    // KEYS_ONLY: the table's keys and the index's key, nothing else.
    assertThat(pending.items().get(0).keySet())
        .containsExactlyInAnyOrder("userId", "orderId", "pendingAt");

    // Shipping an order removes pendingAt: it leaves the sparse index.
    put(db, "Orders", order("user-abc", "2025-03-16#ord-2", "prod-111", "5", "shipped", null));
    await();
    assertThat(db.query(indexQuery("Orders", "PendingIndex", "pendingAt = :p",
        values(":p", "p"))).items()).extracting(i -> text(i.get("orderId")))
        .containsExactly("2025-03-10#ord-3");

    // The LSI orders a user's orders by total, numerically, and reads consistently.
    QueryRequest byTotal =
        new QueryRequest("Orders", "ByTotal", null, null, true, null, null, "userId = :u",
            null, null, null, values(":u", "user-abc"), null, null, null, null, null);
    QueryResponse totals = db.query(byTotal);
    assertThat(totals.items()).extracting(i -> text(i.get("total")))
        .containsExactly("5", "79.99", "100");
    assertThat(totals.items().get(0).keySet())
        .containsExactlyInAnyOrder("userId", "orderId", "total", "status");
    // Attributes the LSI does not project are fetched from the item.
    QueryRequest withName =
        new QueryRequest("Orders", "ByTotal", null, null, null, false, null,
            "userId = :u AND #t > :min", null, "productName, #t",
            Map.of("#t", "total"), values(":u", "user-abc", ":min", 50), null, null, null, null,
            null);
    assertThat(db.query(withName).items())
        .containsExactly(
            item("productName", "Thing prod-789", "total", AttributeValue.n("100")),
            item("productName", "Thing prod-789", "total", AttributeValue.n("79.99")));

    // Deleting an item removes it from every index.
    db.deleteItem(Fixtures.delete("Orders",
        item("userId", "user-xyz", "orderId", "2025-03-10#ord-3"), null));
    await();
    assertThat(db.query(indexQuery("Orders", "PendingIndex", "pendingAt = :p",
        values(":p", "p"))).items()).isEmpty();
    assertThat(db.scan(indexScan("Orders", "ProductOrderIndex", null, null)).count())
        .isEqualTo(3);
  }

  @Test
  void updateItemMovesItemsInAndOutOfIndexes() throws Exception {
    db.createTable(orders("Upd"));
    put(db, "Upd", order("u", "o1", "prod-1", "10", "shipped", null));
    Map<String, AttributeValue> key = item("userId", "u", "orderId", "o1");
    db.updateItem(new io.stator.api.UpdateItemRequest("Upd", key,
        "SET pendingAt = :p, productId = :q, #t = #t + :d", null, Map.of("#t", "total"),
        values(":p", "2025-03-15", ":q", "prod-2", ":d", 5), null, null, null, null, null, null,
        null));
    await();
    assertThat(db.query(indexQuery("Upd", "PendingIndex", "pendingAt = :p",
        values(":p", "2025-03-15"))).count()).isEqualTo(1);
    assertThat(db.query(indexQuery("Upd", "ProductOrderIndex", "productId = :p",
        values(":p", "prod-1"))).count()).isZero();
    assertThat(db.query(indexQuery("Upd", "ProductOrderIndex", "productId = :p",
        values(":p", "prod-2"))).items()).extracting(i -> text(i.get("total")))
        .containsExactly("15");
    assertThat(db.query(new QueryRequest("Upd", "ByTotal", null, null, true, null, null,
        "userId = :u AND #t = :t", null, null, Map.of("#t", "total"),
        values(":u", "u", ":t", 15), null, null, null, null, null)).count()).isEqualTo(1);
    db.updateItem(new io.stator.api.UpdateItemRequest("Upd", key, "REMOVE pendingAt", null,
        null, null, null, null, null, null, null, null, null));
    await();
    assertThat(db.query(indexQuery("Upd", "PendingIndex", "pendingAt = :p",
        values(":p", "2025-03-15"))).count()).isZero();
    expect(() -> db.updateItem(new io.stator.api.UpdateItemRequest("Upd", key,
            "SET productId = :n", null, null, values(":n", 7), null, null, null, null, null,
            null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Type mismatch for Index Key productId"
            + " Expected: S Actual: N IndexName: ProductOrderIndex");
  }

  @Test
  void batchesAndTransactionsMaintainIndexes() throws Exception {
    db.createTable(orders("Multi"));
    db.batchWriteItem(new io.stator.api.BatchWriteItemRequest(Map.of("Multi", List.of(
        new io.stator.api.WriteRequest(new io.stator.api.PutRequest(
            order("u", "o1", "prod", "3", "s", "p")), null),
        new io.stator.api.WriteRequest(new io.stator.api.PutRequest(
            order("u", "o2", "prod", "1", "s", null)), null))), null, null));
    await();
    assertThat(db.query(indexQuery("Multi", "ProductOrderIndex", "productId = :p",
        values(":p", "prod"))).count()).isEqualTo(2);
    db.transactWriteItems(new io.stator.api.TransactWriteItemsRequest(List.of(
        new io.stator.api.TransactWriteItem(null, new io.stator.api.Put(
            order("u", "o3", "prod", "2", "s", "p"), "Multi", null, null, null, null), null,
            null),
        new io.stator.api.TransactWriteItem(null, null, new io.stator.api.Delete(
            item("userId", "u", "orderId", "o1"), "Multi", null, null, null, null), null)),
        null, null, null));
    db.batchWriteItem(new io.stator.api.BatchWriteItemRequest(Map.of("Multi", List.of(
        new io.stator.api.WriteRequest(null, new io.stator.api.DeleteRequest(
            item("userId", "u", "orderId", "o2"))))), null, null));
    await();
    assertThat(db.query(indexQuery("Multi", "ProductOrderIndex", "productId = :p",
        values(":p", "prod"))).items()).extracting(i -> text(i.get("orderId")))
        .containsExactly("o3");
    assertThat(db.query(indexQuery("Multi", "PendingIndex", "pendingAt = :p",
        values(":p", "p"))).items()).extracting(i -> text(i.get("orderId")))
        .containsExactly("o3");
    assertThat(db.query(indexQuery("Multi", "ByTotal", "userId = :u", values(":u", "u")))
        .items()).extracting(i -> text(i.get("orderId"))).containsExactly("o3");
    // In a transaction the wrong type cancels the Put, with a ValidationError reason.
    io.stator.api.TransactionCanceledException cancelled = org.assertj.core.api.Assertions
        .catchThrowableOfType(io.stator.api.TransactionCanceledException.class,
            () -> db.transactWriteItems(new io.stator.api.TransactWriteItemsRequest(List.of(
                new io.stator.api.TransactWriteItem(null, new io.stator.api.Put(
                    item("userId", "u", "orderId", "o9", "total", "x"), "Multi", null, null,
                    null, null), null, null)), null, null, null)));
    assertThat(cancelled).isNotNull();
    assertThat(cancelled.cancellationReasons()).singleElement().satisfies(r -> {
      assertThat(r.code()).isEqualTo("ValidationError");
      assertThat(r.message()).isEqualTo("One or more parameter values were invalid: Type"
          + " mismatch for Index Key total Expected: N Actual: S IndexName: ByTotal");
    });
  }

  @Test
  void readErrors() {
    db.createTable(orders("Errs"));
    expect(() -> db.query(indexQuery("Errs", "Nope", "productId = :p", values(":p", "x"))),
        ErrorType.ValidationException, "The table does not have the specified index: Nope");
    expect(() -> db.scan(indexScan("Errs", "Nope", null, null)),
        ErrorType.ValidationException, "The table does not have the specified index: Nope");
    expect(() -> db.query(new QueryRequest("Errs", "ProductOrderIndex", null, null, true, null,
            null, "productId = :p", null, null, null, values(":p", "x"), null, null, null, null,
            null)),
        ErrorType.ValidationException,
        "Consistent reads are not supported on global secondary indexes");
    expect(() -> db.query(new QueryRequest("Errs", "PendingIndex", "ALL_ATTRIBUTES", null, null,
            null, null, "pendingAt = :p", null, null, null, values(":p", "x"), null, null, null,
            null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported"
            + " for global secondary index PendingIndex because its projection type is not ALL");
    expect(() -> db.query(indexQuery("Errs", "ProductOrderIndex", "userId = :p",
            values(":p", "x"))),
        ErrorType.ValidationException, "Query condition missed key schema element: productId");
    expect(() -> put(db, "Errs", item("userId", "u", "orderId", "o", "productId",
            AttributeValue.n("1"))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Type mismatch for Index Key productId"
            + " Expected: S Actual: N IndexName: ProductOrderIndex");
    expect(() -> put(db, "Errs", item("userId", "u", "orderId", "o", "pendingAt", "")),
        ErrorType.ValidationException,
        "One or more parameter values are not valid. A value specified for a secondary index key"
            + " is not supported. The AttributeValue for a key attribute cannot contain an empty"
            + " string value. IndexName: PendingIndex, IndexKey: pendingAt");
  }

  @Test
  void pagingThroughDuplicateIndexKeysReturnsEveryItemOnce() throws Exception {
    db.createTable(orders("Dup"));
    Set<String> expected = new HashSet<>();
    for (int i = 0; i < 53; i++) {
      String id = String.format("o-%03d", i);
      put(db, "Dup", order("u" + (i % 7), id, "same", "1", "s", "same"));
      expected.add(id);
    }
    await();
    for (String index : List.of("ProductOrderIndex", "PendingIndex")) {
      String attribute = index.equals("PendingIndex") ? "pendingAt" : "productId";
      List<String> seen = new ArrayList<>();
      Map<String, AttributeValue> start = null;
      do {
        QueryRequest q = new QueryRequest("Dup", index, null, 5, null, null, start,
            attribute + " = :p", null, null, null, values(":p", "same"), null, null, null,
            null, null);
        QueryResponse page = db.query(q);
        page.items().forEach(i -> seen.add(text(i.get("orderId"))));
        start = page.lastEvaluatedKey();
        if (start != null) {
          assertThat(start.keySet()).contains(attribute, "userId", "orderId");
        }
      } while (start != null);
      assertThat(seen).hasSize(53).doesNotHaveDuplicates();
      assertThat(new HashSet<>(seen)).isEqualTo(expected);
    }
    // Scan pages and parallel segments cover the index exactly once too.
    List<String> scanned = new ArrayList<>();
    for (int segment = 0; segment < 3; segment++) {
      Map<String, AttributeValue> start = null;
      do {
        ScanResponse page = db.scan(new ScanRequest("Dup", "PendingIndex", null, 4, null, start,
            segment, 3, null, null, null, null, null, null, null, null));
        page.items().forEach(i -> scanned.add(text(i.get("orderId"))));
        start = page.lastEvaluatedKey();
      } while (start != null);
    }
    assertThat(scanned).hasSize(53).doesNotHaveDuplicates();
  }

  @Test
  void createTableValidation() {
    CreateTableRequest base = orders("Bad");
    expect(() -> db.createTable(withIndexes(base,
            List.of(lsi("Lx1", "productId", "total")), null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Index KeySchema does not have the same"
            + " leading hash key as table KeySchema for index: Lx1. index hash key: productId,"
            + " table hash key: userId");
    expect(() -> db.createTable(withIndexes(base,
            List.of(new LocalSecondaryIndex("Lx1", List.of(hash("userId")),
                new Projection("ALL", null))), null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Index KeySchema does not have a range key"
            + " for index: Lx1");
    List<LocalSecondaryIndex> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      six.add(lsi("L" + i + "xx", "userId", "total"));
    }
    expect(() -> db.createTable(withIndexes(base, six, null)), ErrorType.ValidationException,
        "One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds"
            + " per-table limit of 5");
    List<GlobalSecondaryIndex> many = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      many.add(gsi("G" + i + "xx", "productId", new Projection("ALL", null)));
    }
    expect(() -> db.createTable(withIndexes(base, null, many)), ErrorType.ValidationException,
        "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the"
            + " per-table limit of 20");
    expect(() -> db.createTable(withIndexes(base, null,
            List.of(gsi("Gxx", "productId", new Projection("ALL", null)),
                gsi("Gxx", "pendingAt", new Projection("ALL", null))))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Duplicate index name: Gxx");
    expect(() -> db.createTable(withIndexes(base, null,
            List.of(gsi("Gxx", "nothere", new Projection("ALL", null))))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Some index key attributes are not defined in"
            + " AttributeDefinitions. Keys: [nothere], AttributeDefinitions: [userId, orderId,"
            + " productId, pendingAt, total]");
    expect(() -> db.createTable(withIndexes(base, null,
            List.of(gsi("Gxx", "productId", new Projection("KEYS_ONLY", List.of("a")))))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: ProjectionType is KEYS_ONLY, but"
            + " NonKeyAttributes is specified");
    expect(() -> db.createTable(withIndexes(base, null,
            List.of(gsi("G", "productId", new Projection("ALL", null))))),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'G' at 'globalSecondaryIndexes.1.member.indexName'"
            + " failed to satisfy constraint: Member must have length greater than or equal to"
            + " 3");
    expect(() -> db.createTable(new CreateTableRequest("NoRange",
            List.of(def("a", "S"), def("b", "S")), List.of(hash("a")),
            List.of(lsi("Lxx", "a", "b")), null, "PAY_PER_REQUEST", null, null, null, null,
            null, null, null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Table KeySchema does not have a range key,"
            + " which is required when specifying a LocalSecondaryIndex");
    List<GlobalSecondaryIndex> wide = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      List<String> include = new ArrayList<>();
      for (int a = 0; a < 20; a++) {
        include.add("a" + a);
      }
      wide.add(gsi("W" + i + "xx", "productId", new Projection("INCLUDE", include)));
    }
    expect(() -> db.createTable(withIndexes(base, null, wide)), ErrorType.ValidationException,
        "One or more parameter values were invalid: The sum of NonKeyAttributes across all"
            + " secondary indexes exceeds the limit of 100");
  }

  @Test
  void describeTableReportsIndexes() {
    db.createTable(orders("Desc"));
    put(db, "Desc", order("u", "o", "p", "1", "s", null));
    TableDescription d = db.describeTable(new DescribeTableRequest("Desc")).table();
    assertThat(d.localSecondaryIndexes()).singleElement().satisfies(l -> {
      assertThat(l.indexName()).isEqualTo("ByTotal");
      assertThat(l.itemCount()).isEqualTo(1);
      assertThat(l.indexArn()).endsWith(":table/Desc/index/ByTotal");
      assertThat(l.projection()).isEqualTo(new Projection("INCLUDE", List.of("status")));
    });
    assertThat(d.globalSecondaryIndexes()).extracting(GlobalSecondaryIndexDescription::indexName)
        .containsExactly("ProductOrderIndex", "PendingIndex");
    GlobalSecondaryIndexDescription g = d.globalSecondaryIndexes().get(0);
    assertThat(g.indexStatus()).isEqualTo("ACTIVE");
    assertThat(g.backfilling()).isNull();
    assertThat(g.keySchema()).containsExactly(hash("productId"), range("orderId"));
    assertThat(g.provisionedThroughput().readCapacityUnits()).isZero();
  }

  @Test
  void deleteTableDropsIndexSpacesAndLog() {
    db.createTable(orders("Gone"));
    put(db, "Gone", order("u", "o", "p", "1", "s", "x"));
    // catalog and its fences, resource policies, backup records, ClientRequestTokens, leases,
    // stream writers, export and import records, items, 3 indexes, change log, item collection
    // sizes (the table has an LSI)
    assertThat(storage.spaces()).hasSize(15);
    db.deleteTable(new DeleteTableRequest("Gone"));
    assertThat(storage.spaces())
        .containsExactlyInAnyOrder(
            "catalog", "catalog.fences", "resource-policies", "backups", "client-request-tokens",
            "leases", "stream-writers", "exports", "imports");
  }

  @Test
  void gsiLagDelaysPropagation() throws Exception {
    db.close();
    // The engine's clock stands still until the test moves it: the lag is not over before the
    // first query however long a busy machine takes to make it.
    ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
    db = new Engine(new MemoryStorage(),
        EngineOptions.defaults().withClock(clock).withGsiLag(Duration.ofMillis(400)));
    db.createTable(orders("Lag"));
    put(db, "Lag", order("u", "o", "prod", "1", "s", null));
    QueryRequest q = indexQuery("Lag", "ProductOrderIndex", "productId = :p",
        values(":p", "prod"));
    assertThat(db.query(q).count()).isZero(); // not yet: the GSI lags on purpose
    // The LSI is written with the item.
    assertThat(db.query(new QueryRequest("Lag", "ByTotal", null, null, true, null, null,
        "userId = :u", null, null, null, values(":u", "u"), null, null, null, null, null))
        .count()).isEqualTo(1);
    clock.advance(Duration.ofMillis(200));
    assertThat(db.query(q).count()).as("within the lag").isZero();
    clock.advance(Duration.ofMillis(300));
    await();
    assertThat(db.query(q).count()).isEqualTo(1);
  }

  /**
   * With the GSI lag zero, every write path maintains GSIs in its own commit: a Query right after
   * it sees the change, with no wait and no change record.
   */
  @Test
  void withLagZeroGsiQueriesSeeEveryWriteAtOnce() {
    // Every commit is recorded: the change log emptied by a quick propagator would look the same
    // at the end as one never written to.
    db.close();
    List<String> committed = new java.util.concurrent.CopyOnWriteArrayList<>();
    db = new Engine(new InterceptingStorage(storage) {
      @Override
      protected void beforeCommit(Commit commit) {
        commit.writes().forEach(w -> committed.add(w.space()));
      }
    }, EngineOptions.defaults());
    db.createTable(orders("Now"));
    QueryRequest prod = indexQuery("Now", "ProductOrderIndex", "productId = :p",
        values(":p", "prod"));
    QueryRequest other = indexQuery("Now", "ProductOrderIndex", "productId = :p",
        values(":p", "other"));
    put(db, "Now", order("u", "o1", "prod", "1", "s", null));
    assertThat(db.query(prod).items()).extracting(i -> text(i.get("orderId")))
        .containsExactly("o1");
    db.updateItem(new io.stator.api.UpdateItemRequest("Now", item("userId", "u", "orderId", "o1"),
        "SET productId = :q", null, null, values(":q", "other"), null, null, null, null, null,
        null, null));
    assertThat(db.query(prod).count()).isZero();
    assertThat(db.query(other).count()).isEqualTo(1);
    db.deleteItem(Fixtures.delete("Now", item("userId", "u", "orderId", "o1"), null));
    assertThat(db.query(other).count()).isZero();
    db.transactWriteItems(new io.stator.api.TransactWriteItemsRequest(List.of(
        new io.stator.api.TransactWriteItem(null, new io.stator.api.Put(
            order("u", "o2", "prod", "2", "s", "p"), "Now", null, null, null, null), null,
            null)), null, null, null));
    assertThat(db.query(prod).items()).extracting(i -> text(i.get("orderId")))
        .containsExactly("o2");
    assertThat(db.query(indexQuery("Now", "PendingIndex", "pendingAt = :p", values(":p", "p")))
        .count()).isEqualTo(1);
    db.batchWriteItem(new io.stator.api.BatchWriteItemRequest(Map.of("Now", List.of(
        new io.stator.api.WriteRequest(new io.stator.api.PutRequest(
            order("u", "o3", "prod", "3", "s", null)), null),
        new io.stator.api.WriteRequest(null, new io.stator.api.DeleteRequest(
            item("userId", "u", "orderId", "o2"))))), null, null));
    assertThat(db.query(prod).items()).extracting(i -> text(i.get("orderId")))
        .containsExactly("o3");
    assertThat(db.query(indexQuery("Now", "PendingIndex", "pendingAt = :p", values(":p", "p")))
        .count()).isZero();
    // No write went through the change log.
    String log = storage.spaces().stream().filter(x -> x.startsWith("changes.")).findFirst()
        .orElseThrow();
    assertThat(storage.stats(log).records()).isZero();
    assertThat(committed).isNotEmpty().noneMatch(x -> x.startsWith("changes."));
  }

  /** Turned off (as a distributed storage would), GSI writes go through the change log. */
  @Test
  void synchronousGlobalIndexesOffKeepsGsisAsynchronous() throws Exception {
    db.close();
    List<String> committed = new java.util.concurrent.CopyOnWriteArrayList<>();
    db = new Engine(new InterceptingStorage(new MemoryStorage()) {
      @Override
      protected void beforeCommit(Commit commit) {
        commit.writes().forEach(w -> committed.add(w.space()));
      }
    }, EngineOptions.defaults().withSynchronousGlobalIndexes(false));
    db.createTable(orders("Async"));
    committed.clear();
    put(db, "Async", order("u", "o1", "prod", "1", "s", null));
    await();
    assertThat(committed).anyMatch(x -> x.startsWith("changes."));
    assertThat(db.query(indexQuery("Async", "ProductOrderIndex", "productId = :p",
        values(":p", "prod"))).count()).isEqualTo(1);
  }

  // ---- UpdateTable ---------------------------------------------------------------------------

  @Test
  void addingAGsiBackfillsWhileWritesContinue() throws Exception {
    db.createTable(Fixtures.create("Big", "pk", "S", null, null));
    for (int i = 0; i < 3000; i++) {
      put(db, "Big", item("pk", "k" + i, "color", "c" + (i % 10), "n", i));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      Random random = new Random(7);
      try {
        while (!stop.get()) {
          int i = random.nextInt(3500);
          if (random.nextInt(5) == 0) {
            db.deleteItem(Fixtures.delete("Big", item("pk", "k" + i), null));
          } else if (random.nextInt(4) == 0) {
            put(db, "Big", item("pk", "k" + i, "n", i)); // leaves the sparse index
          } else {
            put(db, "Big", item("pk", "k" + i, "color", "c" + random.nextInt(10), "n", i));
          }
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    });
    writer.start();
    Thread.sleep(20);
    TableDescription during = db.updateTable(new UpdateTableRequest("Big",
        List.of(def("color", "S")), null, null,
        List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction("ByColor",
            List.of(hash("color"), range("pk")), new Projection("KEYS_ONLY", null), null),
            null, null)),
        null, null, null)).tableDescription();
    GlobalSecondaryIndexDescription created = during.globalSecondaryIndexes().get(0);
    assertThat(created.indexStatus()).isEqualTo("CREATING");
    assertThat(created.backfilling()).isTrue();
    assertThat(during.attributeDefinitions()).extracting(AttributeDefinition::attributeName)
        .containsExactly("pk", "color");
    Thread.sleep(200);
    stop.set(true);
    writer.join();
    assertThat(failure.get()).isNull();
    await();
    TableDescription after = db.describeTable(new DescribeTableRequest("Big")).table();
    assertThat(after.globalSecondaryIndexes().get(0).indexStatus()).isEqualTo("ACTIVE");
    assertThat(after.globalSecondaryIndexes().get(0).backfilling()).isNull();
    assertIndexEqualsProjection("Big", "ByColor", "color");

    // Deleting the index drops it.
    db.updateTable(new UpdateTableRequest("Big", null, null, null,
        List.of(new GlobalSecondaryIndexUpdate(null, null,
            new DeleteGlobalSecondaryIndexAction("ByColor"))), null, null, null));
    expect(() -> db.scan(indexScan("Big", "ByColor", null, null)),
        ErrorType.ValidationException, "The table does not have the specified index: ByColor");
    assertThat(db.describeTable(new DescribeTableRequest("Big")).table()
        .globalSecondaryIndexes()).isNull();
  }

  @Test
  void queriesOnACreatingIndexAreRefused() throws Exception {
    db.close();
    // The backfill waits at its first chunk until the read below is made, so that read surely
    // finds the index CREATING, however the two threads are scheduled.
    CountDownLatch readMade = new CountDownLatch(1);
    db = new Engine(new HeldBackfill(readMade), EngineOptions.defaults());
    db.createTable(Fixtures.create("Slow", "pk", "S", null, null));
    for (int i = 0; i < 2000; i++) {
      put(db, "Slow", item("pk", "k" + i, "color", "c"));
    }
    db.updateTable(new UpdateTableRequest("Slow", List.of(def("color", "S")), null, null,
        List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction("ByColor",
            List.of(hash("color")), new Projection("ALL", null), null), null, null)),
        null, null, null));
    boolean refused = false;
    try {
      db.query(indexQuery("Slow", "ByColor", "color = :c", values(":c", "c")));
    } catch (io.stator.api.DynamoDbException e) {
      assertThat(e.getMessage())
          .isEqualTo("Cannot read from backfilling global secondary index: ByColor");
      refused = true;
    } finally {
      readMade.countDown();
    }
    await();
    assertThat(db.query(indexQuery("Slow", "ByColor", "color = :c", values(":c", "c"))).count())
        .isEqualTo(2000);
    assertThat(refused).as("read during the backfill").isTrue();
  }

  @Test
  void updateTableIndexErrors() {
    db.createTable(orders("UpdErr"));
    expect(() -> db.updateTable(new UpdateTableRequest("UpdErr", null, null, null,
            List.of(new GlobalSecondaryIndexUpdate(null, null,
                new DeleteGlobalSecondaryIndexAction("Nope"))), null, null, null)),
        ErrorType.ResourceNotFoundException, "Requested resource not found: Index: Nope not found");
    expect(() -> db.updateTable(new UpdateTableRequest("UpdErr", null, null, null,
            List.of(new GlobalSecondaryIndexUpdate(null, null,
                    new DeleteGlobalSecondaryIndexAction("ProductOrderIndex")),
                new GlobalSecondaryIndexUpdate(null, null,
                    new DeleteGlobalSecondaryIndexAction("PendingIndex"))), null, null, null)),
        ErrorType.LimitExceededException,
        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously"
            + " per table");
    expect(() -> db.updateTable(new UpdateTableRequest("UpdErr", null, null, null,
            List.of(new GlobalSecondaryIndexUpdate(null, null, null)), null, null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update,"
            + " GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be"
            + " null");
    expect(() -> db.updateTable(new UpdateTableRequest("UpdErr", null, null, null,
            List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction(
                "ProductOrderIndex", List.of(hash("productId")), new Projection("ALL", null),
                null), null, null)), null, null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Index already exists: ProductOrderIndex");
    expect(() -> db.updateTable(new UpdateTableRequest("UpdErr", null, null, null,
            List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction(
                "NewOne", List.of(hash("undefinedAttr")), new Projection("ALL", null),
                null), null, null)), null, null, null)),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Some index key attributes are not defined in"
            + " AttributeDefinitions. Keys: [undefinedAttr], AttributeDefinitions: [userId,"
            + " orderId, productId, pendingAt, total]");
  }

  // ---- convergence under concurrency -------------------------------------------------------

  @Test
  void concurrentIndexKeyChangesConvergeExactly() throws Exception {
    convergeUnderConcurrentWrites(false);
  }

  /**
   * As above, but while the writers run UpdateTable adds a GSI, whose backfill is held back: the
   * writes turn asynchronous (through the change log) while it is CREATING and until the
   * propagator has drained the log, then synchronous again. Both indexes still converge exactly.
   */
  @Test
  void concurrentWritesThroughAsynchronousAndSynchronousPhasesConvergeExactly() throws Exception {
    convergeUnderConcurrentWrites(true);
  }

  private void convergeUnderConcurrentWrites(boolean addIndexMidway) throws Exception {
    AtomicInteger syncCommits = new AtomicInteger();
    AtomicInteger asyncCommits = new AtomicInteger();
    AtomicInteger syncAfterAsync = new AtomicInteger();
    // The backfill waits until this many writes went through the change log, so that many
    // writes surely happen while the index is CREATING, however the threads are scheduled.
    CountDownLatch writesWhileCreating = new CountDownLatch(100);
    db.close();
    db = new Engine(new HeldBackfill(writesWhileCreating) {
      @Override
      protected void beforeCommit(Commit commit) {
        String thread = Thread.currentThread().getName();
        if (!thread.startsWith("writer-")) {
          return;
        }
        if (commit.writes().stream().anyMatch(w -> w.space().startsWith("changes."))) {
          asyncCommits.incrementAndGet();
          writesWhileCreating.countDown();
        } else if (commit.writes().stream().anyMatch(w -> w.space().startsWith("index."))) {
          syncCommits.incrementAndGet();
          if (asyncCommits.get() > 0) {
            syncAfterAsync.incrementAndGet();
          }
        }
      }
    }, EngineOptions.defaults());
    db.createTable(new CreateTableRequest("Conc", List.of(def("pk", "S"), def("g", "S"),
            def("s", "N")), List.of(hash("pk")), null,
        List.of(new GlobalSecondaryIndex("ByG", List.of(hash("g"), range("s")),
            new Projection("INCLUDE", List.of("v")), null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger written = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      int seed = w;
      threads.add(new Thread(() -> {
        Random random = new Random(seed);
        try {
          // With an index added midway, on until synchronous writes have resumed for a while.
          for (int n = 0; n < 1500 || addIndexMidway && syncAfterAsync.get() < 200 && n < 30000;
              n++) {
            String pk = "k" + random.nextInt(40); // few items: writers collide on them
            if (random.nextInt(6) == 0) {
              db.deleteItem(Fixtures.delete("Conc", item("pk", pk), null));
            } else if (random.nextInt(5) == 0) {
              put(db, "Conc", item("pk", pk, "v", n));
            } else {
              put(db, "Conc", item("pk", pk, "g", "g" + random.nextInt(3), "s",
                  random.nextInt(5), "v", n, "other", "x"));
            }
            written.incrementAndGet();
          }
        } catch (Throwable t) {
          failure.set(t);
        }
      }, "writer-" + w));
    }
    for (int r = 0; r < 2; r++) {
      threads.add(new Thread(() -> {
        try {
          while (!stop.get()) {
            for (int g = 0; g < 3; g++) {
              QueryResponse q = db.query(indexQuery("Conc", "ByG", "g = :g",
                  values(":g", "g" + g)));
              // Never the same item twice in one index partition read.
              assertThat(q.items()).extracting(i -> text(i.get("pk"))).doesNotHaveDuplicates();
            }
          }
        } catch (Throwable t) {
          failure.set(t);
        }
      }));
    }
    threads.forEach(Thread::start);
    if (addIndexMidway) {
      while (written.get() < 1000 && threads.get(0).isAlive()) {
        Thread.sleep(1);
      }
      db.updateTable(new UpdateTableRequest("Conc", List.of(def("v", "N")), null, null,
          List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction("ByV",
              List.of(hash("v")), new Projection("KEYS_ONLY", null), null), null, null)),
          null, null, null));
    }
    for (int i = 0; i < 4; i++) {
      threads.get(i).join();
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    assertThat(failure.get()).isNull();
    await();
    assertIndexEqualsProjection("Conc", "ByG", "g");
    if (addIndexMidway) {
      assertIndexEqualsProjection("Conc", "ByV", "v");
      assertThat(asyncCommits.get()).as("writes through the change log").isPositive();
      assertThat(syncAfterAsync.get()).as("synchronous writes after them").isPositive();
    } else {
      assertThat(asyncCommits.get()).as("writes through the change log").isZero();
      assertThat(syncCommits.get()).as("synchronous writes").isPositive();
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** A memory storage whose GSI backfill reads nothing until {@code go} opens (60 s at most). */
  private static class HeldBackfill extends InterceptingStorage {
    private final CountDownLatch go;

    HeldBackfill(CountDownLatch go) {
      super(new MemoryStorage());
      this.go = go;
    }

    @Override
    public List<StoredRecord> scan(
        String space, byte[] from, byte[] to, StorageKey startAfter, int limit) {
      if (Thread.currentThread().getName().equals("stator-gsi-backfill")) {
        try {
          go.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return super.scan(space, from, to, startAfter, limit);
    }

    @Override
    protected void beforeCommit(Commit commit) {}
  }

  /** The index holds exactly the projection of every item that has its key attribute. */
  private void assertIndexEqualsProjection(String table, String index, String keyAttribute) {
    Map<String, Map<String, AttributeValue>> fromTable = new HashMap<>();
    for (Map<String, AttributeValue> i : scanAll(table, null)) {
      if (i.containsKey(keyAttribute)) {
        fromTable.put(text(i.get("pk")), i);
      }
    }
    List<Map<String, AttributeValue>> entries = scanAll(table, index);
    Map<String, Map<String, AttributeValue>> fromIndex = new HashMap<>();
    for (Map<String, AttributeValue> e : entries) {
      assertThat(fromIndex.put(text(e.get("pk")), e)).as("duplicate entry %s", e).isNull();
    }
    assertThat(fromIndex.keySet()).isEqualTo(fromTable.keySet());
    var definition = db.describeTable(new DescribeTableRequest(table)).table()
        .globalSecondaryIndexes().stream().filter(g -> g.indexName().equals(index)).findFirst()
        .orElseThrow();
    for (var e : fromIndex.entrySet()) {
      Map<String, AttributeValue> expected = new HashMap<>();
      Map<String, AttributeValue> item = fromTable.get(e.getKey());
      for (var a : item.entrySet()) {
        boolean projected = definition.projection().projectionType().equals("ALL")
            || definition.keySchema().stream().anyMatch(k -> k.attributeName().equals(a.getKey()))
            || a.getKey().equals("pk")
            || (definition.projection().nonKeyAttributes() != null
                && definition.projection().nonKeyAttributes().contains(a.getKey()));
        if (projected) {
          expected.put(a.getKey(), a.getValue());
        }
      }
      assertThat(e.getValue()).isEqualTo(expected);
    }
  }

  private List<Map<String, AttributeValue>> scanAll(String table, String index) {
    List<Map<String, AttributeValue>> out = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      ScanResponse page = db.scan(indexScan(table, index, 500, start));
      out.addAll(page.items());
      start = page.lastEvaluatedKey();
    } while (start != null);
    return out;
  }

  private static String text(AttributeValue v) {
    return v instanceof AttributeValue.S s ? s.value() : ((AttributeValue.N) v).value();
  }

  private void await() throws InterruptedException {
    assertThat(db.awaitIndexes(Duration.ofSeconds(30))).as("indexes caught up").isTrue();
  }

  static QueryRequest indexQuery(
      String table, String index, String condition, Map<String, AttributeValue> values) {
    return new QueryRequest(table, index, null, null, null, null, null, condition, null, null,
        null, values, null, null, null, null, null);
  }

  static ScanRequest indexScan(
      String table, String index, Integer limit, Map<String, AttributeValue> start) {
    return new ScanRequest(table, index, null, limit, null, start, null, null, null, null, null,
        null, null, null, null, null);
  }

  static CreateTableRequest withIndexes(
      CreateTableRequest r, List<LocalSecondaryIndex> lsis, List<GlobalSecondaryIndex> gsis) {
    return new CreateTableRequest(r.tableName(), r.attributeDefinitions(), r.keySchema(), lsis,
        gsis, r.billingMode(), r.provisionedThroughput(), null, null, null, null, null, null, null);
  }

  static LocalSecondaryIndex lsi(String name, String hash, String range) {
    return new LocalSecondaryIndex(name, List.of(hash(hash), range(range)),
        new Projection("ALL", null));
  }

  static GlobalSecondaryIndex gsi(String name, String hash, Projection projection) {
    return new GlobalSecondaryIndex(name, List.of(hash(hash)), projection, null);
  }

  static AttributeDefinition def(String name, String type) {
    return new AttributeDefinition(name, type);
  }

  static KeySchemaElement hash(String name) {
    return new KeySchemaElement(name, "HASH");
  }

  static KeySchemaElement range(String name) {
    return new KeySchemaElement(name, "RANGE");
  }
}
