package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Tables and items survive a restart: the server is stopped (closing its storage) and started
 * again on the same data directory. Only a durable engine can do this, so the test is skipped on
 * in-memory storage and on an external endpoint.
 */
class RestartTest extends EndToEndTest {

  @BeforeEach
  void onlyOnDurableStorage() {
    assumeTrue(target.isDurable(), "restart needs durable storage on a data directory");
  }

  @Test
  void tablesAndItemsAreThereAfterARestart() {
    String orders = createTable("restart-orders", "customerId", ScalarAttributeType.S,
        "orderDate", ScalarAttributeType.S);
    String sessions = createTable("restart-sessions", "sessionId", ScalarAttributeType.B);
    String dropped = createTable("restart-dropped", "id", ScalarAttributeType.N);
    dynamo.updateTable(r -> r.tableName(sessions).billingMode(BillingMode.PROVISIONED)
        .provisionedThroughput(t -> t.readCapacityUnits(3L).writeCapacityUnits(4L)));
    awaitActive(sessions);

    Map<String, AttributeValue> order = item("customerId", s("C#123"), "orderDate",
        s("2026-03-14"), "total", n("49.99"), "lines", l(m(item("sku", s("A1"), "qty", n("2")))),
        "tags", AttributeValue.fromSs(List.of("gift", "express")));
    for (String date : List.of("2026-01-05", "2026-06-16")) {
      dynamo.putItem(r -> r.tableName(orders).item(
          item("customerId", s("C#123"), "orderDate", s(date))));
    }
    dynamo.putItem(r -> r.tableName(orders).item(order));
    dynamo.putItem(r -> r.tableName(orders).item(
        item("customerId", s("C#123"), "orderDate", s("2025-01-01"))));
    dynamo.deleteItem(r -> r.tableName(orders).key(
        item("customerId", s("C#123"), "orderDate", s("2025-01-01"))));
    dynamo.putItem(r -> r.tableName(sessions).item(item("sessionId", b(0xff, 0x00), "u", s("x"))));
    dynamo.deleteTable(r -> r.tableName(dropped));
    TableDescription before = dynamo.describeTable(r -> r.tableName(orders)).table();

    endpoint.restart();
    dynamo = endpoint.client();

    TableDescription after = dynamo.describeTable(r -> r.tableName(orders)).table();
    assertThat(after.tableArn()).isEqualTo(before.tableArn());
    assertThat(after.creationDateTime()).isEqualTo(before.creationDateTime());
    assertThat(after.keySchema()).isEqualTo(before.keySchema());
    assertThat(after.attributeDefinitions()).isEqualTo(before.attributeDefinitions());
    assertThat(after.keySchema().get(1)).isEqualTo(key("orderDate", KeyType.RANGE));

    TableDescription provisioned = dynamo.describeTable(r -> r.tableName(sessions)).table();
    assertThat(provisioned.billingModeSummary().billingMode()).isEqualTo(BillingMode.PROVISIONED);
    assertThat(provisioned.provisionedThroughput().readCapacityUnits()).isEqualTo(3L);
    assertThat(provisioned.provisionedThroughput().writeCapacityUnits()).isEqualTo(4L);

    assertThat(dynamo.listTables().tableNames()).contains(orders, sessions).doesNotContain(dropped);
    assertThat(catchDescribe(dropped)).isNotNull();

    Map<String, AttributeValue> read = dynamo.getItem(r -> r.tableName(orders).key(
        item("customerId", s("C#123"), "orderDate", s("2026-03-14")))).item();
    assertThat(read.get("total")).isEqualTo(n("49.99"));
    assertThat(read.get("lines")).isEqualTo(order.get("lines"));
    assertThat(read.get("tags").ss()).containsExactlyInAnyOrder("gift", "express");
    assertThat(dynamo.query(r -> r.tableName(orders)
        .keyConditionExpression("customerId = :c")
        .expressionAttributeValues(Map.of(":c", s("C#123")))
        .scanIndexForward(false)).items())
        .extracting(i -> i.get("orderDate").s())
        .containsExactly("2026-06-16", "2026-03-14", "2026-01-05");
    assertThat(dynamo.getItem(r -> r.tableName(sessions).key(item("sessionId", b(0xff, 0x00))))
        .item()).isEqualTo(item("sessionId", b(0xff, 0x00), "u", s("x")));

    // And the reopened store takes writes.
    dynamo.putItem(r -> r.tableName(orders).item(
        item("customerId", s("C#123"), "orderDate", s("2026-07-01"))));
    assertThat(dynamo.scan(r -> r.tableName(orders)).count()).isEqualTo(4);
  }

  private ResourceNotFoundException catchDescribe(String table) {
    try {
      dynamo.describeTable(r -> r.tableName(table));
      return null;
    } catch (ResourceNotFoundException e) {
      return e;
    }
  }
}
