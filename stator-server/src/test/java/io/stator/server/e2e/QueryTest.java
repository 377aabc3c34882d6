package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Query: the key designs of the articles users arrive with (tenant single-table layout, a
 * customer's orders by date newest first, entity prefixes with begins_with), DynamoDB's sort
 * orders, every key condition operator, paging, the 1 MB page, Select and the counts, and the
 * errors of invalid key conditions.
 *
 * <p>Where the peer implementation used to check these expectations differs, DynamoDB's
 * documented behaviour is kept:
 *
 * <ul>
 *   <li>BETWEEN with a lower bound above the upper bound: the peer answers "The BETWEEN condition
 *       was provided a range where the lower bound is greater than the upper bound" (the
 *       wording of the legacy KeyConditions parameter); DynamoDB answers a KeyConditionExpression
 *       with "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be
 *       greater than or equal to lower bound; ...".
 *   <li>Syntax errors: the peer words them with its parser generator; DynamoDB's read
 *       {@code Syntax error; token: "<token>", near: "<text>"}.
 *   <li>Select with a ProjectionExpression other than SPECIFIC_ATTRIBUTES, and
 *       SPECIFIC_ATTRIBUTES without one: the peer accepts both; DynamoDB's reference says "If you
 *       use the ProjectionExpression parameter, then the value for Select can only be
 *       SPECIFIC_ATTRIBUTES. Any other value for Select will return an error."
 * </ul>
 */
class QueryTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;
  private static final ScalarAttributeType B = ScalarAttributeType.B;

  // ---- the seed articles' examples ----------------------------------------------------------

  @Test
  void tenantSingleTableLayout() {
    String table = createTable("tenant", "PK", S, "SK", S);
    put(table, item("PK", s("TENANT#t_01"), "SK", s("USER#u_02"), "name", s("Bob")));
    put(table, item("PK", s("TENANT#t_01"), "SK", s("#METADATA"), "name", s("Acme Corp")));
    put(table, item("PK", s("TENANT#t_01"), "SK", s("PROJECT#01HVMK3P2Q"),
        "title", s("Q1 Roadmap")));
    put(table, item("PK", s("TENANT#t_01"), "SK", s("USER#u_01"), "name", s("Alice")));
    put(table, item("PK", s("TENANT#t_02"), "SK", s("USER#u_01"), "name", s("Carol")));

    // The whole tenant, in sort key order ('#' < 'P' < 'U').
    QueryResponse tenant = query(table, "PK = :pk", Map.of(":pk", s("TENANT#t_01")));
    assertThat(sortKeys(tenant, "SK"))
        .containsExactly("#METADATA", "PROJECT#01HVMK3P2Q", "USER#u_01", "USER#u_02");
    assertThat(tenant.items().get(0))
        .isEqualTo(item("PK", s("TENANT#t_01"), "SK", s("#METADATA"), "name", s("Acme Corp")));
    assertThat(tenant.count()).isEqualTo(4);
    assertThat(tenant.scannedCount()).isEqualTo(4);

    // Just the users.
    QueryResponse users = query(table, "PK = :pk AND begins_with(SK, :prefix)",
        Map.of(":pk", s("TENANT#t_01"), ":prefix", s("USER#")));
    assertThat(users.items()).extracting(i -> i.get("name").s()).containsExactly("Alice", "Bob");

    // The metadata item by equality on both keys.
    assertThat(query(table, "PK = :pk AND SK = :sk",
        Map.of(":pk", s("TENANT#t_01"), ":sk", s("#METADATA"))).items())
        .extracting(i -> i.get("name").s()).containsExactly("Acme Corp");
  }

  @Test
  void ordersByDateNewestFirst() {
    String table = createTable("orders", "customerId", S, "orderDate", S);
    for (String date : List.of("2026-03-14", "2025-12-31", "2026-06-16", "2027-01-01",
        "2026-01-01", "2026-12-31", "2026-01-05")) {
      put(table, item("customerId", s("C#123"), "orderDate", s(date), "total", n("10")));
    }
    put(table, item("customerId", s("C#999"), "orderDate", s("2026-05-05")));

    QueryResponse year = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("customerId = :c AND orderDate BETWEEN :from AND :to")
        .expressionAttributeValues(Map.of(
            ":c", s("C#123"), ":from", s("2026-01-01"), ":to", s("2026-12-31")))
        .scanIndexForward(false));
    // BETWEEN is inclusive at both ends.
    assertThat(sortKeys(year, "orderDate")).containsExactly(
        "2026-12-31", "2026-06-16", "2026-03-14", "2026-01-05", "2026-01-01");

    // "The 10 most recent orders": descending with a Limit.
    QueryResponse latest = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("customerId = :c")
        .expressionAttributeValues(Map.of(":c", s("C#123")))
        .scanIndexForward(false)
        .limit(3));
    assertThat(sortKeys(latest, "orderDate"))
        .containsExactly("2027-01-01", "2026-12-31", "2026-06-16");
    assertThat(latest.lastEvaluatedKey())
        .isEqualTo(item("customerId", s("C#123"), "orderDate", s("2026-06-16")));
  }

  @Test
  void typedSortKeyPrefixesWithBeginsWith() {
    String table = createTable("prefixes", "PK", S, "SK", S);
    put(table, item("PK", s("USER#123"), "SK", s("ORDER#2026-06-16#A1")));
    put(table, item("PK", s("USER#123"), "SK", s("PROFILE"), "name", s("Alice")));
    put(table, item("PK", s("USER#123"), "SK", s("ORDER#2026-05-20#B7")));
    put(table, item("PK", s("USER#123"), "SK", s("ORDERS-ARCHIVE")));
    put(table, item("PK", s("USER#124"), "SK", s("ORDER#2026-01-01#C1")));

    assertThat(sortKeys(query(table, "PK = :pk AND begins_with(SK, :p)",
        Map.of(":pk", s("USER#123"), ":p", s("ORDER#"))), "SK"))
        .containsExactly("ORDER#2026-05-20#B7", "ORDER#2026-06-16#A1");
    // Hierarchical keys: one key structure, queried at several levels.
    assertThat(sortKeys(query(table, "PK = :pk AND begins_with(SK, :p)",
        Map.of(":pk", s("USER#123"), ":p", s("ORDER#2026-06"))), "SK"))
        .containsExactly("ORDER#2026-06-16#A1");
    assertThat(sortKeys(query(table, "PK = :pk AND begins_with(SK, :p)",
        Map.of(":pk", s("USER#123"), ":p", s("ORDER"))), "SK"))
        .containsExactly("ORDER#2026-05-20#B7", "ORDER#2026-06-16#A1", "ORDERS-ARCHIVE");
    assertThat(query(table, "PK = :pk AND SK = :sk",
        Map.of(":pk", s("USER#123"), ":sk", s("PROFILE"))).items())
        .containsExactly(item("PK", s("USER#123"), "SK", s("PROFILE"), "name", s("Alice")));
    assertThat(query(table, "PK = :pk AND begins_with(SK, :p)",
        Map.of(":pk", s("USER#123"), ":p", s("RETURN#"))).items()).isEmpty();
  }

  @Test
  void beginsWithOnABinarySortKey() {
    String table = createTable("binary-prefix", "pk", S, "sk", B);
    put(table, item("pk", s("p"), "sk", b(0x01, 0x02, 0x03)));
    put(table, item("pk", s("p"), "sk", b(0x01, 0x02)));
    put(table, item("pk", s("p"), "sk", b(0x01, 0xff)));
    put(table, item("pk", s("p"), "sk", b(0x02)));
    QueryResponse response = query(table, "pk = :p AND begins_with(sk, :prefix)",
        Map.of(":p", s("p"), ":prefix", b(0x01, 0x02)));
    assertThat(response.items()).extracting(i -> i.get("sk"))
        .containsExactly(b(0x01, 0x02), b(0x01, 0x02, 0x03));
  }

  // ---- sort orders --------------------------------------------------------------------------

  @Test
  void stringsSortByUtf8Bytes() {
    String table = createTable("string-order", "pk", S, "sk", S);
    // U+FF21 is EF BC A1 in UTF-8 and U+1F600 is F0 9F 98 80: UTF-8 order puts the fullwidth A
    // first, while Java's UTF-16 String order would put the emoji (a surrogate pair) first.
    List<String> expected = List.of("10", "100", "9", "ORDER#10", "ORDER#100", "ORDER#2",
        "ORDER#9", "Z", "a", "é", "\uFF21", "\uD83D\uDE00");
    putShuffled(table, expected, v -> s(v));
    QueryResponse forward = query(table, "pk = :p", Map.of(":p", s("p")));
    assertThat(sortKeys(forward, "sk")).containsExactlyElementsOf(expected);

    List<String> reversed = new ArrayList<>(expected);
    Collections.reverse(reversed);
    QueryResponse backward = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p")
        .expressionAttributeValues(Map.of(":p", s("p")))
        .scanIndexForward(false));
    assertThat(sortKeys(backward, "sk")).containsExactlyElementsOf(reversed);
  }

  @Test
  void numbersSortNumerically() {
    String table = createTable("number-order", "pk", S, "sk", N);
    List<String> expected = List.of("-1E+10", "-100", "-10", "-9", "-1.5", "-1", "-0.001", "0",
        "1E-130", "0.5", "2", "9", "10", "100", "12345678901234567890", "1E+125");
    putShuffled(table, expected, v -> n(v));
    QueryResponse forward = query(table, "pk = :p", Map.of(":p", s("p")));
    assertThat(forward.items()).extracting(i -> new java.math.BigDecimal(i.get("sk").n()))
        .usingElementComparator(java.math.BigDecimal::compareTo)
        .containsExactlyElementsOf(expected.stream().map(java.math.BigDecimal::new).toList());
  }

  @Test
  void binariesSortByUnsignedBytes() {
    String table = createTable("binary-order", "pk", S, "sk", B);
    List<AttributeValue> expected = List.of(b(0x00), b(0x00, 0x00), b(0x00, 0xff), b(0x01),
        b(0x7f), b(0x7f, 0x00), b(0x80), b(0xfe), b(0xff), b(0xff, 0x00));
    List<AttributeValue> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new Random(7));
    for (AttributeValue sk : shuffled) {
      put(table, item("pk", s("p"), "sk", sk));
    }
    QueryResponse forward = query(table, "pk = :p", Map.of(":p", s("p")));
    assertThat(forward.items()).extracting(i -> i.get("sk")).containsExactlyElementsOf(expected);
  }

  // ---- key condition operators --------------------------------------------------------------

  @Test
  void everySortKeyOperator() {
    String table = createTable("operators", "pk", S, "sk", N);
    for (int i = 1; i <= 10; i++) {
      put(table, item("pk", s("p"), "sk", n(Integer.toString(i))));
    }
    put(table, item("pk", s("other"), "sk", n("5")));
    Map<String, AttributeValue> five = Map.of(":p", s("p"), ":v", n("5"));
    assertThat(numbers(query(table, "pk = :p AND sk = :v", five))).containsExactly(5);
    assertThat(numbers(query(table, "pk = :p AND sk < :v", five))).containsExactly(1, 2, 3, 4);
    assertThat(numbers(query(table, "pk = :p AND sk <= :v", five)))
        .containsExactly(1, 2, 3, 4, 5);
    assertThat(numbers(query(table, "pk = :p AND sk > :v", five)))
        .containsExactly(6, 7, 8, 9, 10);
    assertThat(numbers(query(table, "pk = :p AND sk >= :v", five)))
        .containsExactly(5, 6, 7, 8, 9, 10);
    assertThat(numbers(query(table, "pk = :p AND sk BETWEEN :lo AND :hi",
        Map.of(":p", s("p"), ":lo", n("3.5"), ":hi", n("7"))))).containsExactly(4, 5, 6, 7);
    assertThat(numbers(query(table, "pk = :p AND sk = :v",
        Map.of(":p", s("p"), ":v", n("5.5"))))).isEmpty();
    // The sort key condition may come first, and parentheses are allowed.
    assertThat(numbers(query(table, "(sk > :v) AND (pk = :p)", five)))
        .containsExactly(6, 7, 8, 9, 10);
    // Names through ExpressionAttributeNames.
    assertThat(numbers(dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("#p = :p AND #s <= :v")
        .expressionAttributeNames(Map.of("#p", "pk", "#s", "sk"))
        .expressionAttributeValues(five)))).containsExactly(1, 2, 3, 4, 5);
    // Descending with a range condition.
    assertThat(numbers(dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p AND sk >= :v")
        .expressionAttributeValues(five)
        .scanIndexForward(false)))).containsExactly(10, 9, 8, 7, 6, 5);
  }

  @Test
  void queryOnASimpleKeyTable() {
    String table = createTable("simple", "sessionId", S);
    put(table, item("sessionId", s("sess-9f3a"), "user", s("u1")));
    put(table, item("sessionId", s("sess-0000"), "user", s("u2")));
    QueryResponse response = query(table, "sessionId = :id", Map.of(":id", s("sess-9f3a")));
    assertThat(response.items())
        .containsExactly(item("sessionId", s("sess-9f3a"), "user", s("u1")));
    assertThat(query(table, "sessionId = :id", Map.of(":id", s("nope"))).items()).isEmpty();
  }

  // ---- paging, the 1 MB page, Select and counts ---------------------------------------------

  /**
   * A malformed ExclusiveStartKey (a key attribute missing, one attribute more than the key, a
   * key attribute of the wrong type) is refused in DynamoDB's words; the well-formed key of an
   * item pages on from it.
   */
  @Test
  void aMalformedExclusiveStartKeyIsRefused() {
    String table = createTable("bad-start", "pk", S, "sk", N);
    put(table, item("pk", s("a"), "sk", n("1")));
    put(table, item("pk", s("a"), "sk", n("2")));
    String invalid = "The provided starting key is invalid: The provided key element does not"
        + " match the schema";
    for (Map<String, AttributeValue> start : List.of(
        item("pk", s("a")),
        item("pk", s("a"), "sk", n("1"), "other", s("x")),
        item("pk", s("a"), "sk", s("1")),
        item("pk", n("1"), "sk", n("1")))) {
      assertValidation(invalid, () -> dynamo.query(r -> r.tableName(table)
          .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", s("a")))
          .exclusiveStartKey(start)));
    }
    assertThat(numbers(dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", s("a")))
        .exclusiveStartKey(item("pk", s("a"), "sk", n("1")))))).containsExactly(2);
  }

  @Test
  void limitAndLastEvaluatedKeyReturnEveryItemOnce() {
    String table = createTable("paging", "pk", S, "sk", N);
    for (int i = 0; i < 25; i++) {
      put(table, item("pk", s("p"), "sk", n(Integer.toString(i)), "v", s("x")));
      put(table, item("pk", s("q"), "sk", n(Integer.toString(i))));
    }
    for (boolean forward : List.of(true, false)) {
      List<Integer> seen = new ArrayList<>();
      Map<String, AttributeValue> start = null;
      int pages = 0;
      do {
        Map<String, AttributeValue> exclusiveStart = start;
        QueryResponse page = dynamo.query(r -> r.tableName(table)
            .keyConditionExpression("pk = :p")
            .expressionAttributeValues(Map.of(":p", s("p")))
            .scanIndexForward(forward)
            .limit(7)
            .exclusiveStartKey(exclusiveStart));
        assertThat(page.count()).isLessThanOrEqualTo(7).isEqualTo(page.items().size());
        assertThat(page.scannedCount()).isEqualTo(page.count());
        seen.addAll(numbers(page));
        start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        if (start != null) {
          Map<String, AttributeValue> last = page.items().get(page.items().size() - 1);
          assertThat(start).isEqualTo(item("pk", last.get("pk"), "sk", last.get("sk")));
        }
        assertThat(++pages).isLessThanOrEqualTo(5);
      } while (start != null);
      List<Integer> expected = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        expected.add(i);
      }
      if (!forward) {
        Collections.reverse(expected);
      }
      assertThat(seen).as("forward=%s", forward).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void aPageStopsAtOneMegabyte() {
    String table = createTable("megabyte", "pk", S, "sk", N);
    String payload = "x".repeat(100 * 1024);
    for (int i = 0; i < 15; i++) {
      put(table, item("pk", s("p"), "sk", n(Integer.toString(i)), "data", s(payload)));
    }
    QueryResponse first = query(table, "pk = :p", Map.of(":p", s("p")));
    // About ten 100 KB items fit in 1 MB; the page must end there with a LastEvaluatedKey.
    assertThat(first.count()).isBetween(9, 11);
    assertThat(first.hasLastEvaluatedKey()).isTrue();
    QueryResponse rest = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p")
        .expressionAttributeValues(Map.of(":p", s("p")))
        .exclusiveStartKey(first.lastEvaluatedKey()));
    assertThat(rest.hasLastEvaluatedKey()).isFalse();
    List<Integer> all = new ArrayList<>(numbers(first));
    all.addAll(numbers(rest));
    assertThat(all).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);

    // Select COUNT is bound by the same 1 MB read.
    QueryResponse count = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p")
        .expressionAttributeValues(Map.of(":p", s("p")))
        .select(Select.COUNT));
    assertThat(count.count()).isEqualTo(first.count());
    assertThat(count.hasLastEvaluatedKey()).isTrue();
  }

  @Test
  void selectCountAndSpecificAttributes() {
    String table = createTable("select", "pk", S, "sk", N);
    for (int i = 0; i < 6; i++) {
      put(table, item("pk", s("p"), "sk", n(Integer.toString(i)), "a", s("A"), "b", s("B")));
    }
    QueryResponse count = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p AND sk >= :two")
        .expressionAttributeValues(Map.of(":p", s("p"), ":two", n("2")))
        .select(Select.COUNT));
    assertThat(count.count()).isEqualTo(4);
    assertThat(count.scannedCount()).isEqualTo(4);
    assertThat(count.hasItems()).isFalse();

    QueryResponse all = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p")
        .expressionAttributeValues(Map.of(":p", s("p")))
        .select(Select.ALL_ATTRIBUTES));
    assertThat(all.items()).hasSize(6)
        .allSatisfy(i -> assertThat(i.keySet()).containsExactlyInAnyOrder("pk", "sk", "a", "b"));

    QueryResponse specific = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p")
        .expressionAttributeValues(Map.of(":p", s("p")))
        .select(Select.SPECIFIC_ATTRIBUTES)
        .projectionExpression("sk, b"));
    assertThat(specific.items()).hasSize(6)
        .allSatisfy(i -> assertThat(i.keySet()).containsExactlyInAnyOrder("sk", "b"));

    QueryResponse projected = dynamo.query(r -> r.tableName(table)
        .keyConditionExpression("pk = :p")
        .expressionAttributeValues(Map.of(":p", s("p")))
        .projectionExpression("a"));
    assertThat(projected.items()).containsOnly(item("a", s("A")));
  }

  @Test
  void selectAndProjectionMustAgree() {
    String table = createTable("select-errors", "pk", S);
    assertValidationContaining("ProjectionExpression",
        () -> dynamo.query(r -> r.tableName(table)
            .keyConditionExpression("pk = :p")
            .expressionAttributeValues(Map.of(":p", s("p")))
            .select(Select.ALL_ATTRIBUTES)
            .projectionExpression("pk")));
    assertValidationContaining("SPECIFIC_ATTRIBUTES",
        () -> dynamo.query(r -> r.tableName(table)
            .keyConditionExpression("pk = :p")
            .expressionAttributeValues(Map.of(":p", s("p")))
            .select(Select.SPECIFIC_ATTRIBUTES)));
  }

  // ---- invalid key conditions ---------------------------------------------------------------

  @Test
  void invalidKeyConditions() {
    String table = createTable("key-conditions", "pk", S, "sk", N);
    Map<String, AttributeValue> values = Map.of(":p", s("p"), ":v", n("1"));
    assertValidation("Query condition missed key schema element: pk",
        () -> query(table, "sk = :v", Map.of(":v", n("1"))));
    assertValidation("Query key condition not supported",
        () -> query(table, "pk < :p", Map.of(":p", s("p"))));
    assertValidation("Query key condition not supported",
        () -> query(table, "begins_with(pk, :p)", Map.of(":p", s("p"))));
    assertValidation("Query condition missed key schema element: sk",
        () -> query(table, "pk = :p AND extra = :v", values));
    assertValidation("Invalid operator used in KeyConditionExpression: OR",
        () -> query(table, "pk = :p OR sk = :v", values));
    assertValidation("KeyConditionExpressions must only contain one condition per key",
        () -> query(table, "pk = :p AND sk > :v AND sk < :v", values));
    assertValidation("One or more parameter values were invalid: Condition parameter type does "
        + "not match schema type",
        () -> query(table, "pk = :v", Map.of(":v", n("1"))));
    assertValidation("One or more parameter values were invalid: Condition parameter type does "
        + "not match schema type",
        () -> query(table, "pk = :p AND sk = :s", Map.of(":p", s("p"), ":s", s("1"))));
    assertValidation("Invalid KeyConditionExpression: An expression attribute value used in "
        + "expression is not defined; attribute value: :missing",
        () -> query(table, "pk = :missing", Map.of(":p", s("p"))));
    assertValidation("Value provided in ExpressionAttributeValues unused in expressions: "
        + "keys: {:v}",
        () -> query(table, "pk = :p", values));
    assertValidation("Either the KeyConditions or KeyConditionExpression parameter must be "
        + "specified in the request.",
        () -> dynamo.query(r -> r.tableName(table)));
    assertValidation("1 validation error detected: Value '0' at 'limit' failed to satisfy "
        + "constraint: Member must have value greater than or equal to 1",
        () -> dynamo.query(r -> r.tableName(table)
            .keyConditionExpression("pk = :p")
            .expressionAttributeValues(Map.of(":p", s("p")))
            .limit(0)));
  }

  @Test
  void keyConditionSyntaxAndOperandErrors() {
    String table = createTable("key-syntax", "pk", S, "sk", N);
    assertValidationContaining("Invalid KeyConditionExpression: Syntax error; token:",
        () -> query(table, "pk = = :p", Map.of(":p", s("p"))));
    assertValidationContaining("upper bound to be greater than or equal to lower bound",
        () -> query(table, "pk = :p AND sk BETWEEN :hi AND :lo",
            Map.of(":p", s("p"), ":hi", n("5"), ":lo", n("3"))));
    // begins_with takes a string or binary operand, never a number.
    assertThat(assertValidationContaining("",
        () -> query(table, "pk = :p AND begins_with(sk, :v)", Map.of(":p", s("p"), ":v", n("1"))))
        .awsErrorDetails().errorMessage()).containsIgnoringCase("begins_with");
  }

  @Test
  void queryOfAMissingTableIsResourceNotFound() {
    String table = uniqueTableName("no-such-table");
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> query(table, "pk = :p", Map.of(":p", s("p"))));
  }

  private void put(String table, Map<String, AttributeValue> item) {
    dynamo.putItem(r -> r.tableName(table).item(item));
  }

  private <T> void putShuffled(String table, List<T> sortKeys,
      java.util.function.Function<T, AttributeValue> toValue) {
    List<T> shuffled = new ArrayList<>(sortKeys);
    Collections.shuffle(shuffled, new Random(42));
    for (T sk : shuffled) {
      put(table, item("pk", s("p"), "sk", toValue.apply(sk)));
    }
  }

  private QueryResponse query(String table, String keyCondition,
      Map<String, AttributeValue> values) {
    Consumer<QueryRequest.Builder> request = r -> r.tableName(table)
        .keyConditionExpression(keyCondition)
        .expressionAttributeValues(values);
    return dynamo.query(request);
  }

  private static List<String> sortKeys(QueryResponse response, String name) {
    return response.items().stream().map(i -> i.get(name).s()).toList();
  }

  private static List<Integer> numbers(QueryResponse response) {
    return response.items().stream().map(i -> Integer.parseInt(i.get("sk").n())).toList();
  }
}
