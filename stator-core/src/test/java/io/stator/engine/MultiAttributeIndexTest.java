package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.Fixtures.values;
import static io.stator.engine.IndexesTest.def;
import static io.stator.engine.IndexesTest.hash;
import static io.stator.engine.IndexesTest.range;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.Condition;
import io.stator.api.CreateTableRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.ErrorType;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.Projection;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Multi-attribute GSI keys (up to 4 HASH and 4 RANGE attributes): key schema validation, sparse
 * membership, tuple order of the sort attributes, the left-to-right rule of Query conditions, and
 * paging.
 */
class MultiAttributeIndexTest {
  private final Engine db = new Engine(new MemoryStorage(), EngineOptions.defaults());

  @AfterEach
  void close() {
    try {
      IndexInvariants.checkAll(db);
    } finally {
      db.close();
    }
  }

  /** Sales by (tenant, area), sorted by (year, month, sku). */
  static CreateTableRequest sales(String name) {
    return new CreateTableRequest(
        name,
        List.of(def("id", "S"), def("tenant", "S"), def("area", "S"), def("year", "N"),
            def("month", "N"), def("sku", "S")),
        List.of(hash("id")),
        null,
        List.of(new GlobalSecondaryIndex(
            "BySale",
            List.of(hash("tenant"), hash("area"), range("year"), range("month"), range("sku")),
            new Projection("INCLUDE", List.of("qty")), null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null);
  }

  static Map<String, AttributeValue> sale(
      String id, String tenant, String area, Object year, Object month, String sku) {
    Map<String, AttributeValue> item = item("id", id, "qty", 1, "note", "n");
    if (tenant != null) {
      item.put("tenant", AttributeValue.s(tenant));
    }
    if (area != null) {
      item.put("area", AttributeValue.s(area));
    }
    if (year != null) {
      item.put("year", AttributeValue.n(year.toString()));
    }
    if (month != null) {
      item.put("month", AttributeValue.n(month.toString()));
    }
    if (sku != null) {
      item.put("sku", AttributeValue.s(sku));
    }
    return item;
  }

  private void seed() throws InterruptedException {
    db.createTable(sales("Sales"));
    put(db, "Sales", sale("s1", "acme", "eu", 2025, 3, "ab"));
    put(db, "Sales", sale("s2", "acme", "eu", 2025, 3, "a"));
    put(db, "Sales", sale("s3", "acme", "eu", 2025, 12, "a"));
    put(db, "Sales", sale("s4", "acme", "eu", 2024, 12, "z"));
    put(db, "Sales", sale("s5", "acme", "eu", 2025, 2, "b"));
    put(db, "Sales", sale("s6", "acme", "eu", -1, 2, "b"));
    put(db, "Sales", sale("s7", "acme", "eu", 2025, 3, "b"));
    put(db, "Sales", sale("s8", "acme", "us", 2025, 3, "a")); // another partition
    put(db, "Sales", sale("s9", "acme", "eu", 2025, null, "a")); // sparse: no month
    put(db, "Sales", sale("s10", null, "eu", 2025, 3, "a")); // sparse: no tenant
    assertThat(db.awaitIndexes(Duration.ofSeconds(30))).isTrue();
  }

  private List<String> ids(String condition, Map<String, AttributeValue> values) {
    return ids(query(condition, values, null, null, null));
  }

  private static List<String> ids(QueryResponse r) {
    return r.items().stream().map(i -> ((AttributeValue.S) i.get("id")).value()).toList();
  }

  private QueryResponse query(
      String condition, Map<String, AttributeValue> values, Boolean forward, Integer limit,
      Map<String, AttributeValue> start) {
    return db.query(new QueryRequest("Sales", "BySale", null, limit, null, forward, start,
        condition, null, null, names(condition), values, null, null, null, null, null));
  }

  private static Map<String, AttributeValue> v(Object... nameValues) {
    Map<String, AttributeValue> out = values(":t", "acme", ":r", "eu");
    out.putAll(values(nameValues));
    return out;
  }

  private static final String PARTITION = "tenant = :t AND area = :r";

  @Test
  void sortAttributesOrderAsATupleAndItemsLackingAnyKeyAreNotIndexed() throws Exception {
    seed();
    // (year, month, sku) in tuple order: numbers numerically (-1 first, 2024 before 2025,
    // month 3 before 12), then strings by bytes ("a" before "ab" before "b").
    assertThat(ids(PARTITION, v()))
        .containsExactly("s6", "s4", "s5", "s2", "s1", "s7", "s3");
    assertThat(ids(query(PARTITION, v(), false, null, null)))
        .containsExactly("s3", "s7", "s1", "s2", "s5", "s4", "s6");
    // The entry holds the index keys, the table key and the INCLUDE attribute only.
    assertThat(query(PARTITION, v(), null, 1, null).items().get(0))
        .isEqualTo(item("id", "s6", "tenant", "acme", "area", "eu", "year", -1, "month", 2,
            "sku", "b", "qty", 1));
    assertThat(ids("area = :r AND tenant = :t", values(":t", "acme", ":r", "us")))
        .containsExactly("s8");
  }

  @Test
  void sortConditionsLeftToRight() throws Exception {
    seed();
    assertThat(ids(PARTITION + " AND #y = :y", v(":y", 2025)))
        .containsExactly("s5", "s2", "s1", "s7", "s3");
    assertThat(ids(PARTITION + " AND #y > :y", v(":y", 2024)))
        .containsExactly("s5", "s2", "s1", "s7", "s3");
    assertThat(ids(PARTITION + " AND #y <= :y", v(":y", 2024)))
        .containsExactly("s6", "s4");
    assertThat(ids(PARTITION + " AND #y BETWEEN :a AND :b", v(":a", 0, ":b", 2024)))
        .containsExactly("s4");
    assertThat(ids(PARTITION + " AND #y = :y AND #m BETWEEN :a AND :b",
        v(":y", 2025, ":a", 3, ":b", 11)))
        .containsExactly("s2", "s1", "s7");
    assertThat(ids(PARTITION + " AND #y = :y AND #m < :m", v(":y", 2025, ":m", 3)))
        .containsExactly("s5");
    assertThat(ids(PARTITION + " AND #y = :y AND #m >= :m", v(":y", 2025, ":m", 3)))
        .containsExactly("s2", "s1", "s7", "s3");
    assertThat(ids(PARTITION + " AND #y = :y AND #m = :m AND begins_with(sku, :s)",
        v(":y", 2025, ":m", 3, ":s", "a")))
        .containsExactly("s2", "s1");
    assertThat(ids(PARTITION + " AND #y = :y AND #m = :m AND sku > :s",
        v(":y", 2025, ":m", 3, ":s", "a")))
        .containsExactly("s1", "s7");
    assertThat(ids(PARTITION + " AND #y = :y AND #m = :m AND sku = :s",
        v(":y", 2025, ":m", 3, ":s", "ab")))
        .containsExactly("s1");
  }

  private static Map<String, String> names(String condition) {
    Map<String, String> names = new LinkedHashMap<>();
    if (condition.contains("#y")) {
      names.put("#y", "year");
    }
    if (condition.contains("#m")) {
      names.put("#m", "month");
    }
    return names.isEmpty() ? null : names;
  }

  @Test
  void legacyKeyConditionsTakeOneConditionPerKeyAttribute() throws Exception {
    seed();
    Map<String, Condition> conditions = new LinkedHashMap<>();
    conditions.put("tenant", new Condition(List.of(AttributeValue.s("acme")), "EQ"));
    conditions.put("area", new Condition(List.of(AttributeValue.s("eu")), "EQ"));
    conditions.put("year", new Condition(List.of(AttributeValue.n("2025")), "EQ"));
    conditions.put("month", new Condition(List.of(AttributeValue.n("3")), "EQ"));
    conditions.put("sku", new Condition(List.of(AttributeValue.s("a")), "BEGINS_WITH"));
    QueryResponse r = db.query(new QueryRequest("Sales", "BySale", null, null, null, null, null,
        null, null, null, null, null, null, null, conditions, null, null));
    assertThat(ids(r)).containsExactly("s2", "s1");
  }

  @Test
  void pagingCarriesEveryIndexKeyAttributeAndTheTableKey() throws Exception {
    seed();
    for (boolean forward : List.of(true, false)) {
      List<String> seen = new ArrayList<>();
      Map<String, AttributeValue> start = null;
      do {
        QueryResponse page = query(PARTITION, v(), forward, 2, start);
        seen.addAll(ids(page));
        start = page.lastEvaluatedKey();
        if (start != null) {
          assertThat(start.keySet())
              .containsExactlyInAnyOrder("tenant", "area", "year", "month", "sku", "id");
        }
      } while (start != null);
      List<String> expected = new ArrayList<>(List.of("s6", "s4", "s5", "s2", "s1", "s7", "s3"));
      if (!forward) {
        java.util.Collections.reverse(expected);
      }
      assertThat(seen).isEqualTo(expected);
    }
    // A start key outside the query's range or partition is refused as for one-attribute keys.
    Map<String, AttributeValue> outside =
        item("tenant", "acme", "area", "eu", "year", 2024, "month", 12, "sku", "z", "id", "s4");
    expect(() -> query(PARTITION + " AND #y = :y", v(":y", 2025), null, null, outside),
        ErrorType.ValidationException,
        "The provided starting key does not match the range key predicate");
    Map<String, AttributeValue> otherPartition =
        item("tenant", "acme", "area", "us", "year", 2025, "month", 3, "sku", "a", "id", "s8");
    expect(() -> query(PARTITION, v(), null, null, otherPartition),
        ErrorType.ValidationException,
        "The provided starting key is outside query boundaries based on provided conditions");
  }

  @Test
  void queryConditionErrors() throws Exception {
    seed();
    expect(() -> ids("tenant = :t", values(":t", "acme")),
        ErrorType.ValidationException, "Query condition missed key schema element: area");
    expect(() -> ids("tenant = :t AND area > :r", v()),
        ErrorType.ValidationException,
        "Query key condition not supported: the partition key attributes of index BySale must"
            + " be given with equality; attribute: area");
    expect(() -> ids(PARTITION + " AND #m = :m", v(":m", 3)),
        ErrorType.ValidationException,
        "Query key condition not supported: the sort key attributes of index BySale must be"
            + " constrained from left to right; condition on month without a condition on year");
    expect(() -> ids(PARTITION + " AND #y = :y AND sku = :s", v(":y", 1, ":s", "a")),
        ErrorType.ValidationException,
        "Query key condition not supported: the sort key attributes of index BySale must be"
            + " constrained from left to right; condition on sku without a condition on month");
    expect(() -> ids(PARTITION + " AND #y > :y AND #m = :m", v(":y", 1, ":m", 3)),
        ErrorType.ValidationException,
        "Query key condition not supported: only the last sort key attribute given may have a"
            + " condition other than equality; condition on year followed by a condition on"
            + " month");
    expect(() -> ids(PARTITION + " AND qty = :q", v(":q", 1)),
        ErrorType.ValidationException, "Query condition missed key schema element: year");
    expect(() -> ids(PARTITION + " AND #y = :y", v(":y", "2025")),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Condition parameter type does not match"
            + " schema type");
    expect(() -> ids(PARTITION + " AND begins_with(#y, :y)", v(":y", 2)),
        ErrorType.ValidationException,
        "Invalid KeyConditionExpression: Incorrect operand type for operator or function;"
            + " operator or function: begins_with, operand type: N");
  }

  @Test
  void writesCheckEveryKeyAttributeType() throws Exception {
    db.createTable(sales("Typed"));
    expect(() -> put(db, "Typed", item("id", "x", "month", "three")),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: Type mismatch for Index Key month"
            + " Expected: N Actual: S IndexName: BySale");
  }

  @Test
  void describeTableListsTheKeySchemaInOrder() {
    db.createTable(sales("Described"));
    var gsi = db.describeTable(new DescribeTableRequest("Described")).table()
        .globalSecondaryIndexes().get(0);
    assertThat(gsi.keySchema()).containsExactly(hash("tenant"), hash("area"), range("year"),
        range("month"), range("sku"));
  }

  @Test
  void keySchemaValidation() {
    List<io.stator.api.AttributeDefinition> defs = new ArrayList<>(List.of(def("id", "S")));
    for (String a : List.of("a", "b", "c", "d", "e")) {
      defs.add(def(a, "S"));
    }
    expect(() -> db.createTable(withGsi(defs, List.of(hash("a"), hash("b"), hash("c"),
            hash("d"), hash("e")))),
        ErrorType.ValidationException,
        "Invalid KeySchema: A global secondary index supports at most 4 HASH key attributes,"
            + " but index Gsi has 5");
    expect(() -> db.createTable(withGsi(defs, List.of(hash("a"), range("b"), range("c"),
            range("d"), range("e"), range("id")))),
        ErrorType.ValidationException,
        "Invalid KeySchema: A global secondary index supports at most 4 RANGE key attributes,"
            + " but index Gsi has 5");
    expect(() -> db.createTable(withGsi(defs, List.of(hash("a"), range("b"), hash("c")))),
        ErrorType.ValidationException,
        "Invalid KeySchema: HASH KeySchemaElements must precede all RANGE KeySchemaElements for"
            + " index: Gsi");
    expect(() -> db.createTable(withGsi(defs, List.of(range("a"), range("b"), hash("c")))),
        ErrorType.ValidationException,
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    expect(() -> db.createTable(withGsi(defs, List.of(hash("a"), hash("b"), range("a")))),
        ErrorType.ValidationException,
        "Invalid KeySchema: Duplicate key attribute name a for index: Gsi");
    // Four and four is the most, and fine.
    db.createTable(withGsi(defs, List.of(hash("a"), hash("b"), hash("c"), hash("d"),
        range("e"), range("id"), range("x1"), range("x2"))));
    // LSIs keep one HASH and one RANGE attribute.
    CreateTableRequest lsi = new CreateTableRequest("Lsi",
        List.of(def("id", "S"), def("s", "S"), def("a", "S"), def("b", "S")),
        List.of(hash("id"), range("s")),
        List.of(new LocalSecondaryIndex("Lsi1", List.of(hash("id"), range("a"), range("b")),
            new Projection("ALL", null))),
        null, "PAY_PER_REQUEST", null, null, null, null, null, null, null, null);
    expect(() -> db.createTable(lsi), ErrorType.ValidationException,
        "1 validation error detected: Value '" + lsi.localSecondaryIndexes().get(0).keySchema()
            + "' at 'keySchema' failed to satisfy constraint: Member must have length less than"
            + " or equal to 2");
  }

  private static CreateTableRequest withGsi(
      List<io.stator.api.AttributeDefinition> defs, List<KeySchemaElement> keys) {
    List<io.stator.api.AttributeDefinition> all = new ArrayList<>(defs);
    for (KeySchemaElement k : keys) {
      if (all.stream().noneMatch(d -> d.attributeName().equals(k.attributeName()))) {
        all.add(def(k.attributeName(), "N"));
      }
    }
    return new CreateTableRequest("T" + keys.size() + keys.get(0).keyType(), all,
        List.of(hash("id")), null,
        List.of(new GlobalSecondaryIndex("Gsi", keys, new Projection("KEYS_ONLY", null), null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null);
  }

  /**
   * Random items against a reference model: every query by (prefix of equalities, then one range
   * condition) returns exactly the matching items in tuple order, with numbers and strings chosen
   * to stress prefix-safety (a string that is a prefix of another, zero bytes, negative numbers,
   * numbers whose digits prefix each other's).
   */
  @Test
  void randomQueriesMatchAReferenceModel() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("MultiAttributeIndexTest seed " + seed);
    Random random = new Random(seed);
    db.createTable(new CreateTableRequest("Random",
        List.of(def("id", "S"), def("h1", "S"), def("h2", "N"), def("r1", "N"), def("r2", "S"),
            def("r3", "B")),
        List.of(hash("id")), null,
        List.of(new GlobalSecondaryIndex("Gsi",
            List.of(hash("h1"), hash("h2"), range("r1"), range("r2"), range("r3")),
            new Projection("KEYS_ONLY", null), null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
    String[] numbers = {"-10", "-1.5", "-1", "-0.5", "0", "0.5", "1", "1.05", "1.5", "10", "15"};
    String[] strings = {"a", "a\u0000", "a\u0000b", "ab", "b", "\u00e9", "ba"};
    byte[][] binaries = {{}, {0}, {0, 0}, {1}, {(byte) 0xFF}, {(byte) 0xFF, 0}};
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      Map<String, AttributeValue> item = item("id", "i" + i, "h1", "p", "h2", 7);
      if (random.nextInt(10) == 0) {
        item.put("h2", AttributeValue.n("8")); // another partition
      }
      item.put("r1", AttributeValue.n(numbers[random.nextInt(numbers.length)]));
      item.put("r2", AttributeValue.s(strings[random.nextInt(strings.length)]));
      byte[] b = binaries[random.nextInt(binaries.length)];
      if (b.length > 0 && random.nextInt(8) != 0) { // empty binaries are not allowed: sparse
        item.put("r3", new AttributeValue.B(io.stator.value.Bytes.of(b)));
      }
      put(db, "Random", item);
      items.add(item);
    }
    assertThat(db.awaitIndexes(Duration.ofSeconds(30))).isTrue();
    Comparator<Map<String, AttributeValue>> order =
        Comparator.<Map<String, AttributeValue>, BigDecimal>comparing(
                i -> ((AttributeValue.N) i.get("r1")).decimal())
            .thenComparing((x, y) -> Arrays.compareUnsigned(bytes(x.get("r2")), bytes(y.get("r2"))))
            .thenComparing((x, y) -> Arrays.compareUnsigned(bytes(x.get("r3")), bytes(y.get("r3"))))
            // equal index keys: in table key order (hash of the partition key first)
            .thenComparing((x, y) -> Arrays.compareUnsigned(
                io.stator.key.KeyCodec.partition(x.get("id")),
                io.stator.key.KeyCodec.partition(y.get("id"))));
    List<Map<String, AttributeValue>> inIndex = items.stream()
        .filter(i -> i.containsKey("r3") && ((AttributeValue.N) i.get("h2")).value().equals("7"))
        .sorted(order).toList();
    for (int q = 0; q < 60; q++) {
      Map<String, AttributeValue> values = values(":h1", "p", ":h2", 7);
      StringBuilder condition = new StringBuilder("h1 = :h1 AND h2 = :h2");
      List<java.util.function.Predicate<Map<String, AttributeValue>>> tests = new ArrayList<>();
      int equalities = random.nextInt(3);
      Map<String, AttributeValue> pivot = inIndex.get(random.nextInt(inIndex.size()));
      String[] keys = {"r1", "r2", "r3"};
      for (int k = 0; k < equalities; k++) {
        String key = keys[k];
        condition.append(" AND ").append(key).append(" = :e").append(k);
        values.put(":e" + k, pivot.get(key));
        AttributeValue want = pivot.get(key);
        tests.add(i -> i.get(key).equals(want));
      }
      if (equalities < 3 && random.nextBoolean()) {
        String key = keys[equalities];
        AttributeValue bound = pivot.get(key);
        String[] ops = {"<", "<=", ">", ">="};
        String op = ops[random.nextInt(ops.length)];
        condition.append(" AND ").append(key).append(" ").append(op).append(" :c");
        values.put(":c", bound);
        Comparator<AttributeValue> cmp = (x, y) -> key.equals("r1")
            ? ((AttributeValue.N) x).decimal().compareTo(((AttributeValue.N) y).decimal())
            : Arrays.compareUnsigned(bytes(x), bytes(y));
        tests.add(i -> {
          int c = cmp.compare(i.get(key), bound);
          return switch (op) {
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            default -> c >= 0;
          };
        });
      }
      List<String> expected = inIndex.stream().filter(i -> tests.stream().allMatch(t -> t.test(i)))
          .map(i -> ((AttributeValue.S) i.get("id")).value()).toList();
      List<String> actual = new ArrayList<>();
      Map<String, AttributeValue> start = null;
      do {
        QueryResponse page = db.query(new QueryRequest("Random", "Gsi", null, 7, null, null, start,
            condition.toString(), null, null, null, values, null, null, null, null, null));
        actual.addAll(ids(page));
        start = page.lastEvaluatedKey();
      } while (start != null);
      assertThat(actual).as("%s %s (seed %s)", condition, values, seed).isEqualTo(expected);
    }
  }

  private static byte[] bytes(AttributeValue v) {
    return v instanceof AttributeValue.S s
        ? s.value().getBytes(StandardCharsets.UTF_8)
        : ((AttributeValue.B) v).value().toByteArray();
  }
}
