package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * ProjectionExpression on GetItem, Query and Scan: the developer guide's example on the
 * ProductCatalog item, nested paths through maps and lists, several indexes of one list (the
 * selected elements come back as a shorter list, in index order), paths that select nothing,
 * and the overlap errors.
 *
 * <p>The peer implementation used to check these expectations agrees with every assertion here.
 */
class ProjectionExpressionTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;
  private static final Map<String, AttributeValue> KEY = Map.of("Id", AttributeValue.fromN("123"));

  private String productTable() {
    String table = createTable("projection", "Id", N);
    dynamo.putItem(r -> r.tableName(table).item(item(
        "Id", n("123"),
        "Title", s("Bicycle 123"),
        "Description", s("123 description"),
        "Price", n("500"),
        "RelatedItems", l(n("341"), n("472"), n("649")),
        "Pictures", m(item(
            "FrontView", s("http://example.com/products/123_front.jpg"),
            "RearView", s("http://example.com/products/123_rear.jpg"))),
        "ProductReviews", m(item(
            "FiveStar", l(s("Excellent! Can't recommend it highly enough! Buy it!"),
                s("Do yourself a favor and buy this.")),
            "OneStar", l(s("Terrible product! Do not buy this.")))),
        "Matrix", l(l(n("1"), n("2")), l(n("3"), n("4"))),
        "Orders", l(
            m(item("sku", s("A"), "qty", n("1"), "tags", l(s("x"), s("y")))),
            m(item("sku", s("B"), "qty", n("2"))),
            m(item("sku", s("C"), "qty", n("3")))))));
    return table;
  }

  private Map<String, AttributeValue> project(String table, String projection, String... names) {
    Map<String, String> attributeNames = new java.util.LinkedHashMap<>();
    for (int i = 0; i < names.length; i += 2) {
      attributeNames.put(names[i], names[i + 1]);
    }
    return dynamo.getItem(r -> r.tableName(table).key(KEY).projectionExpression(projection)
        .expressionAttributeNames(attributeNames.isEmpty() ? null : attributeNames)).item();
  }

  @Test
  void developerGuideExample() {
    String table = productTable();
    assertThat(project(table, "Description, RelatedItems[0], ProductReviews.FiveStar"))
        .isEqualTo(item(
            "Description", s("123 description"),
            "RelatedItems", l(n("341")),
            "ProductReviews", m(item("FiveStar", l(
                s("Excellent! Can't recommend it highly enough! Buy it!"),
                s("Do yourself a favor and buy this."))))));
  }

  @Test
  void severalIndexesOfAListComeBackInIndexOrder() {
    String table = productTable();
    assertThat(project(table, "RelatedItems[2], RelatedItems[0]"))
        .isEqualTo(item("RelatedItems", l(n("341"), n("649"))));
    assertThat(project(table, "RelatedItems[1], RelatedItems[7]"))
        .isEqualTo(item("RelatedItems", l(n("472"))));
    assertThat(project(table, "Matrix[1][0], Matrix[0][1]"))
        .isEqualTo(item("Matrix", l(l(n("2")), l(n("3")))));
  }

  @Test
  void pathsThroughListsOfMaps() {
    String table = productTable();
    assertThat(project(table, "Orders[0].sku, Orders[2].qty, Orders[0].tags[1]"))
        .isEqualTo(item("Orders", l(
            m(item("sku", s("A"), "tags", l(s("y")))),
            m(item("qty", n("3"))))));
    assertThat(project(table, "#o[1].#q, Pictures.RearView", "#o", "Orders", "#q", "qty"))
        .isEqualTo(item(
            "Orders", l(m(item("qty", n("2")))),
            "Pictures", m(item("RearView", s("http://example.com/products/123_rear.jpg")))));
  }

  @Test
  void pathsThatSelectNothingAreLeftOut() {
    String table = productTable();
    assertThat(project(table, "Title, Nothing, Pictures.SideView, RelatedItems[5], Title2"))
        .isEqualTo(item("Title", s("Bicycle 123")));
    // An index into a map, or a key into a list, selects nothing.
    assertThat(project(table, "Pictures[0], RelatedItems.x, Price.x")).isEmpty();
    // The key is returned only when projected.
    assertThat(project(table, "Price")).isEqualTo(item("Price", n("500")));
  }

  @Test
  void queryAndScanProjectEachItem() {
    String table = createTable("projection-query", "pk", S, "sk", N);
    for (int i = 1; i <= 3; i++) {
      int k = i;
      dynamo.putItem(r -> r.tableName(table).item(item(
          "pk", s("P"), "sk", n(Integer.toString(k)),
          "doc", m(item("a", n(Integer.toString(k)), "b", s("skip"))),
          "lst", l(s("x" + k), s("y" + k)))));
    }
    List<Map<String, AttributeValue>> queried = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :pk")
        .expressionAttributeValues(Map.of(":pk", s("P")))
        .projectionExpression("sk, doc.a, lst[1]")).items();
    assertThat(queried).containsExactly(
        item("sk", n("1"), "doc", m(item("a", n("1"))), "lst", l(s("y1"))),
        item("sk", n("2"), "doc", m(item("a", n("2"))), "lst", l(s("y2"))),
        item("sk", n("3"), "doc", m(item("a", n("3"))), "lst", l(s("y3"))));
    List<Map<String, AttributeValue>> scanned = dynamo.scan(r -> r.tableName(table)
        .filterExpression("doc.a >= :two")
        .expressionAttributeValues(Map.of(":two", n("2")))
        .projectionExpression("lst[0]")).items();
    // The filter reads attributes the projection leaves out.
    assertThat(scanned).containsExactlyInAnyOrder(
        item("lst", l(s("x2"))), item("lst", l(s("x3"))));
  }

  @Test
  void overlappingAndConflictingPathsAreErrors() {
    String table = productTable();
    assertValidation("Invalid ProjectionExpression: Two document paths overlap with each other; "
            + "must remove or rewrite one of these paths; path one: [Pictures], path two: "
            + "[Pictures, FrontView]",
        () -> project(table, "Pictures, Pictures.FrontView"));
    assertValidation("Invalid ProjectionExpression: Two document paths overlap with each other; "
            + "must remove or rewrite one of these paths; path one: [Title], path two: [Title]",
        () -> project(table, "Title, Title"));
    assertValidation("Invalid ProjectionExpression: Two document paths conflict with each other; "
            + "must remove or rewrite one of these paths; path one: [Orders, [0]], path two: "
            + "[Orders, sku]",
        () -> project(table, "Orders[0], Orders.sku"));
  }
}
