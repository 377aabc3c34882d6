package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.engine.EngineOptions;
import io.stator.server.StatorServer;
import io.stator.storage.memory.MemoryStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionSizeLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnItemCollectionMetrics;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Through the AWS SDK: multi-attribute GSI keys (DynamoDB, November 2025), index write capacity
 * per index, and item collections of tables with an LSI (ReturnItemCollectionMetrics and the
 * size limit).
 *
 * <p>Peers that predate multi-attribute keys refuse their key schemas; the error wording of the
 * multi-attribute Query rules is Stator's (DynamoDB documents none).
 */
class IndexKeysAndWritesTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  // ---- multi-attribute GSI keys --------------------------------------------------------------

  private String createSales() {
    String name = uniqueTableName("sales");
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(name)
        .attributeDefinitions(attribute("id", S), attribute("tenant", S), attribute("area", S),
            attribute("year", N), attribute("month", N), attribute("sku", S))
        .keySchema(key("id", KeyType.HASH))
        .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
            .indexName("BySale")
            .keySchema(key("tenant", KeyType.HASH), key("area", KeyType.HASH),
                key("year", KeyType.RANGE), key("month", KeyType.RANGE),
                key("sku", KeyType.RANGE))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
            .build())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(name);
    return name;
  }

  private void putSale(String table, String id, String area, String year, String month,
      String sku) {
    Map<String, AttributeValue> item = new java.util.LinkedHashMap<>(
        item("id", s(id), "tenant", s("acme"), "area", s(area), "year", n(year), "sku", s(sku)));
    if (month != null) {
      item.put("month", n(month));
    }
    dynamo.putItem(r -> r.tableName(table).item(item));
  }

  private List<String> saleIds(String table, String condition, Map<String, AttributeValue> values,
      Integer limit, List<Map<String, AttributeValue>> lastKeys) {
    List<String> ids = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page = dynamo.query(r -> r.tableName(table).indexName("BySale")
          .keyConditionExpression(condition)
          .expressionAttributeNames(names(condition))
          .expressionAttributeValues(values).limit(limit).exclusiveStartKey(from));
      page.items().forEach(i -> ids.add(i.get("id").s()));
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
          ? page.lastEvaluatedKey() : null;
      if (start != null && lastKeys != null) {
        lastKeys.add(start);
      }
    } while (start != null);
    return ids;
  }

  private static Map<String, String> names(String condition) {
    Map<String, String> names = new java.util.HashMap<>();
    if (condition.contains("#y")) {
      names.put("#y", "year");
    }
    if (condition.contains("#m")) {
      names.put("#m", "month");
    }
    return names.isEmpty() ? null : names;
  }

  @Test
  void multiAttributeGsiKeys() {
    String table = createSales();
    putSale(table, "s1", "eu", "2025", "3", "ab");
    putSale(table, "s2", "eu", "2025", "3", "a");
    putSale(table, "s3", "eu", "2025", "12", "a");
    putSale(table, "s4", "eu", "2024", "12", "z");
    putSale(table, "s5", "us", "2025", "3", "a");
    putSale(table, "s6", "eu", "2025", null, "a"); // no month: not in the index
    endpoint.awaitIndexes();

    Map<String, AttributeValue> eu = Map.of(":t", s("acme"), ":a", s("eu"));
    String partition = "tenant = :t AND area = :a";
    List<Map<String, AttributeValue>> lastKeys = new ArrayList<>();
    assertThat(saleIds(table, partition, eu, 2, lastKeys))
        .containsExactly("s4", "s2", "s1", "s3");
    assertThat(lastKeys).isNotEmpty().allSatisfy(k -> assertThat(k.keySet())
        .containsExactlyInAnyOrder("tenant", "area", "year", "month", "sku", "id"));

    Map<String, AttributeValue> values = new java.util.HashMap<>(eu);
    values.put(":y", n("2025"));
    values.put(":m", n("10"));
    assertThat(saleIds(table, partition + " AND #y = :y AND #m < :m", values, null, null))
        .containsExactly("s2", "s1");
    values.put(":m", n("3"));
    values.put(":s", s("a"));
    assertThat(saleIds(table,
        partition + " AND #y = :y AND #m = :m AND begins_with(sku, :s)", values, null, null))
        .containsExactly("s2", "s1");

    values.remove(":s");
    values.remove(":y");
    assertValidation("Query key condition not supported: the sort key attributes of index BySale"
            + " must be constrained from left to right; condition on month without a condition"
            + " on year",
        () -> dynamo.query(r -> r.tableName(table).indexName("BySale")
            .keyConditionExpression(partition + " AND #m = :m")
            .expressionAttributeNames(Map.of("#m", "month"))
            .expressionAttributeValues(values)));

    var described = dynamo.describeTable(r -> r.tableName(table)).table()
        .globalSecondaryIndexes().get(0).keySchema();
    assertThat(described).extracting(KeySchemaElement::attributeName)
        .containsExactly("tenant", "area", "year", "month", "sku");
  }

  @Test
  void multiAttributeKeySchemaLimits() {
    assertValidation("Invalid KeySchema: A global secondary index supports at most 4 HASH key"
            + " attributes, but index Wide has 5",
        () -> dynamo.createTable(CreateTableRequest.builder()
            .tableName(uniqueTableName("wide"))
            .attributeDefinitions(attribute("id", S), attribute("a", S), attribute("b", S),
                attribute("c", S), attribute("d", S), attribute("e", S))
            .keySchema(key("id", KeyType.HASH))
            .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                .indexName("Wide")
                .keySchema(key("a", KeyType.HASH), key("b", KeyType.HASH),
                    key("c", KeyType.HASH), key("d", KeyType.HASH), key("e", KeyType.HASH))
                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                .build())
            .billingMode(BillingMode.PAY_PER_REQUEST)
            .build()));
  }

  // ---- index capacity and item collections ---------------------------------------------------

  private String createOrders() {
    String name = uniqueTableName("orders");
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(name)
        .attributeDefinitions(attribute("userId", S), attribute("orderId", S),
            attribute("productId", S), attribute("total", N))
        .keySchema(key("userId", KeyType.HASH), key("orderId", KeyType.RANGE))
        .localSecondaryIndexes(LocalSecondaryIndex.builder()
            .indexName("ByTotal")
            .keySchema(key("userId", KeyType.HASH), key("total", KeyType.RANGE))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
            .build())
        .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
            .indexName("ByProduct")
            .keySchema(key("productId", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.ALL))
            .build())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(name);
    return name;
  }

  private static Map<String, AttributeValue> order(String user, String order, String product) {
    return item("userId", s(user), "orderId", s(order), "productId", s(product), "total",
        n("5"));
  }

  /** A table's or an index's share of a write, as DynamoDB reports it: CapacityUnits alone. */
  private static Capacity writes(double units) {
    return Capacity.builder().capacityUnits(units).build();
  }

  @Test
  void indexWritesInConsumedCapacity() {
    String table = createOrders();
    ConsumedCapacity put = dynamo.putItem(r -> r.tableName(table).item(order("u", "o1", "p1"))
        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    assertThat(put.capacityUnits()).isEqualTo(3.0);
    assertThat(put.table()).isEqualTo(writes(1));
    assertThat(put.globalSecondaryIndexes()).isEqualTo(Map.of("ByProduct", writes(1)));
    assertThat(put.localSecondaryIndexes()).isEqualTo(Map.of("ByTotal", writes(1)));

    // A new GSI key: a delete and a put there; the LSI's KEYS_ONLY entry is unchanged.
    ConsumedCapacity moved = dynamo.updateItem(r -> r.tableName(table)
        .key(item("userId", s("u"), "orderId", s("o1")))
        .updateExpression("SET productId = :p")
        .expressionAttributeValues(Map.of(":p", s("p2")))
        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
    assertThat(moved.globalSecondaryIndexes()).isEqualTo(Map.of("ByProduct", writes(2)));
    assertThat(moved.localSecondaryIndexes()).isEmpty();
    assertThat(moved.capacityUnits()).isEqualTo(3.0);
  }

  @Test
  void returnItemCollectionMetrics() {
    String table = createOrders();
    ItemCollectionMetrics expected = ItemCollectionMetrics.builder()
        .itemCollectionKey(Map.of("userId", s("u"))).sizeEstimateRangeGB(0.0, 1.0).build();
    assertThat(dynamo.putItem(r -> r.tableName(table).item(order("u", "o1", "p"))
        .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics())
        .isEqualTo(expected);
    assertThat(dynamo.updateItem(r -> r.tableName(table)
        .key(item("userId", s("u"), "orderId", s("o1"))).updateExpression("SET x = :x")
        .expressionAttributeValues(Map.of(":x", s("x")))
        .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics())
        .isEqualTo(expected);
    assertThat(dynamo.deleteItem(r -> r.tableName(table)
        .key(item("userId", s("u"), "orderId", s("o1")))
        .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics())
        .isEqualTo(expected);
    var batch = dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
            WriteRequest.builder().putRequest(PutRequest.builder()
                .item(order("u", "o2", "p")).build()).build())))
        .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE));
    assertThat(batch.itemCollectionMetrics().get(table)).containsExactly(expected);
    var transaction = dynamo.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
            .put(p -> p.tableName(table).item(order("u", "o3", "p"))).build())
        .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE));
    assertThat(transaction.itemCollectionMetrics().get(table)).containsExactly(expected);

    // Without SIZE, or on a table without an LSI, there is nothing.
    assertThat(dynamo.putItem(r -> r.tableName(table).item(order("u", "o4", "p")))
        .itemCollectionMetrics()).isNull();
    String plain = createTable("plain", "pk", S);
    assertThat(dynamo.putItem(r -> r.tableName(plain).item(item("pk", s("a")))
        .returnItemCollectionMetrics(ReturnItemCollectionMetrics.SIZE)).itemCollectionMetrics())
        .isNull();
  }

  /**
   * The 10 GB limit, made small: a server of its own whose engine allows 1 KB per item
   * collection (an external endpoint keeps DynamoDB's limit, which a test cannot reach).
   */
  @Test
  void itemCollectionSizeLimit() throws Exception {
    assumeTrue(target != Target.EXTERNAL, "needs a server whose limit the test sets");
    Database database = Stator.open(new MemoryStorage(),
        EngineOptions.defaults().withItemCollectionSizeLimit(1024));
    StatorServer server = StatorServer.start("127.0.0.1", 0, database);
    try (DynamoDbClient small = DynamoDbEndpoint.client(DynamoDbEndpoint.uri(server))) {
      DynamoDbClient saved = dynamo;
      dynamo = small;
      try {
        String table = createOrders();
        Map<String, AttributeValue> big = new java.util.LinkedHashMap<>(order("u", "o1", "p"));
        big.put("blob", s("x".repeat(300)));
        dynamo.putItem(r -> r.tableName(table).item(big));
        Map<String, AttributeValue> second = new java.util.LinkedHashMap<>(big);
        second.put("orderId", s("o2"));
        ItemCollectionSizeLimitExceededException e =
            catchThrowableOfType(ItemCollectionSizeLimitExceededException.class,
                () -> dynamo.putItem(r -> r.tableName(table).item(second)));
        assertThat(e).isNotNull();
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorCode())
            .isEqualTo("ItemCollectionSizeLimitExceededException");
        assertThat(e.awsErrorDetails().errorMessage())
            .startsWith("Item collection size limit exceeded.");
        // Another partition key is another collection.
        second.put("userId", s("v"));
        dynamo.putItem(r -> r.tableName(table).item(second));
      } finally {
        dynamo = saved;
      }
    } finally {
      server.close();
      database.close();
    }
  }
}
