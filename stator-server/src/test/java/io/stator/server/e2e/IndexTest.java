package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Secondary indexes through the AWS SDK: the seed article's Orders table (ProductOrderIndex,
 * a sparse index of pending orders, an LSI ordering a user's orders by total), projections,
 * paging through duplicate index keys, a GSI added to a table of thousands of items while writes
 * continue, and the validation errors.
 */
class IndexTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  private static final String PRODUCT_IS_NUMBER = "One or more parameter values were invalid:"
      + " Type mismatch for Index Key productId Expected: S Actual: N IndexName: ProductOrderIndex";

  /** Order o1 is as {@code before}, and no order o2 was written. */
  private void assertNothingWritten(String table, Map<String, AttributeValue> before) {
    assertThat(dynamo.getItem(r -> r.tableName(table)
        .key(item("userId", s("u"), "orderId", s("o1")))).item()).isEqualTo(before);
    assertThat(dynamo.getItem(r -> r.tableName(table)
        .key(item("userId", s("u"), "orderId", s("o2")))).hasItem()).isFalse();
  }

  private String createOrders() {
    String name = uniqueTableName("orders");
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(name)
        .attributeDefinitions(attribute("userId", S), attribute("orderId", S),
            attribute("productId", S), attribute("pendingAt", S), attribute("total", N))
        .keySchema(key("userId", KeyType.HASH), key("orderId", KeyType.RANGE))
        .localSecondaryIndexes(LocalSecondaryIndex.builder()
            .indexName("ByTotal")
            .keySchema(key("userId", KeyType.HASH), key("total", KeyType.RANGE))
            .projection(Projection.builder().projectionType(ProjectionType.INCLUDE)
                .nonKeyAttributes("status").build())
            .build())
        .globalSecondaryIndexes(
            GlobalSecondaryIndex.builder()
                .indexName("ProductOrderIndex")
                .keySchema(key("productId", KeyType.HASH), key("orderId", KeyType.RANGE))
                .projection(p -> p.projectionType(ProjectionType.ALL))
                .build(),
            GlobalSecondaryIndex.builder()
                .indexName("PendingIndex")
                .keySchema(key("pendingAt", KeyType.HASH))
                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                .build())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(name);
    return name;
  }

  private void putOrder(String table, String user, String order, String product, String total,
      String status, String pendingAt) {
    Map<String, AttributeValue> item = item("userId", s(user), "orderId", s(order),
        "productId", s(product), "productName", s("Thing " + product), "total", n(total),
        "status", s(status));
    if (pendingAt != null) {
      item = new java.util.LinkedHashMap<>(item);
      item.put("pendingAt", s(pendingAt));
    }
    Map<String, AttributeValue> finalItem = item;
    dynamo.putItem(r -> r.tableName(table).item(finalItem));
  }

  @Test
  void ordersTableOfTheSeedArticle() {
    String table = createOrders();
    putOrder(table, "user-abc", "2025-03-15#ord-abc123", "prod-789", "79.99", "shipped", null);
    putOrder(table, "user-abc", "2025-03-16#ord-2", "prod-111", "5", "pending",
        "2025-03-16T10:00:00Z");
    putOrder(table, "user-xyz", "2025-03-10#ord-3", "prod-789", "120", "pending",
        "2025-03-10T09:00:00Z");
    endpoint.awaitIndexes();

    // Pattern 3: all orders for a product, via the GSI.
    QueryResponse byProduct = dynamo.query(r -> r.tableName(table).indexName("ProductOrderIndex")
        .keyConditionExpression("productId = :pid")
        .expressionAttributeValues(Map.of(":pid", s("prod-789"))));
    assertThat(byProduct.items()).extracting(i -> i.get("orderId").s())
        .containsExactly("2025-03-10#ord-3", "2025-03-15#ord-abc123");
    assertThat(byProduct.items().get(1).get("productName").s()).isEqualTo("Thing prod-789");

    // Pattern 4: the sparse index holds only pending orders, with keys only.
    ScanResponse pending = dynamo.scan(r -> r.tableName(table).indexName("PendingIndex"));
    assertThat(pending.items()).extracting(i -> i.get("orderId").s())
        .containsExactlyInAnyOrder("2025-03-16#ord-2", "2025-03-10#ord-3");
    assertThat(pending.items().get(0).keySet())
        .containsExactlyInAnyOrder("userId", "orderId", "pendingAt");

    // Shipping removes pendingAt, and the order leaves the sparse index.
    dynamo.updateItem(r -> r.tableName(table)
        .key(item("userId", s("user-xyz"), "orderId", s("2025-03-10#ord-3")))
        .updateExpression("SET #s = :shipped REMOVE pendingAt")
        .expressionAttributeNames(Map.of("#s", "status"))
        .expressionAttributeValues(Map.of(":shipped", s("shipped"))));
    endpoint.awaitIndexes();
    assertThat(dynamo.scan(r -> r.tableName(table).indexName("PendingIndex")).items())
        .extracting(i -> i.get("orderId").s()).containsExactly("2025-03-16#ord-2");

    // The LSI orders a user's orders by total (numerically), strongly consistent.
    QueryResponse byTotal = dynamo.query(r -> r.tableName(table).indexName("ByTotal")
        .consistentRead(true).scanIndexForward(false)
        .keyConditionExpression("userId = :u")
        .expressionAttributeValues(Map.of(":u", s("user-abc"))));
    assertThat(byTotal.items()).extracting(i -> i.get("total").n())
        .containsExactly("79.99", "5");
    assertThat(byTotal.items().get(0).keySet())
        .containsExactlyInAnyOrder("userId", "orderId", "total", "status");
    // ALL_ATTRIBUTES on an LSI fetches what it does not project from the item.
    QueryResponse all = dynamo.query(r -> r.tableName(table).indexName("ByTotal")
        .select(Select.ALL_ATTRIBUTES).keyConditionExpression("userId = :u")
        .expressionAttributeValues(Map.of(":u", s("user-abc"))));
    assertThat(all.items().get(0)).containsKeys("productName", "productId");

    TableDescription d = dynamo.describeTable(r -> r.tableName(table)).table();
    assertThat(d.globalSecondaryIndexes()).extracting(GlobalSecondaryIndexDescription::indexName)
        .containsExactly("ProductOrderIndex", "PendingIndex");
    assertThat(d.globalSecondaryIndexes().get(0).indexStatus()).isEqualTo(IndexStatus.ACTIVE);
    // Exact on both storages at this size (RocksDB estimates only above 50,000 records).
    assertThat(d.globalSecondaryIndexes().get(0).itemCount()).isEqualTo(3);
    assertThat(d.globalSecondaryIndexes().get(0).indexArn()).endsWith(
        "table/" + table + "/index/ProductOrderIndex");
    assertThat(d.localSecondaryIndexes().get(0).projection().nonKeyAttributes())
        .containsExactly("status");
  }

  @Test
  void pagingThroughDuplicateIndexKeys() {
    String table = createOrders();
    for (int i = 0; i < 40; i++) {
      putOrder(table, "u" + (i % 3), String.format("o-%02d", i), "same", "1", "s", null);
    }
    endpoint.awaitIndexes();
    List<String> seen = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page = dynamo.query(r -> r.tableName(table).indexName("ProductOrderIndex")
          .keyConditionExpression("productId = :p").limit(6).exclusiveStartKey(from)
          .expressionAttributeValues(Map.of(":p", s("same"))));
      page.items().forEach(i -> seen.add(i.get("orderId").s()));
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
          ? page.lastEvaluatedKey() : null;
      if (start != null) {
        assertThat(start.keySet()).containsExactlyInAnyOrder("productId", "orderId", "userId");
      }
    } while (start != null);
    assertThat(seen).hasSize(40).doesNotHaveDuplicates().isSorted();
  }

  @Test
  void backfillOfAGsiAddedWhileWritesContinue() throws Exception {
    String table = createTable("backfill", "pk", S);
    for (int i = 0; i < 2000; i++) {
      int n = i;
      dynamo.putItem(r -> r.tableName(table)
          .item(item("pk", s("k" + n), "color", s("c" + (n % 5)), "n", n(Integer.toString(n)))));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      Random random = new Random(3);
      try {
        while (!stop.get()) {
          int i = random.nextInt(2200);
          if (random.nextInt(4) == 0) {
            dynamo.deleteItem(r -> r.tableName(table).key(item("pk", s("k" + i))));
          } else {
            dynamo.putItem(r -> r.tableName(table)
                .item(item("pk", s("k" + i), "color", s("c" + random.nextInt(5)))));
          }
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    });
    writer.start();
    TableDescription during = dynamo.updateTable(r -> r.tableName(table)
        .attributeDefinitions(attribute("color", S))
        .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("ByColor")
            .keySchema(key("color", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))))).tableDescription();
    assertThat(during.globalSecondaryIndexes().get(0).indexStatus())
        .isEqualTo(IndexStatus.CREATING);
    assertThat(during.globalSecondaryIndexes().get(0).backfilling()).isTrue();
    Thread.sleep(300);
    stop.set(true);
    writer.join();
    assertThat(failure.get()).isNull();
    endpoint.awaitIndexes();
    assertThat(dynamo.describeTable(r -> r.tableName(table)).table().globalSecondaryIndexes()
        .get(0).indexStatus()).isEqualTo(IndexStatus.ACTIVE);

    Map<String, String> expected = new java.util.HashMap<>();
    for (Map<String, AttributeValue> i : dynamo.scanPaginator(r -> r.tableName(table)).items()) {
      expected.put(i.get("pk").s(), i.get("color").s());
    }
    Map<String, String> indexed = new java.util.HashMap<>();
    for (int c = 0; c < 5; c++) {
      String color = "c" + c;
      for (Map<String, AttributeValue> i : dynamo.queryPaginator(r -> r.tableName(table)
          .indexName("ByColor").keyConditionExpression("color = :c")
          .expressionAttributeValues(Map.of(":c", s(color)))).items()) {
        assertThat(indexed.put(i.get("pk").s(), i.get("color").s())).isNull();
      }
    }
    assertThat(indexed).isEqualTo(expected);
  }

  @Test
  void aGsiAddedToATableLeavesOutItemsWhoseKeyItCannotIndex() {
    String table = createTable("backfill-violations", "pk", S);
    String longest = "x".repeat(2048);
    String tooLong = "x".repeat(2049);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("ok"), "g", s("a"), "r", s("1"))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("longest"), "g", s(longest))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("number"), "g", n("1"))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("too-long"), "g", s(tooLong))));
    dynamo.putItem(r -> r.tableName(table)
        .item(item("pk", s("long-sort"), "g", s("a"), "r", s("y".repeat(1025)))));
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("no-g"), "r", s("1"))));
    dynamo.updateTable(r -> r.tableName(table)
        .attributeDefinitions(attribute("g", S))
        .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("ByG")
            .keySchema(key("g", KeyType.HASH)).projection(p -> p.projectionType("KEYS_ONLY")))));
    endpoint.awaitIndexes(); // one index is created at a time
    dynamo.updateTable(r -> r.tableName(table)
        .attributeDefinitions(attribute("g", S), attribute("r", S))
        .globalSecondaryIndexUpdates(u -> u.create(c -> c.indexName("ByGAndR")
            .keySchema(key("g", KeyType.HASH), key("r", KeyType.RANGE))
            .projection(p -> p.projectionType("KEYS_ONLY")))));
    endpoint.awaitIndexes();
    for (GlobalSecondaryIndexDescription index :
        dynamo.describeTable(r -> r.tableName(table)).table().globalSecondaryIndexes()) {
      assertThat(index.indexStatus()).as(index.indexName()).isEqualTo(IndexStatus.ACTIVE);
    }
    // No failure: a number, a key past 2048 bytes (or a sort key past 1024) is left out.
    assertThat(indexed(table, "ByG")).containsExactlyInAnyOrder("ok", "longest", "long-sort");
    assertThat(indexed(table, "ByGAndR")).containsExactly("ok");
    // Once the index exists, a write it could not index is refused, as DynamoDB refuses it.
    assertValidation("One or more parameter values were invalid: Type mismatch for Index Key g"
            + " Expected: S Actual: N IndexName: ByG",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("pk", s("new"), "g", n("2")))));
    assertValidation("One or more parameter values were invalid: Size of hashkey has exceeded the"
            + " maximum size limit of2048 bytes",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("pk", s("new"), "g", s(tooLong)))));
    assertValidation("One or more parameter values were invalid: Aggregated size of all range keys"
            + " has exceeded the size limit of 1024 bytes",
        () -> dynamo.putItem(r -> r.tableName(table)
            .item(item("pk", s("new"), "g", s("a"), "r", s("y".repeat(1025))))));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("new")))).hasItem())
        .isFalse();
  }

  private List<String> indexed(String table, String index) {
    List<String> keys = new ArrayList<>();
    for (Map<String, AttributeValue> i :
        dynamo.scanPaginator(r -> r.tableName(table).indexName(index)).items()) {
      keys.add(i.get("pk").s());
    }
    return keys;
  }

  /**
   * An index key attribute of the wrong type, or an empty string, is refused on PutItem and
   * UpdateItem in DynamoDB's words, and nothing is written. A put names the index; an update's
   * empty key is worded as its update expression's doing.
   */
  @Test
  void anIndexKeyOfTheWrongTypeOrEmptyIsRefused() {
    String table = createOrders();
    putOrder(table, "u", "o1", "p1", "5", "new", null);
    Map<String, AttributeValue> o1 = item("userId", s("u"), "orderId", s("o1"));
    Map<String, AttributeValue> before = dynamo.getItem(r -> r.tableName(table).key(o1)).item();
    assertValidation(PRODUCT_IS_NUMBER, () -> dynamo.putItem(r -> r.tableName(table).item(
        item("userId", s("u"), "orderId", s("o2"), "productId", n("5")))));
    assertValidation("One or more parameter values were invalid: Type mismatch for Index Key"
            + " total Expected: N Actual: S IndexName: ByTotal",
        () -> dynamo.putItem(r -> r.tableName(table).item(
            item("userId", s("u"), "orderId", s("o2"), "total", s("5")))));
    assertValidation("One or more parameter values are not valid. A value specified for a"
            + " secondary index key is not supported. The AttributeValue for a key attribute"
            + " cannot contain an empty string value. IndexName: ProductOrderIndex, IndexKey:"
            + " productId",
        () -> dynamo.putItem(r -> r.tableName(table).item(
            item("userId", s("u"), "orderId", s("o2"), "productId", s("")))));

    for (String order : List.of("o1", "o2")) { // an item updated, an item the update creates
      Map<String, AttributeValue> key = item("userId", s("u"), "orderId", s(order));
      assertValidation(PRODUCT_IS_NUMBER, () -> dynamo.updateItem(r -> r.tableName(table).key(key)
          .updateExpression("SET productId = :v")
          .expressionAttributeValues(Map.of(":v", n("5")))));
      assertValidation("One or more parameter values are not valid. The update expression"
              + " attempted to update a secondary index key to a value that is not supported."
              + " The AttributeValue for a key attribute cannot contain an empty string value.",
          () -> dynamo.updateItem(r -> r.tableName(table).key(key)
              .updateExpression("SET pendingAt = :v")
              .expressionAttributeValues(Map.of(":v", s("")))));
    }
    assertNothingWritten(table, before);
  }

  /**
   * In TransactWriteItems DynamoDB splits these by fault: an index key of the wrong type cancels
   * its action with a ValidationError reason in the put's words (a Put or an Update), an empty
   * one fails the whole request, in a put's words for a Put and an update's for an Update (an
   * item updated or created). Nothing is written either way.
   */
  @Test
  void aTransactionCancelsAWrongIndexKeyTypeAndRefusesAnEmptyOne() {
    String table = createOrders();
    putOrder(table, "u", "o1", "p1", "5", "new", null);
    Map<String, AttributeValue> o1 = item("userId", s("u"), "orderId", s("o1"));
    Map<String, AttributeValue> before = dynamo.getItem(r -> r.tableName(table).key(o1)).item();

    assertCancelledForProductType(TransactWriteItem.builder().put(p -> p.tableName(table).item(
        item("userId", s("u"), "orderId", s("o2"), "productId", n("5")))).build());
    assertValidation("One or more parameter values are not valid. A value specified for a"
            + " secondary index key is not supported. The AttributeValue for a key attribute"
            + " cannot contain an empty string value. IndexName: ProductOrderIndex, IndexKey:"
            + " productId",
        () -> dynamo.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
            .put(p -> p.tableName(table).item(
                item("userId", s("u"), "orderId", s("o2"), "productId", s("")))).build())));

    for (String order : List.of("o1", "o2")) { // an item updated, an item the update creates
      Map<String, AttributeValue> key = item("userId", s("u"), "orderId", s(order));
      assertCancelledForProductType(TransactWriteItem.builder().update(u -> u.tableName(table)
          .key(key).updateExpression("SET productId = :v")
          .expressionAttributeValues(Map.of(":v", n("5")))).build());
      // Beside a ConditionCheck that fails: the empty key still fails the request, uncancelled.
      assertValidation("One or more parameter values are not valid. The update expression"
              + " attempted to update a secondary index key to a value that is not supported."
              + " The AttributeValue for a key attribute cannot contain an empty string value.",
          () -> dynamo.transactWriteItems(r -> r.transactItems(
              TransactWriteItem.builder().conditionCheck(c -> c.tableName(table)
                  .key(item("userId", s("u"), "orderId", s("o9")))
                  .conditionExpression("attribute_exists(userId)")).build(),
              TransactWriteItem.builder().update(u -> u.tableName(table).key(key)
                  .updateExpression("SET pendingAt = :v")
                  .expressionAttributeValues(Map.of(":v", s("")))).build())));
    }
    assertNothingWritten(table, before);
  }

  /** The transaction of {@code action} alone is cancelled for its productId of type N. */
  private void assertCancelledForProductType(TransactWriteItem action) {
    TransactionCanceledException e = catchThrowableOfType(TransactionCanceledException.class,
        () -> dynamo.transactWriteItems(r -> r.transactItems(action)));
    assertThat(e).isNotNull();
    assertThat(e.cancellationReasons()).singleElement().satisfies(reason -> {
      assertThat(reason.code()).isEqualTo("ValidationError");
      assertThat(reason.message()).isEqualTo(PRODUCT_IS_NUMBER);
    });
  }

  /**
   * A malformed ExclusiveStartKey on a GSI and an LSI, for Query and Scan alike, in DynamoDB's
   * recorded words for each fault: the wrong number of attributes or an index key attribute
   * missing is "The provided starting key is invalid", an index key attribute of the wrong type
   * "The provided key element does not match the schema" (bare), a table key attribute the index
   * lacks, missing or of the wrong type, the same words after "The provided starting key is
   * invalid: ". A well-formed one pages on.
   */
  @Test
  void aMalformedExclusiveStartKeyOnAnIndexIsRefusedInDynamoDbsWords() {
    String table = createOrders();
    putOrder(table, "u", "o1", "p1", "5", "new", "2026-03-01");
    putOrder(table, "u", "o2", "p1", "7", "new", "2026-03-01");
    String invalid = "The provided starting key is invalid";
    String indexKeyType = "The provided key element does not match the schema";
    String tableKey = "The provided starting key is invalid: The provided key element does not"
        + " match the schema";

    // GSI PendingIndex: pendingAt, and the table's userId and orderId.
    Map<Map<String, AttributeValue>, String> gsi = new java.util.LinkedHashMap<>();
    gsi.put(item("pendingAt", s("2026-03-01")), invalid);
    gsi.put(item("pendingAt", s("2026-03-01"), "userId", s("u"), "orderId", s("o1"),
        "total", n("5")), invalid);
    gsi.put(item("userId", s("u"), "orderId", s("o1"), "productId", s("p1")), invalid);
    gsi.put(item("pendingAt", n("1"), "userId", s("u"), "orderId", s("o1")), indexKeyType);
    gsi.put(item("pendingAt", s("2026-03-01"), "userId", n("1"), "orderId", s("o1")), tableKey);
    gsi.put(item("pendingAt", s("2026-03-01"), "userId", s("u"), "productId", s("o1")),
        tableKey);
    gsi.forEach((start, message) -> {
      assertValidation(message, () -> dynamo.query(r -> r.tableName(table)
          .indexName("PendingIndex").keyConditionExpression("pendingAt = :p")
          .expressionAttributeValues(Map.of(":p", s("2026-03-01"))).exclusiveStartKey(start)));
      assertValidation(message, () -> dynamo.scan(r -> r.tableName(table)
          .indexName("PendingIndex").exclusiveStartKey(start)));
    });

    // LSI ByTotal: userId and total, and the table's orderId.
    Map<Map<String, AttributeValue>, String> lsi = new java.util.LinkedHashMap<>();
    lsi.put(item("userId", s("u"), "orderId", s("o1")), invalid);
    lsi.put(item("userId", s("u"), "orderId", s("o1"), "productId", s("p1")), invalid);
    lsi.put(item("userId", s("u"), "orderId", s("o1"), "total", s("5")), indexKeyType);
    lsi.put(item("userId", n("1"), "orderId", s("o1"), "total", n("5")), indexKeyType);
    lsi.put(item("userId", s("u"), "orderId", n("1"), "total", n("5")), tableKey);
    lsi.forEach((start, message) -> {
      assertValidation(message, () -> dynamo.query(r -> r.tableName(table).indexName("ByTotal")
          .keyConditionExpression("userId = :u")
          .expressionAttributeValues(Map.of(":u", s("u"))).exclusiveStartKey(start)));
      assertValidation(message, () -> dynamo.scan(r -> r.tableName(table).indexName("ByTotal")
          .exclusiveStartKey(start)));
    });

    // Well-formed keys page on to the second item.
    QueryResponse firstGsiPage = dynamo.query(r -> r.tableName(table).indexName("PendingIndex")
        .keyConditionExpression("pendingAt = :p")
        .expressionAttributeValues(Map.of(":p", s("2026-03-01"))).limit(1));
    assertThat(dynamo.query(r -> r.tableName(table).indexName("PendingIndex")
        .keyConditionExpression("pendingAt = :p")
        .expressionAttributeValues(Map.of(":p", s("2026-03-01")))
        .exclusiveStartKey(firstGsiPage.lastEvaluatedKey())).count()).isEqualTo(1);
    assertThat(dynamo.query(r -> r.tableName(table).indexName("ByTotal")
        .keyConditionExpression("userId = :u").expressionAttributeValues(Map.of(":u", s("u")))
        .exclusiveStartKey(item("userId", s("u"), "orderId", s("o1"), "total", n("5"))))
        .items()).extracting(i -> i.get("orderId").s()).containsExactly("o2");
  }

  @Test
  void validationErrors() {
    String table = createOrders();
    assertValidation("The table does not have the specified index: Nope",
        () -> dynamo.query(r -> r.tableName(table).indexName("Nope")
            .keyConditionExpression("productId = :p")
            .expressionAttributeValues(Map.of(":p", s("x")))));
    assertValidation("Consistent reads are not supported on global secondary indexes",
        () -> dynamo.query(r -> r.tableName(table).indexName("ProductOrderIndex")
            .consistentRead(true).keyConditionExpression("productId = :p")
            .expressionAttributeValues(Map.of(":p", s("x")))));
    assertValidation("One or more parameter values were invalid: Type mismatch for Index Key"
            + " productId Expected: S Actual: N IndexName: ProductOrderIndex",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("userId", s("u"),
            "orderId", s("o"), "productId", n("5")))));
    assertValidation("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is"
            + " not supported for global secondary index PendingIndex because its projection"
            + " type is not ALL",
        () -> dynamo.query(r -> r.tableName(table).indexName("PendingIndex")
            .select(Select.ALL_ATTRIBUTES).keyConditionExpression("pendingAt = :p")
            .expressionAttributeValues(Map.of(":p", s("x")))));
    assertValidation("One or more parameter values were invalid: Table KeySchema does not have a"
            + " range key, which is required when specifying a LocalSecondaryIndex",
        () -> dynamo.createTable(CreateTableRequest.builder()
            .tableName(uniqueTableName("bad"))
            .attributeDefinitions(attribute("a", S), attribute("b", S))
            .keySchema(key("a", KeyType.HASH))
            .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("ByB")
                .keySchema(key("a", KeyType.HASH), key("b", KeyType.RANGE))
                .projection(p -> p.projectionType(ProjectionType.ALL)).build())
            .billingMode(BillingMode.PAY_PER_REQUEST).build()));
    assertValidation("One or more parameter values were invalid: Duplicate index name: Same",
        () -> dynamo.createTable(CreateTableRequest.builder()
            .tableName(uniqueTableName("bad"))
            .attributeDefinitions(attribute("a", S), attribute("b", S))
            .keySchema(key("a", KeyType.HASH))
            .globalSecondaryIndexes(
                GlobalSecondaryIndex.builder().indexName("Same")
                    .keySchema(key("b", KeyType.HASH))
                    .projection(p -> p.projectionType(ProjectionType.ALL)).build(),
                GlobalSecondaryIndex.builder().indexName("Same")
                    .keySchema(key("b", KeyType.HASH))
                    .projection(p -> p.projectionType(ProjectionType.ALL)).build())
            .billingMode(BillingMode.PAY_PER_REQUEST).build()));
  }
}
