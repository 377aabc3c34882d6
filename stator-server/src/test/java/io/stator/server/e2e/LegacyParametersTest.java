package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The legacy (pre-expression) parameters, which DynamoDB still accepts: Expected with Exists,
 * Value, ComparisonOperator and AttributeValueList, ConditionalOperator, AttributeUpdates (PUT,
 * ADD, DELETE), KeyConditions, QueryFilter, ScanFilter and AttributesToGet; and the error of
 * mixing a legacy parameter with its expression counterpart.
 *
 * <p>Where the peer implementation used to check these expectations differs, DynamoDB's
 * documented behaviour is kept (the assertions are skipped on an external endpoint):
 *
 * <ul>
 *   <li>ConditionalOperator OR: the peer stops at the first condition that fails, so an OR of a
 *       false and a true condition fails. The reference: "OR - If at least one of the conditions
 *       evaluate to true, then the entire map evaluates to true."
 *   <li>Exists true with a Value: the peer checks only that the attribute exists; the reference
 *       says DynamoDB "will check to see if that attribute value already exists in the table",
 *       the value compared for equality.
 *   <li>A ComparisonOperator given a value of a type it does not take (GT with a string set)
 *       in Expected: the peer accepts it; DynamoDB rejects it as it does in QueryFilter
 *       ("ComparisonOperator GT is not valid for SS AttributeValue type").
 * </ul>
 */
class LegacyParametersTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;
  private static final Map<String, AttributeValue> KEY = Map.of("Id", AttributeValue.fromN("456"));

  private String productTable() {
    String table = createTable("legacy", "Id", N);
    dynamo.putItem(r -> r.tableName(table).item(item(
        "Id", n("456"),
        "ProductCategory", s("Sporting Goods"),
        "Title", s("Bicycle 456"),
        "Price", n("650"),
        "Color", AttributeValue.fromSs(List.of("Red", "Black")),
        "Tags", l(s("bike"), n("7")))));
    return table;
  }

  private static ExpectedAttributeValue expected(ComparisonOperator op, AttributeValue... values) {
    return ExpectedAttributeValue.builder().comparisonOperator(op)
        .attributeValueList(values).build();
  }

  private static Condition condition(ComparisonOperator op, AttributeValue... values) {
    return Condition.builder().comparisonOperator(op).attributeValueList(values).build();
  }

  /** Whether a conditional put of an unchanged attribute with these expectations succeeds. */
  private boolean holds(String table, ConditionalOperator operator,
      Map<String, ExpectedAttributeValue> expected) {
    try {
      dynamo.updateItem(r -> r.tableName(table).key(KEY)
          .attributeUpdates(Map.of("Checked", AttributeValueUpdate.builder()
              .action(AttributeAction.PUT).value(AttributeValue.fromBool(true)).build()))
          .expected(expected).conditionalOperator(operator));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  private boolean holds(String table, String name, ExpectedAttributeValue expected) {
    return holds(table, null, Map.of(name, expected));
  }

  // ---- Expected ------------------------------------------------------------------------------

  @Test
  void expectedExistsAndValue() {
    String table = productTable();
    Map<String, AttributeValue> newItem = item("Id", n("457"), "Title", s("new"));
    Map<String, ExpectedAttributeValue> absent =
        Map.of("Id", ExpectedAttributeValue.builder().exists(false).build());
    dynamo.putItem(r -> r.tableName(table).item(newItem).expected(absent));
    assertThat(catchThrowableOfType(ConditionalCheckFailedException.class,
        () -> dynamo.putItem(r -> r.tableName(table).item(newItem).expected(absent))))
        .isNotNull();

    assertThat(holds(table, "Price", ExpectedAttributeValue.builder().value(n("650.0")).build()))
        .isTrue();
    if (!onPeer()) {
      assertThat(holds(table, "Price",
          ExpectedAttributeValue.builder().value(n("651")).exists(true).build())).isFalse();
    }
    assertThat(holds(table, "Nothing", ExpectedAttributeValue.builder().exists(false).build()))
        .isTrue();
    assertThat(holds(table, "Price", ExpectedAttributeValue.builder().exists(false).build()))
        .isFalse();
  }

  @Test
  void expectedComparisonOperators() {
    String table = productTable();
    assertThat(holds(table, "Price", expected(ComparisonOperator.EQ, n("650")))).isTrue();
    assertThat(holds(table, "Price", expected(ComparisonOperator.NE, n("650")))).isFalse();
    assertThat(holds(table, "Price", expected(ComparisonOperator.LT, n("651")))).isTrue();
    assertThat(holds(table, "Price", expected(ComparisonOperator.LE, n("649")))).isFalse();
    assertThat(holds(table, "Price", expected(ComparisonOperator.GT, n("500")))).isTrue();
    assertThat(holds(table, "Price", expected(ComparisonOperator.GE, n("650")))).isTrue();
    // {"S":"650"} does not match {"N":"650"}.
    assertThat(holds(table, "Price", expected(ComparisonOperator.EQ, s("650")))).isFalse();
    assertThat(holds(table, "Price", expected(ComparisonOperator.NE, s("650")))).isTrue();
    assertThat(holds(table, "Price", expected(ComparisonOperator.NOT_NULL))).isTrue();
    assertThat(holds(table, "Price", expected(ComparisonOperator.NULL))).isFalse();
    assertThat(holds(table, "Nothing", expected(ComparisonOperator.NULL))).isTrue();
    assertThat(holds(table, "Color", expected(ComparisonOperator.CONTAINS, s("Red")))).isTrue();
    assertThat(holds(table, "Title", expected(ComparisonOperator.CONTAINS, s("cycle"))))
        .isTrue();
    assertThat(holds(table, "Tags", expected(ComparisonOperator.CONTAINS, n("7")))).isTrue();
    assertThat(holds(table, "Color", expected(ComparisonOperator.NOT_CONTAINS, s("Red"))))
        .isFalse();
    assertThat(holds(table, "Title", expected(ComparisonOperator.BEGINS_WITH, s("Bi")))).isTrue();
    assertThat(holds(table, "ProductCategory",
        expected(ComparisonOperator.IN, s("Books"), s("Sporting Goods")))).isTrue();
    assertThat(holds(table, "Price", expected(ComparisonOperator.BETWEEN, n("600"), n("650"))))
        .isTrue();
    assertThat(holds(table, "Price", expected(ComparisonOperator.BETWEEN, n("651"), n("700"))))
        .isFalse();
  }

  @Test
  void conditionalOperatorJoinsTheExpectations() {
    String table = productTable();
    Map<String, ExpectedAttributeValue> oneOfTwo = Map.of(
        "Price", expected(ComparisonOperator.GT, n("1000")),
        "ProductCategory", expected(ComparisonOperator.EQ, s("Sporting Goods")));
    if (!onPeer()) {
      assertThat(holds(table, ConditionalOperator.OR, oneOfTwo)).isTrue();
    }
    assertThat(holds(table, ConditionalOperator.AND, oneOfTwo)).isFalse();
    // AND is the default.
    assertThat(holds(table, null, oneOfTwo)).isFalse();
  }

  @Test
  void expectedErrors() {
    String table = productTable();
    assertValidation("One or more parameter values were invalid: Value cannot be used when "
            + "Exists is false for Attribute: Price",
        () -> holds(table, "Price",
            ExpectedAttributeValue.builder().exists(false).value(n("1")).build()));
    assertValidation("One or more parameter values were invalid: Invalid number of argument(s) "
            + "for the BETWEEN ComparisonOperator",
        () -> holds(table, "Price", expected(ComparisonOperator.BETWEEN, n("1"))));
    if (!onPeer()) {
      assertValidation("One or more parameter values were invalid: ComparisonOperator GT is not "
              + "valid for SS AttributeValue type",
          () -> holds(table, "Color",
              expected(ComparisonOperator.GT, AttributeValue.fromSs(List.of("a")))));
    }
  }

  @Test
  void eqAndNeTakeEveryTypeListsMapsBooleansAndNulls() {
    String table = productTable();
    dynamo.updateItem(r -> r.tableName(table).key(KEY).attributeUpdates(Map.of(
        "Dimensions", put(m(item("w", n("60"), "h", n("110")))),
        "InStock", put(AttributeValue.fromBool(true)),
        "Discount", put(AttributeValue.fromNul(true)))));
    Map<String, AttributeValue> equal = item("Tags", l(s("bike"), n("7")),
        "Dimensions", m(item("h", n("110"), "w", n("60"))), "InStock", AttributeValue.fromBool(true),
        "Discount", AttributeValue.fromNul(true));
    // Expected: each equal value holds with EQ and fails with NE; another value the reverse.
    equal.forEach((name, value) -> {
      assertThat(holds(table, name, expected(ComparisonOperator.EQ, value))).as(name).isTrue();
      assertThat(holds(table, name, expected(ComparisonOperator.NE, value))).as(name).isFalse();
    });
    assertThat(holds(table, "Tags", expected(ComparisonOperator.EQ, l(s("bike"))))).isFalse();
    assertThat(holds(table, "InStock",
        expected(ComparisonOperator.NE, AttributeValue.fromBool(false)))).isTrue();
    // ScanFilter and QueryFilter alike.
    ScanResponse scan = dynamo.scan(r -> r.tableName(table).scanFilter(Map.of(
        "Dimensions", condition(ComparisonOperator.EQ, equal.get("Dimensions")),
        "Discount", condition(ComparisonOperator.EQ, AttributeValue.fromNul(true)))));
    assertThat(scan.count()).isEqualTo(1);
    QueryResponse query = dynamo.query(r -> r.tableName(table)
        .keyConditions(Map.of("Id", condition(ComparisonOperator.EQ, n("456"))))
        .queryFilter(Map.of("InStock",
            condition(ComparisonOperator.NE, AttributeValue.fromBool(true)))));
    assertThat(query.count()).isZero();
    // The other operators keep the types the reference gives them.
    assertValidation("One or more parameter values were invalid: ComparisonOperator LT is not "
            + "valid for L AttributeValue type",
        () -> holds(table, "Tags", expected(ComparisonOperator.LT, l(s("bike")))));
    assertValidation("One or more parameter values were invalid: ComparisonOperator CONTAINS is"
            + " not valid for M AttributeValue type",
        () -> dynamo.scan(r -> r.tableName(table).scanFilter(Map.of("Dimensions",
            condition(ComparisonOperator.CONTAINS, equal.get("Dimensions"))))));
    assertValidation("One or more parameter values were invalid: ComparisonOperator IN is not "
            + "valid for BOOL AttributeValue type",
        () -> dynamo.scan(r -> r.tableName(table).scanFilter(Map.of("InStock",
            condition(ComparisonOperator.IN, AttributeValue.fromBool(true))))));
  }

  private static AttributeValueUpdate put(AttributeValue value) {
    return AttributeValueUpdate.builder().action(AttributeAction.PUT).value(value).build();
  }

  // ---- AttributeUpdates ----------------------------------------------------------------------

  @Test
  void attributeUpdatesPutAddAndDelete() {
    String table = productTable();
    Map<String, AttributeValueUpdate> updates = new java.util.LinkedHashMap<>();
    updates.put("Title", AttributeValueUpdate.builder()
        .action(AttributeAction.PUT).value(s("Bicycle 456 v2")).build());
    updates.put("Price", AttributeValueUpdate.builder()
        .action(AttributeAction.ADD).value(n("-50")).build());
    updates.put("Stock", AttributeValueUpdate.builder()
        .action(AttributeAction.ADD).value(n("3")).build());
    updates.put("Color", AttributeValueUpdate.builder()
        .action(AttributeAction.ADD).value(AttributeValue.fromSs(List.of("Blue"))).build());
    updates.put("Tags", AttributeValueUpdate.builder().action(AttributeAction.DELETE).build());
    Map<String, AttributeValue> updatedNew = dynamo.updateItem(r -> r.tableName(table).key(KEY)
        .attributeUpdates(updates).returnValues(ReturnValue.UPDATED_NEW)).attributes();
    assertThat(updatedNew).containsOnlyKeys("Title", "Price", "Stock", "Color");
    assertThat(updatedNew.get("Price")).isEqualTo(n("600"));
    assertThat(updatedNew.get("Stock")).isEqualTo(n("3"));
    assertThat(updatedNew.get("Color").ss()).containsExactlyInAnyOrder("Red", "Black", "Blue");

    dynamo.updateItem(r -> r.tableName(table).key(KEY).attributeUpdates(Map.of(
        "Color", AttributeValueUpdate.builder().action(AttributeAction.DELETE)
            .value(AttributeValue.fromSs(List.of("Red", "Black"))).build())));
    Map<String, AttributeValue> item = dynamo.getItem(r -> r.tableName(table).key(KEY)).item();
    assertThat(item.get("Color").ss()).containsExactly("Blue");
    assertThat(item.get("Title")).isEqualTo(s("Bicycle 456 v2"));
    assertThat(item).doesNotContainKey("Tags");

    // The default action is PUT, and an update of a missing item creates it.
    dynamo.updateItem(r -> r.tableName(table).key(item("Id", n("1"))).attributeUpdates(Map.of(
        "Title", AttributeValueUpdate.builder().value(s("created")).build())));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("Id", n("1")))).item())
        .isEqualTo(item("Id", n("1"), "Title", s("created")));

    assertValidation("One or more parameter values were invalid: Cannot update attribute Id. "
            + "This attribute is part of the key",
        () -> dynamo.updateItem(r -> r.tableName(table).key(KEY).attributeUpdates(Map.of(
            "Id", AttributeValueUpdate.builder().value(n("2")).build()))));
  }

  // ---- KeyConditions, QueryFilter, ScanFilter, AttributesToGet -------------------------------

  private String ordersTable() {
    String table = createTable("legacy-query", "pk", S, "sk", S);
    for (int i = 1; i <= 6; i++) {
      String sk = "ORDER#" + i;
      int k = i;
      dynamo.putItem(r -> r.tableName(table).item(item(
          "pk", s("CUSTOMER#1"), "sk", s(sk), "total", n(Integer.toString(k * 10)),
          "status", s(k % 2 == 0 ? "PENDING" : "SHIPPED"))));
    }
    dynamo.putItem(r -> r.tableName(table).item(item(
        "pk", s("CUSTOMER#1"), "sk", s("PROFILE"), "name", s("Alice"))));
    return table;
  }

  @Test
  void keyConditionsQueryFilterAndAttributesToGet() {
    String table = ordersTable();
    QueryResponse orders = dynamo.query(r -> r.tableName(table)
        .keyConditions(Map.of(
            "pk", condition(ComparisonOperator.EQ, s("CUSTOMER#1")),
            "sk", condition(ComparisonOperator.BEGINS_WITH, s("ORDER#"))))
        .queryFilter(Map.of("status", condition(ComparisonOperator.EQ, s("SHIPPED"))))
        .attributesToGet("sk", "total"));
    assertThat(orders.items()).containsExactly(
        item("sk", s("ORDER#1"), "total", n("10")),
        item("sk", s("ORDER#3"), "total", n("30")),
        item("sk", s("ORDER#5"), "total", n("50")));
    assertThat(orders.scannedCount()).isEqualTo(6);

    QueryResponse between = dynamo.query(r -> r.tableName(table)
        .keyConditions(Map.of(
            "pk", condition(ComparisonOperator.EQ, s("CUSTOMER#1")),
            "sk", condition(ComparisonOperator.BETWEEN, s("ORDER#2"), s("ORDER#4"))))
        .queryFilter(Map.of(
            "total", condition(ComparisonOperator.GE, n("40")),
            "status", condition(ComparisonOperator.EQ, s("SHIPPED"))))
        .conditionalOperator(ConditionalOperator.OR)
        .scanIndexForward(false));
    if (!onPeer()) {
      assertThat(between.items()).extracting(i -> i.get("sk").s())
          .containsExactly("ORDER#4", "ORDER#3");
    }

    assertThat(dynamo.getItem(r -> r.tableName(table)
        .key(item("pk", s("CUSTOMER#1"), "sk", s("PROFILE")))
        .attributesToGet("name", "nothing")).item()).isEqualTo(item("name", s("Alice")));
  }

  @Test
  void scanFilter() {
    String table = ordersTable();
    ScanResponse scan = dynamo.scan(r -> r.tableName(table)
        .scanFilter(Map.of(
            "total", condition(ComparisonOperator.GT, n("20")),
            "status", condition(ComparisonOperator.NE, s("SHIPPED"))))
        .attributesToGet("sk"));
    assertThat(scan.items()).containsExactlyInAnyOrder(
        item("sk", s("ORDER#4")), item("sk", s("ORDER#6")));
    assertThat(scan.scannedCount()).isEqualTo(7);
    ScanResponse noName = dynamo.scan(r -> r.tableName(table)
        .scanFilter(Map.of("name", condition(ComparisonOperator.NULL))));
    assertThat(noName.count()).isEqualTo(6);
  }

  // ---- mixing --------------------------------------------------------------------------------

  @Test
  void mixingALegacyParameterWithAnExpressionIsAnError() {
    String table = productTable();
    ExpectedAttributeValue exists = ExpectedAttributeValue.builder().exists(true)
        .value(n("650")).build();
    mixed("{Expected} Expression parameters: {ConditionExpression}",
        () -> dynamo.putItem(r -> r.tableName(table).item(KEY)
            .expected(Map.of("Price", exists))
            .conditionExpression("attribute_exists(Id)")));
    mixed("{AttributeUpdates} Expression parameters: {UpdateExpression}",
        () -> dynamo.updateItem(r -> r.tableName(table).key(KEY)
            .attributeUpdates(Map.of("Title", AttributeValueUpdate.builder().value(s("x")).build()))
            .updateExpression("REMOVE Title")));
    mixed("{Expected} Expression parameters: {UpdateExpression}",
        () -> dynamo.updateItem(r -> r.tableName(table).key(KEY)
            .expected(Map.of("Price", exists))
            .updateExpression("REMOVE Title")));
    mixed("{Expected} Expression parameters: {ConditionExpression}",
        () -> dynamo.deleteItem(r -> r.tableName(table).key(KEY)
            .expected(Map.of("Price", exists))
            .conditionExpression("attribute_exists(Id)")));
    mixed("{AttributesToGet} Expression parameters: {ProjectionExpression}",
        () -> dynamo.getItem(r -> r.tableName(table).key(KEY)
            .attributesToGet("Title").projectionExpression("Price")));
    mixed("{ScanFilter} Expression parameters: {FilterExpression}",
        () -> dynamo.scan(r -> r.tableName(table)
            .scanFilter(Map.of("Price", condition(ComparisonOperator.NOT_NULL)))
            .filterExpression("attribute_exists(Price)")));
    mixed("{KeyConditions} Expression parameters: {KeyConditionExpression}",
        () -> dynamo.query(r -> r.tableName(table)
            .keyConditions(Map.of("Id", condition(ComparisonOperator.EQ, n("456"))))
            .keyConditionExpression("Id = :id")
            .expressionAttributeValues(Map.of(":id", n("456")))));
    mixed("{QueryFilter} Expression parameters: {FilterExpression, KeyConditionExpression}",
        () -> dynamo.query(r -> r.tableName(table)
            .keyConditionExpression("Id = :id")
            .queryFilter(Map.of("Price", condition(ComparisonOperator.NOT_NULL)))
            .filterExpression("attribute_exists(Price)")
            .expressionAttributeValues(Map.of(":id", n("456")))));

    assertValidation("ExpressionAttributeNames can only be specified when using expressions",
        () -> dynamo.putItem(r -> r.tableName(table).item(KEY)
            .expected(Map.of("Price", exists))
            .expressionAttributeNames(Map.of("#p", "Price"))));
    assertValidation("ExpressionAttributeValues can only be specified when using expressions: "
            + "ConditionExpression is null",
        () -> dynamo.putItem(r -> r.tableName(table).item(KEY)
            .expressionAttributeValues(Map.of(":p", n("1")))));
    // Nothing was written by any of these.
    assertThat(dynamo.getItem(r -> r.tableName(table).key(KEY)).item()).containsKey("Title");
  }

  private static void mixed(String parameters, ThrowingCallable call) {
    assertValidation("Can not use both expression and non-expression parameters in the same "
        + "request: Non-expression parameters: " + parameters, call);
  }

  /**
   * Whether the run is against the peer implementation, which is known to differ from DynamoDB
   * on the assertions so guarded (see the class comment).
   */
  private boolean onPeer() {
    return endpoint.target() == Target.EXTERNAL;
  }
}
