package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * FilterExpression on Query and Scan: applied after the items are read, so Count counts the
 * matches and ScannedCount the items read, and Limit bounds the items read, not the matches;
 * a Query filter may not name a key attribute, while a Scan filter may.
 *
 * <p>The peer implementation used to check these expectations agrees with every assertion here.
 */
class FilterExpressionTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  /** A customer's ten orders, sk 1..10; odd ones are shipped, every third has a coupon. */
  private String ordersTable() {
    String table = createTable("filter", "pk", S, "sk", N);
    for (int i = 1; i <= 10; i++) {
      Map<String, AttributeValue> order = new HashMap<>(item(
          "pk", s("CUSTOMER#c1"),
          "sk", n(Integer.toString(i)),
          "status", s(i % 2 == 1 ? "SHIPPED" : "PENDING"),
          "amount", n(Integer.toString(i * 10)),
          "parts", l(java.util.stream.IntStream.range(0, i % 4)
              .mapToObj(x -> s("line")).toArray(AttributeValue[]::new))));
      if (i % 3 == 0) {
        order.put("coupon", s("SAVE" + i));
      }
      dynamo.putItem(r -> r.tableName(table).item(order));
    }
    dynamo.putItem(r -> r.tableName(table).item(item(
        "pk", s("CUSTOMER#c2"), "sk", n("1"), "status", s("SHIPPED"), "amount", n("5"))));
    return table;
  }

  @Test
  void queryFilterCountsMatchesAndScannedItems() {
    String table = ordersTable();
    QueryResponse shipped = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :pk")
        .filterExpression("#s = :shipped")
        .expressionAttributeNames(Map.of("#s", "status"))
        .expressionAttributeValues(Map.of(":pk", s("CUSTOMER#c1"), ":shipped", s("SHIPPED"))));
    assertThat(shipped.items()).extracting(i -> i.get("sk").n())
        .containsExactly("1", "3", "5", "7", "9");
    assertThat(shipped.count()).isEqualTo(5);
    assertThat(shipped.scannedCount()).isEqualTo(10);

    QueryResponse rich = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :pk AND sk BETWEEN :lo AND :hi")
        .filterExpression("attribute_exists(coupon) AND (amount > :t OR size(parts) = :zero)")
        .expressionAttributeValues(Map.of(":pk", s("CUSTOMER#c1"), ":lo", n("2"), ":hi", n("9"),
            ":t", n("70"), ":zero", n("0"))));
    // In 2..9, coupons are on 3, 6 and 9; 9 has amount 90 and 3 has 3 % 4 = 3 lines.
    assertThat(rich.items()).extracting(i -> i.get("sk").n()).containsExactly("9");
    assertThat(rich.scannedCount()).isEqualTo(8);

    QueryResponse count = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :pk")
        .filterExpression("attribute_not_exists(coupon)")
        .select(Select.COUNT)
        .expressionAttributeValues(Map.of(":pk", s("CUSTOMER#c1"))));
    assertThat(count.items()).isEmpty();
    assertThat(count.count()).isEqualTo(7);
    assertThat(count.scannedCount()).isEqualTo(10);
  }

  @Test
  void limitCountsItemsReadBeforeTheFilter() {
    String table = ordersTable();
    // The first 4 orders are read; only 1 and 3 pass.
    QueryResponse first = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :pk")
        .filterExpression("#s = :shipped")
        .limit(4)
        .expressionAttributeNames(Map.of("#s", "status"))
        .expressionAttributeValues(Map.of(":pk", s("CUSTOMER#c1"), ":shipped", s("SHIPPED"))));
    assertThat(first.items()).extracting(i -> i.get("sk").n()).containsExactly("1", "3");
    assertThat(first.count()).isEqualTo(2);
    assertThat(first.scannedCount()).isEqualTo(4);
    assertThat(first.lastEvaluatedKey())
        .isEqualTo(item("pk", s("CUSTOMER#c1"), "sk", n("4")));

    // A page may match nothing and still go on.
    QueryResponse none = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :pk")
        .filterExpression("amount > :big")
        .limit(3)
        .expressionAttributeValues(Map.of(":pk", s("CUSTOMER#c1"), ":big", n("1000"))));
    assertThat(none.items()).isEmpty();
    assertThat(none.count()).isZero();
    assertThat(none.scannedCount()).isEqualTo(3);
    assertThat(none.hasLastEvaluatedKey()).isTrue();
  }

  @Test
  void scanPagesWithAFilterFindEveryMatchOnce() {
    String table = ordersTable();
    Map<String, AttributeValue> start = null;
    int scanned = 0;
    List<String> matches = new java.util.ArrayList<>();
    do {
      Map<String, AttributeValue> from = start;
      ScanResponse page = dynamo.scan(r -> r.tableName(table)
          .filterExpression("amount >= :t AND NOT contains(#s, :p)")
          .expressionAttributeNames(Map.of("#s", "status"))
          .expressionAttributeValues(Map.of(":t", n("30"), ":p", s("PEND")))
          .limit(3)
          .exclusiveStartKey(from));
      assertThat(page.count()).isLessThanOrEqualTo(page.scannedCount());
      assertThat(page.scannedCount()).isLessThanOrEqualTo(3);
      scanned += page.scannedCount();
      page.items().forEach(i -> matches.add(i.get("pk").s() + "/" + i.get("sk").n()));
      start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    assertThat(scanned).isEqualTo(11);
    assertThat(matches).containsExactlyInAnyOrder(
        "CUSTOMER#c1/3", "CUSTOMER#c1/5", "CUSTOMER#c1/7", "CUSTOMER#c1/9");
  }

  @Test
  void aScanFilterMayNameKeyAttributes() {
    String table = ordersTable();
    ScanResponse scan = dynamo.scan(r -> r.tableName(table)
        .filterExpression("pk = :pk AND sk > :sk")
        .expressionAttributeValues(Map.of(":pk", s("CUSTOMER#c1"), ":sk", n("8"))));
    assertThat(scan.items()).extracting(i -> i.get("sk").n())
        .containsExactlyInAnyOrder("9", "10");
    assertThat(scan.scannedCount()).isEqualTo(11);
  }

  @Test
  void aQueryFilterMayNotNameAKeyAttribute() {
    String table = ordersTable();
    assertValidation("Filter Expression can only contain non-primary key attributes: "
            + "Primary key attribute: sk",
        () -> dynamo.query(r -> r.tableName(table)
            .keyConditionExpression("pk = :pk")
            .filterExpression("sk > :sk")
            .expressionAttributeValues(Map.of(":pk", s("CUSTOMER#c1"), ":sk", n("1")))));
    assertValidation("Filter Expression can only contain non-primary key attributes: "
            + "Primary key attribute: pk",
        () -> dynamo.query(r -> r.tableName(table)
            .keyConditionExpression("pk = :pk")
            .filterExpression("amount > :t AND begins_with(#k, :p)")
            .expressionAttributeNames(Map.of("#k", "pk"))
            .expressionAttributeValues(
                Map.of(":pk", s("CUSTOMER#c1"), ":t", n("1"), ":p", s("C")))));
  }

  @Test
  void filterSyntaxErrorsNameTheParameter() {
    String table = ordersTable();
    assertValidationContaining("Invalid FilterExpression: ",
        () -> dynamo.scan(r -> r.tableName(table).filterExpression("amount >")));
    assertValidation("Invalid FilterExpression: The expression can not be empty;",
        () -> dynamo.scan(r -> r.tableName(table).filterExpression("")));
    assertValidation("Invalid FilterExpression: An expression attribute value used in "
            + "expression is not defined; attribute value: :t",
        () -> dynamo.scan(r -> r.tableName(table).filterExpression("amount > :t")));
  }
}
