package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.Fixtures.query;
import static io.stator.engine.Fixtures.scan;
import static io.stator.engine.Fixtures.values;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.ErrorType;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryScanTest extends EngineTest {

  private List<String> sortKeys(QueryResponse r, String attribute) {
    List<String> out = new ArrayList<>();
    for (Map<String, AttributeValue> item : r.items()) {
      AttributeValue v = item.get(attribute);
      out.add(v instanceof AttributeValue.S s ? s.value() : ((AttributeValue.N) v).value());
    }
    return out;
  }

  @Test
  void tenantSingleTableLayout() {
    db.createTable(create("App", "PK", "S", "SK", "S"));
    put(db, "App", item("PK", "TENANT#t_01", "SK", "#METADATA", "name", "Acme Corp"));
    put(db, "App", item("PK", "TENANT#t_01", "SK", "USER#u_01", "name", "Alice"));
    put(db, "App", item("PK", "TENANT#t_01", "SK", "USER#u_02", "name", "Bob"));
    put(db, "App", item("PK", "TENANT#t_01", "SK", "PROJECT#01HVMK3P2Q", "title", "Q1 Roadmap"));
    put(db, "App", item("PK", "TENANT#t_02", "SK", "USER#u_09", "name", "Eve"));
    QueryResponse whole = db.query(query("App", "PK = :pk", values(":pk", "TENANT#t_01")));
    assertThat(sortKeys(whole, "SK"))
        .containsExactly("#METADATA", "PROJECT#01HVMK3P2Q", "USER#u_01", "USER#u_02");
    assertThat(whole.count()).isEqualTo(4);
    assertThat(whole.scannedCount()).isEqualTo(4);
    assertThat(whole.lastEvaluatedKey()).isNull();
    QueryResponse users = db.query(query("App", "PK = :pk AND begins_with(SK, :p)",
        values(":pk", "TENANT#t_01", ":p", "USER#")));
    assertThat(sortKeys(users, "SK")).containsExactly("USER#u_01", "USER#u_02");
  }

  @Test
  void stringSortKeysOrderByUtf8Bytes() {
    db.createTable(create("Orders", "pk", "S", "sk", "S"));
    for (String sk : List.of("ORDER#2", "ORDER#10", "ORDER#1", "order#0", "ORDER#~", "ORDER#é")) {
      put(db, "Orders", item("pk", "c", "sk", sk));
    }
    assertThat(sortKeys(db.query(query("Orders", "pk = :p", values(":p", "c"))), "sk"))
        .containsExactly("ORDER#1", "ORDER#10", "ORDER#2", "ORDER#~", "ORDER#é", "order#0");
  }

  @Test
  void numberSortKeysOrderNumerically() {
    db.createTable(create("Nums", "pk", "S", "sk", "N"));
    for (String n : List.of("10", "-2", "2", "0", "-10.5", "1.5", "-0.001", "1E+3", "0.25")) {
      put(db, "Nums", item("pk", "p", "sk", AttributeValue.n(n)));
    }
    assertThat(sortKeys(db.query(query("Nums", "pk = :p", values(":p", "p"))), "sk"))
        .containsExactly("-10.5", "-2", "-0.001", "0", "0.25", "1.5", "2", "10", "1000");
    assertThat(sortKeys(db.query(query("Nums", "pk = :p AND sk BETWEEN :a AND :b",
            values(":p", "p", ":a", -2, ":b", 1.5))), "sk"))
        .containsExactly("-2", "-0.001", "0", "0.25", "1.5");
    assertThat(sortKeys(db.query(query("Nums", "pk = :p AND sk < :a",
            values(":p", "p", ":a", 0))), "sk"))
        .containsExactly("-10.5", "-2", "-0.001");
    assertThat(sortKeys(db.query(query("Nums", "pk = :p AND sk <= :a",
            values(":p", "p", ":a", 0))), "sk"))
        .containsExactly("-10.5", "-2", "-0.001", "0");
    assertThat(sortKeys(db.query(query("Nums", "pk = :p AND :a < sk",
            values(":p", "p", ":a", 2))), "sk"))
        .containsExactly("10", "1000");
    assertThat(sortKeys(db.query(query("Nums", "pk = :p AND sk >= :a",
            values(":p", "p", ":a", 2))), "sk"))
        .containsExactly("2", "10", "1000");
    assertThat(sortKeys(db.query(query("Nums", "pk = :p AND sk = :a",
            values(":p", "p", ":a", AttributeValue.n("1.50")))), "sk"))
        .containsExactly("1.5");
  }

  @Test
  void binarySortKeysOrderUnsigned() {
    db.createTable(create("Bins", "pk", "S", "sk", "B"));
    for (int b : new int[] {0x80, 0x01, 0xFF, 0x7F}) {
      put(db, "Bins", item("pk", "p", "sk", AttributeValue.b(new byte[] {(byte) b})));
    }
    List<Integer> order = new ArrayList<>();
    for (var it : db.query(query("Bins", "pk = :p", values(":p", "p"))).items()) {
      order.add(((AttributeValue.B) it.get("sk")).value().get(0) & 0xFF);
    }
    assertThat(order).containsExactly(0x01, 0x7F, 0x80, 0xFF);
    var prefix = db.query(query("Bins", "pk = :p AND begins_with(sk, :b)",
        values(":p", "p", ":b", AttributeValue.b(new byte[] {(byte) 0xFF}))));
    assertThat(prefix.count()).isEqualTo(1);
  }

  @Test
  void ordersByDateNewestFirst() {
    db.createTable(create("CustomerOrders", "customerId", "S", "orderDate", "S"));
    for (String d : List.of("2025-12-31#x", "2026-01-05#a", "2026-03-14#b", "2026-06-16#c",
        "2027-01-01#d")) {
      put(db, "CustomerOrders", item("customerId", "C#123", "orderDate", d));
    }
    QueryResponse r = db.query(query("CustomerOrders",
        "customerId = :c AND orderDate BETWEEN :from AND :to", null,
        values(":c", "C#123", ":from", "2026-01-01", ":to", "2026-12-31"), false, null, null));
    assertThat(sortKeys(r, "orderDate"))
        .containsExactly("2026-06-16#c", "2026-03-14#b", "2026-01-05#a");
    QueryResponse march = db.query(query("CustomerOrders",
        "customerId = :c AND begins_with(orderDate, :m)",
        values(":c", "C#123", ":m", "2026-03")));
    assertThat(sortKeys(march, "orderDate")).containsExactly("2026-03-14#b");
  }

  @Test
  void paginationIsCompleteInBothDirections() {
    db.createTable(create("Pages", "pk", "S", "sk", "N"));
    for (int i = 0; i < 25; i++) {
      put(db, "Pages", item("pk", "p", "sk", i));
    }
    for (boolean forward : new boolean[] {true, false}) {
      List<String> seen = new ArrayList<>();
      Map<String, AttributeValue> start = null;
      int pages = 0;
      do {
        QueryResponse r = db.query(query("Pages", "pk = :p AND sk >= :z", null,
            values(":p", "p", ":z", 0), forward, 7, start));
        seen.addAll(sortKeys(r, "sk"));
        start = r.lastEvaluatedKey();
        pages++;
      } while (start != null);
      assertThat(seen).hasSize(25).doesNotHaveDuplicates();
      assertThat(seen.get(0)).isEqualTo(forward ? "0" : "24");
      assertThat(pages).isEqualTo(4);
    }
    QueryResponse first = db.query(query("Pages", "pk = :p", null, values(":p", "p"), true, 3,
        null));
    assertThat(first.lastEvaluatedKey()).isEqualTo(item("pk", "p", "sk", 2));
  }

  @Test
  void queryOnSimpleKeyTable() {
    db.createTable(create("Users", "id", "S", null, null));
    put(db, "Users", item("id", "USER#u_01", "name", "Alice"));
    QueryResponse r = db.query(query("Users", "id = :id", values(":id", "USER#u_01")));
    assertThat(r.items()).containsExactly(item("id", "USER#u_01", "name", "Alice"));
    expect(() -> db.query(query("Users", "id = :id AND x = :x",
            values(":id", "USER#u_01", ":x", "y"))),
        ErrorType.ValidationException, "Query key condition not supported");
  }

  @Test
  void keyConditionErrors() {
    db.createTable(create("KCT", "pk", "S", "sk", "N"));
    expect(() -> db.query(query("KCT", "sk = :v", values(":v", 1))),
        ErrorType.ValidationException, "Query condition missed key schema element: pk");
    expect(() -> db.query(query("KCT", "pk = :p AND attr1 = :v", values(":p", "a", ":v", 1))),
        ErrorType.ValidationException, "Query condition missed key schema element: sk");
    expect(() -> db.query(query("KCT", "pk > :p", values(":p", "a"))),
        ErrorType.ValidationException, "Query key condition not supported");
    expect(() -> db.query(query("KCT", "begins_with(pk, :p)", values(":p", "a"))),
        ErrorType.ValidationException, "Query key condition not supported");
    expect(() -> db.query(query("KCT", "pk = :p OR sk = :v", values(":p", "a", ":v", 1))),
        ErrorType.ValidationException, "Invalid operator used in KeyConditionExpression: OR");
    expect(() -> db.query(query("KCT", "pk = :p AND sk <> :v", values(":p", "a", ":v", 1))),
        ErrorType.ValidationException, "Invalid operator used in KeyConditionExpression: <>");
    expect(() -> db.query(query("KCT", "pk = :p AND attribute_exists(sk)", values(":p", "a"))),
        ErrorType.ValidationException,
        "Invalid operator used in KeyConditionExpression: attribute_exists");
    expect(() -> db.query(query("KCT", "pk = :p AND pk = :p", values(":p", "a"))),
        ErrorType.ValidationException,
        "KeyConditionExpressions must only contain one condition per key");
    expect(() -> db.query(query("KCT", "pk = :p AND sk = :v", values(":p", "a", ":v", "s"))),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Condition parameter type does not match"
            + " schema type");
    expect(() -> db.query(query("KCT", "pk = :p AND begins_with(sk, :v)",
            values(":p", "a", ":v", 1))),
        ErrorType.ValidationException,
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function;"
            + " operator or function: begins_with, operand type: N");
    expect(() -> db.query(query("KCT", "pk = :p AND sk BETWEEN :a AND :b",
            values(":p", "a", ":a", 5, ":b", 1))),
        ErrorType.ValidationException,
        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater"
            + " than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper"
            + " bound operand: AttributeValue: {N:1}");
    expect(() -> db.query(query("KCT", "pk = :p", values(":p", ""))),
        ErrorType.ValidationException,
        "One or more parameter values are not valid. The AttributeValue for a key attribute"
            + " cannot contain an empty string value. Key: pk");
    expect(() -> db.query(query("KCT", null, null)), ErrorType.ValidationException,
        "Either the KeyConditions or KeyConditionExpression parameter must be specified in the"
            + " request.");
    expect(() -> db.query(query("KCT", "pk = :p", null, values(":p", "a"), null, 0, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member"
            + " must have value greater than or equal to 1");
    expect(() -> db.query(query("Nope", "pk = :p", values(":p", "a"))),
        ErrorType.ResourceNotFoundException, "Requested resource not found");
    expect(() -> db.query(query("KCT", "pk = :p", null, values(":p", "a"), null, null,
            item("pk", "b", "sk", 1))),
        ErrorType.ValidationException,
        "The provided starting key is outside query boundaries based on provided conditions");
    expect(() -> db.query(query("KCT", "pk = :p", null, values(":p", "a"), null, null,
            item("pk", "a"))),
        ErrorType.ValidationException,
        "The provided starting key is invalid: The provided key element does not match the"
            + " schema");
  }

  @Test
  void legacyKeyConditions() {
    db.createTable(create("Legacy", "pk", "S", "sk", "N"));
    for (int i = 0; i < 5; i++) {
      put(db, "Legacy", item("pk", "a", "sk", i));
    }
    QueryResponse r = db.query(new QueryRequest("Legacy", null, null, null, null, null, null,
        null, null, null, null, null, null, null,
        Map.of("pk", new io.stator.api.Condition(List.of(AttributeValue.s("a")), "EQ"),
            "sk", new io.stator.api.Condition(List.of(AttributeValue.n("3")), "GE")),
        null, null));
    assertThat(sortKeys(r, "sk")).containsExactly("3", "4");
  }

  @Test
  void selectCountProjectionAndFilter() {
    db.createTable(create("Sel", "pk", "S", "sk", "N"));
    for (int i = 0; i < 6; i++) {
      put(db, "Sel", item("pk", "a", "sk", i, "even", AttributeValue.bool(i % 2 == 0), "x", "y"));
    }
    QueryResponse count = db.query(new QueryRequest("Sel", null, "COUNT", null, null, null, null,
        "pk = :p", null, null, null, values(":p", "a"), null, null, null, null, null));
    assertThat(count.items()).isNull();
    assertThat(count.count()).isEqualTo(6);
    QueryResponse projected = db.query(new QueryRequest("Sel", null, null, 2, null, null, null,
        "pk = :p", "even = :t", "sk", null, values(":p", "a", ":t", AttributeValue.bool(true)),
        null, null, null, null, null));
    assertThat(projected.items()).containsExactly(item("sk", 0));
    assertThat(projected.count()).isEqualTo(1);
    assertThat(projected.scannedCount()).isEqualTo(2);
    expect(() -> db.query(new QueryRequest("Sel", null, "ALL_ATTRIBUTES", null, null, null, null,
            "pk = :p", null, "sk", null, values(":p", "a"), null, null, null, null, null)),
        ErrorType.ValidationException,
        "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES");
    expect(() -> db.query(new QueryRequest("Sel", null, null, null, null, null, null,
            "pk = :p", "sk > :p2", null, null, values(":p", "a", ":p2", 1), null, null, null, null,
            null)),
        ErrorType.ValidationException,
        "Filter Expression can only contain non-primary key attributes: Primary key attribute:"
            + " sk");
    expect(() -> db.query(new QueryRequest("Sel", "byX", null, null, null, null, null,
            "pk = :p", null, null, null, values(":p", "a"), null, null, null, null, null)),
        ErrorType.ValidationException, "The table does not have the specified index: byX");
  }

  @Test
  void onePageHoldsAtMostOneMegabyte() {
    db.createTable(create("Big", "pk", "S", "sk", "N"));
    String blob = "x".repeat(100 * 1024);
    for (int i = 0; i < 25; i++) {
      put(db, "Big", item("pk", "p", "sk", i, "blob", blob));
    }
    QueryResponse first = db.query(query("Big", "pk = :p", values(":p", "p")));
    // 100 KB items: the page stops at the item that reaches 1 MB
    assertThat(first.count()).isEqualTo(11);
    assertThat(first.lastEvaluatedKey()).isEqualTo(item("pk", "p", "sk", 10));
    int total = first.count();
    Map<String, AttributeValue> start = first.lastEvaluatedKey();
    while (start != null) {
      QueryResponse next = db.query(query("Big", "pk = :p", null, values(":p", "p"), null, null,
          start));
      total += next.count();
      start = next.lastEvaluatedKey();
    }
    assertThat(total).isEqualTo(25);
    ScanResponse scan = db.scan(scan("Big", null, null, null, null));
    assertThat(scan.count()).isEqualTo(11);
    assertThat(scan.lastEvaluatedKey()).isNotNull();
  }

  @Test
  void scanPaginationAndParallelSegments() {
    db.createTable(create("Many", "pk", "S", "sk", "N"));
    Set<String> all = new HashSet<>();
    for (int i = 0; i < 300; i++) {
      put(db, "Many", item("pk", "P" + (i % 60), "sk", i));
      all.add("P" + (i % 60) + "/" + i);
    }
    List<String> paged = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      ScanResponse r = db.scan(scan("Many", 37, start, null, null));
      r.items().forEach(it -> paged.add(key(it)));
      start = r.lastEvaluatedKey();
    } while (start != null);
    assertThat(paged).hasSize(300).doesNotHaveDuplicates();
    assertThat(new HashSet<>(paged)).isEqualTo(all);

    for (int total : new int[] {1, 3, 7, 16}) {
      List<String> union = new ArrayList<>();
      int nonEmpty = 0;
      for (int segment = 0; segment < total; segment++) {
        ScanResponse r = db.scan(scan("Many", null, null, segment, total));
        r.items().forEach(it -> union.add(key(it)));
        nonEmpty += r.count() > 0 ? 1 : 0;
      }
      assertThat(union).as("segments of %d", total).hasSize(300).doesNotHaveDuplicates();
      assertThat(new HashSet<>(union)).isEqualTo(all);
      assertThat(nonEmpty).isGreaterThan(total / 2); // the hash spreads partitions over segments
    }

    // A segment pages through its own keys; a key of another segment is no place to start.
    List<String> segmentZero = new ArrayList<>();
    Map<String, AttributeValue> ofSegmentZero = null;
    Map<String, AttributeValue> next = null;
    do {
      ScanResponse r = db.scan(scan("Many", 5, next, 0, 4));
      r.items().forEach(it -> segmentZero.add(key(it)));
      next = r.lastEvaluatedKey();
      ofSegmentZero = next != null ? next : ofSegmentZero;
    } while (next != null);
    assertThat(segmentZero).hasSize(db.scan(scan("Many", null, null, 0, 4)).count());
    Map<String, AttributeValue> foreign = ofSegmentZero;
    expect(() -> db.scan(scan("Many", null, foreign, 2, 4)), ErrorType.ValidationException,
        "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use"
            + " ExclusiveStartKey with correct Segment. TotalSegments: 4 Segment: 2");
  }

  @Test
  void scanValidation() {
    db.createTable(create("Svt", "pk", "S", null, null));
    expect(() -> db.scan(scan("Svt", null, null, 1, null)), ErrorType.ValidationException,
        "The TotalSegments parameter is required but was not present in the request when Segment"
            + " parameter is present");
    expect(() -> db.scan(scan("Svt", null, null, null, 2)), ErrorType.ValidationException,
        "The Segment parameter is required but was not present in the request when parameter"
            + " TotalSegments is present");
    expect(() -> db.scan(scan("Svt", null, null, 3, 3)), ErrorType.ValidationException,
        "The Segment parameter is zero-based and must be less than parameter TotalSegments:"
            + " Segment: 3 is not less than TotalSegments: 3");
    expect(() -> db.scan(scan("Svt", null, null, 0, 1_000_001)), ErrorType.ValidationException,
        "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy"
            + " constraint: Member must have value less than or equal to 1000000");
    expect(() -> db.scan(scan("Svt", 0, null, -1, 0)), ErrorType.ValidationException,
        "3 validation errors detected: Value '0' at 'limit' failed to satisfy constraint: Member"
            + " must have value greater than or equal to 1; Value '-1' at 'segment' failed to"
            + " satisfy constraint: Member must have value greater than or equal to 0; Value '0'"
            + " at 'totalSegments' failed to satisfy constraint: Member must have value greater"
            + " than or equal to 1");
    expect(() -> db.scan(scan("Svt", null, item("other", "x"), null, null)),
        ErrorType.ValidationException,
        "The provided starting key is invalid: The provided key element does not match the"
            + " schema");
    var filtered = db.scan(new ScanRequest("Svt", null, null, null, null, null, null, null,
        "attribute_exists(v)", null, null, null, null, null, null, null));
    assertThat(filtered.count()).isZero();
  }

  private static String key(Map<String, AttributeValue> item) {
    return ((AttributeValue.S) item.get("pk")).value() + "/"
        + ((AttributeValue.N) item.get("sk")).value();
  }
}
