package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * SELECT as a Query or a Scan, through the SDK: each answer compared with the Query or Scan
 * written with expressions over the same items, and paged with Limit and NextToken.
 */
class PartiqlSelectTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  /** pk 'p' with sk 1..6 (v alternating 'a'/'b', l of sk elements), and pk 'q' with sk 1. */
  private String createItems() {
    String table = uniqueTableName("pql-select");
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(table)
        .attributeDefinitions(attribute("pk", S), attribute("sk", N), attribute("owner", S))
        .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
        .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("ByOwner")
            .keySchema(key("owner", KeyType.HASH), key("sk", KeyType.RANGE))
            .projection(p -> p.projectionType(ProjectionType.ALL)).build())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(table);
    for (int i = 1; i <= 6; i++) {
      List<AttributeValue> list = new ArrayList<>();
      for (int j = 0; j < i; j++) {
        list.add(n(Integer.toString(j)));
      }
      Map<String, AttributeValue> item = new java.util.LinkedHashMap<>(item("pk", s("p"),
          "sk", n(Integer.toString(i)), "v", s(i % 2 == 0 ? "b" : "a"),
          "l", AttributeValue.fromL(list), "owner", s(i <= 3 ? "ann" : "bob")));
      if (i == 5) {
        item.put("nothing", AttributeValue.fromNul(true));
      }
      dynamo.putItem(r -> r.tableName(table).item(item));
    }
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("q"), "sk", n("1"), "v", s("a"))));
    return table;
  }

  private List<Map<String, AttributeValue>> select(String statement, AttributeValue... params) {
    return dynamo.executeStatement(r -> {
      r.statement(statement);
      if (params.length > 0) {
        r.parameters(params);
      }
    }).items();
  }

  private List<Map<String, AttributeValue>> query(String table, String keyCondition,
      String filter, Object... placeholders) {
    return dynamo.query(r -> r.tableName(table).keyConditionExpression(keyCondition)
        .filterExpression(filter).expressionAttributeValues(attributeValues(placeholders))
        .consistentRead(true)).items();
  }

  private List<Map<String, AttributeValue>> scan(String table, String filter,
      Object... placeholders) {
    return dynamo.scan(r -> r.tableName(table).filterExpression(filter)
        .expressionAttributeNames(attributeNames(placeholders))
        .expressionAttributeValues(attributeValues(placeholders))).items();
  }

  @Test
  void anEqualityOnThePartitionKeyIsAQueryWithTheSortKeyConditionAndAFilter() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\" WHERE ";
    assertThat(select(from + "pk = ? AND sk > 2 AND v = 'a'", s("p")))
        .isEqualTo(query(table, "pk = :p AND sk > :s", "v = :v",
            ":p", s("p"), ":s", n("2"), ":v", s("a")))
        .extracting(i -> i.get("sk").n()).containsExactly("3", "5");
    assertThat(select(from + "pk = 'p' AND sk BETWEEN 2 AND 4"))
        .extracting(i -> i.get("sk").n()).containsExactly("2", "3", "4");
    assertThat(select(from + "'p' = pk AND 4 < sk"))
        .extracting(i -> i.get("sk").n()).containsExactly("5", "6");
    assertThat(select(from + "sk <= 2 AND pk = 'p'"))
        .extracting(i -> i.get("sk").n()).containsExactly("1", "2");
    assertThat(select(from + "pk = 'p' AND sk = 6 AND size(l) > 5"))
        .extracting(i -> i.get("sk").n()).containsExactly("6");
    assertThat(select(from + "pk = 'none'")).isEmpty();
  }

  /**
   * A lower and an upper bound on the sort key are one key condition, as a BETWEEN, the
   * exclusive ends left out: the same items as the Query of that range, never the Query's
   * refusal of a key attribute in its filter.
   */
  @Test
  void aLowerAndAnUpperBoundOnTheSortKeyAreOneKeyCondition() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\" WHERE ";
    assertThat(select(from + "pk = 'p' AND sk >= 2 AND sk <= 4"))
        .isEqualTo(query(table, "pk = :p AND sk BETWEEN :a AND :b", null,
            ":p", s("p"), ":a", n("2"), ":b", n("4")))
        .extracting(i -> i.get("sk").n()).containsExactly("2", "3", "4");
    assertThat(select(from + "pk = ? AND sk > ? AND sk < ?", s("p"), n("2"), n("5")))
        .isEqualTo(query(table, "pk = :p AND sk BETWEEN :a AND :b", null,
            ":p", s("p"), ":a", n("3"), ":b", n("4")))
        .extracting(i -> i.get("sk").n()).containsExactly("3", "4");
    // Either order, either side of the operator, with the rest as the filter.
    assertThat(select(from + "sk < 6 AND pk = 'p' AND 1 < sk AND v = 'a'"))
        .extracting(i -> i.get("sk").n()).containsExactly("3", "5");
    assertThat(select(from + "pk = 'p' AND sk > 1 AND sk <= 3"))
        .extracting(i -> i.get("sk").n()).containsExactly("2", "3");
    // A projection without the sort key still leaves the excluded ends out.
    assertThat(select("SELECT v FROM \"" + table + "\" WHERE pk = 'p' AND sk > 1 AND sk < 4"))
        .containsExactly(item("v", s("b")), item("v", s("a")));
    // Ranges that hold nothing.
    assertThat(select(from + "pk = 'p' AND sk > 4 AND sk < 4")).isEmpty();
    assertThat(select(from + "pk = 'p' AND sk >= 5 AND sk <= 2")).isEmpty();
    // Over several partitions and on an index.
    assertThat(select(from + "pk IN ('p', 'q') AND sk > 0 AND sk < 2"))
        .extracting(i -> i.get("pk").s() + i.get("sk").n()).containsExactly("p1", "q1");
    assertThat(select("SELECT sk FROM \"" + table + "\".\"ByOwner\" "
        + "WHERE owner = 'bob' AND sk > 4 AND sk <= 6"))
        .containsExactly(item("sk", n("5")), item("sk", n("6")));
  }

  /**
   * attribute_exists and attribute_not_exists in a WHERE clause, as DynamoDB's PartiQL takes
   * them, and refused in its recorded words where they name no single document path.
   */
  @Test
  void attributeExistsAndAttributeNotExistsTakeOneDocumentPath() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\" WHERE ";
    assertThat(select(from + "pk = 'p' AND attribute_exists(nothing)"))
        .extracting(i -> i.get("sk").n()).containsExactly("5");
    assertThat(select(from + "attribute_not_exists(l)"))
        .isEqualTo(scan(table, "attribute_not_exists(#l)", "#l", "l"))
        .extracting(i -> i.get("pk").s()).containsExactly("q");
    String where = from + "pk = 'p' AND ";
    assertValidation("Operator or function requires a document path; operator or function:"
        + " attribute_exists", () -> select(where + "attribute_exists('l')"));
    assertValidation("Operator or function requires a document path; operator or function:"
        + " attribute_not_exists", () -> select(where + "attribute_not_exists(?)", s("l")));
    assertValidation("Incorrect number of operands for operator or function; operator or"
        + " function: attribute_exists, number of operands: 0",
        () -> select(where + "attribute_exists()"));
    assertValidation("Incorrect number of operands for operator or function; operator or"
        + " function: attribute_exists, number of operands: 2",
        () -> select(where + "attribute_exists(l, v)"));
    String projected = "SELECT attribute_exists(l) FROM \"" + table + "\" WHERE pk = 'p'";
    assertValidation("Unexpected path component at 1:8:16", () -> select(projected));
  }

  @Test
  void withoutThePartitionKeyItIsAScanWithTheWholeClauseAsFilter() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\"";
    assertThat(select(from)).containsExactlyInAnyOrderElementsOf(
        dynamo.scan(r -> r.tableName(table)).items()).hasSize(7);
    assertThat(select(from + " WHERE v = 'b' OR (sk = 1 AND NOT pk = 'p')"))
        .containsExactlyInAnyOrderElementsOf(
            scan(table, "v = :b OR (sk = :one AND NOT pk = :p)",
                ":b", s("b"), ":one", n("1"), ":p", s("p")))
        .extracting(i -> i.get("pk").s() + i.get("sk").n())
        .containsExactlyInAnyOrder("p2", "p4", "p6", "q1");
    assertThat(select(from + " WHERE contains(l, 4) AND attribute_type(v, 'S')"))
        .extracting(i -> i.get("sk").n()).containsExactlyInAnyOrder("5", "6");
    assertThat(select(from + " WHERE l IS MISSING"))
        .extracting(i -> i.get("pk").s()).containsExactly("q");
    assertThat(select(from + " WHERE nothing IS NOT MISSING"))
        .extracting(i -> i.get("sk").n()).containsExactly("5");
    assertThat(select(from + " WHERE nothing IS NULL AND pk IS NOT NULL")).hasSize(7);
    assertThat(select(from + " WHERE begins_with(pk, 'q') OR v IN ('x', 'y')"))
        .extracting(i -> i.get("pk").s()).containsExactly("q");
  }

  @Test
  void selectFromAnIndexQueriesIt() {
    String table = createItems();
    assertThat(select("SELECT pk, sk FROM \"" + table + "\".\"ByOwner\" "
        + "WHERE owner = ? AND sk >= 5", s("bob")))
        .containsExactly(item("pk", s("p"), "sk", n("5")), item("pk", s("p"), "sk", n("6")));
    assertThat(select("SELECT sk FROM \"" + table + "\".ByOwner WHERE v = 'b'"))
        .extracting(i -> i.get("sk").n()).containsExactlyInAnyOrder("2", "4", "6");
    assertValidation("The table does not have the specified index",
        () -> select("SELECT * FROM \"" + table + "\".\"Nope\" WHERE owner = 'bob'"));
    assertValidation("Strongly consistent read is not supported on Global Secondary Indexes",
        () -> dynamo.executeStatement(r -> r.consistentRead(true)
            .statement("SELECT * FROM \"" + table + "\".\"ByOwner\" WHERE owner = 'bob'")));
  }

  @Test
  void limitAndNextTokenPageAQueryAndAScan() {
    String table = createItems();
    for (String statement : List.of(
        "SELECT * FROM \"" + table + "\" WHERE pk = 'p'",
        "SELECT * FROM \"" + table + "\"")) {
      List<Map<String, AttributeValue>> all = new ArrayList<>();
      String token = null;
      int pages = 0;
      do {
        String from = token;
        ExecuteStatementResponse page = dynamo.executeStatement(r -> r.statement(statement)
            .limit(2).nextToken(from).consistentRead(true));
        assertThat(page.items()).hasSizeLessThanOrEqualTo(2);
        all.addAll(page.items());
        token = page.nextToken();
        pages++;
      } while (token != null);
      assertThat(pages).isGreaterThanOrEqualTo(3);
      assertThat(all).containsExactlyInAnyOrderElementsOf(select(statement));
    }
    assertValidation("Invalid NextToken", () -> dynamo.executeStatement(r -> r
        .statement("SELECT * FROM \"" + table + "\"").nextToken("not-a-token")));
  }

  @Test
  void eachAlternativeOfTheKeyIsOneReadAsDynamoDbDecomposesAWhereClause() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\" WHERE ";
    // Several ranges of one partition, each read once, in sort-key order
    assertThat(keys(select(from + "pk = 'p' AND (sk = 2 OR sk = 1)"))).containsExactly("p1", "p2");
    assertThat(keys(select(from + "pk = 'p' AND sk IN [5, 2]"))).containsExactly("p2", "p5");
    assertThat(keys(select(from + "pk = 'p' AND (sk > 5 OR sk < 2 OR sk = 3)")))
        .containsExactly("p1", "p3", "p6");
    assertThat(keys(select(from + "pk IN ['q', 'p'] AND sk IN [2, 1]")))
        .containsExactly("p1", "p2", "q1");
    assertThat(keys(select(from + "(pk = 'p' AND v = 'a') OR (pk = 'q' AND v = 'a')")))
        .containsExactly("p1", "p3", "p5", "q1");
    // Several conditions on the sort key in one alternative select what they all hold
    assertThat(keys(select(from + "pk = 'p' AND sk = 2 AND sk > 1"))).containsExactly("p2");
    assertThat(select(from + "pk = 'p' AND sk = 2 AND sk > 2")).isEmpty();
    assertThat(keys(select(from + "pk = 'p' AND sk >= 2 AND begins_with(v, 'b') AND sk < 5")))
        .containsExactly("p2", "p4");
    // A negated sort-key condition runs, and returns what each alternative selects
    assertThat(keys(select(from + "pk = 'p' AND NOT sk = 1"))).containsExactly(
        "p2", "p3", "p4", "p5", "p6");
    assertThat(keys(select(from + "pk = 'p' AND sk <> 1 AND sk < 4"))).containsExactly("p2", "p3");
    assertThat(keys(select(from + "pk = 'p' AND NOT sk IN [1, 3] OR pk = 'p' AND sk = 2")))
        .containsExactly("p2", "p4", "p5", "p6");
    assertThat(keys(select(from + "pk = 'p' OR pk = 'p' AND NOT sk = 1"))).hasSize(6);
    assertThat(keys(select(from + "pk = 'q' OR sk = 6"))).containsExactlyInAnyOrder("p6", "q1");
    // On an index, its own key
    assertThat(keys(select("SELECT * FROM \"" + table + "\".\"ByOwner\""
        + " WHERE owner = 'ann' AND (sk = 3 OR sk = 1)"))).containsExactly("p1", "p3");
  }

  @Test
  void readsThatOverlapOrTooManyOrOfTheWrongTypeAreRefused() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\" WHERE ";
    for (String overlapping : List.of("pk IN ['p', 'p']", "pk = 'p' OR pk = 'p'",
        "pk = 'p' AND (sk > 0 OR sk < 5)", "pk = 'p' AND (sk = 1 OR v = 'b')",
        "(pk = 'p' AND v = 'a') OR (pk = 'p' AND v = 'b')", "pk = 'p' AND v = 'a' OR pk = 'p' AND sk = 2",
        "pk = 'p' AND (begins_with(v, 'a') OR sk BETWEEN 2 AND 3) AND sk < 5")) {
      assertValidation("Overlapping conditions with range keys are not supported in where clause",
          () -> select(from + overlapping));
    }
    StringBuilder sortKeys = new StringBuilder();
    for (int i = 0; i <= 50; i++) {
      sortKeys.append(i == 0 ? "" : ", ").append(i);
    }
    assertValidation("Too many decomposed read operations for a given query.",
        () -> select(from + "pk = 'p' AND sk IN [" + sortKeys + "]"));
    StringBuilder partitions = new StringBuilder();
    for (int i = 0; i < 26; i++) {
      partitions.append(i == 0 ? "" : ", ").append("'k").append(i).append("'");
    }
    assertValidation("Too many decomposed read operations for a given query.",
        () -> select(from + "pk IN [" + partitions + "] AND sk IN [1, 2]"));
    assertThat(select(from + "pk IN [" + partitions + "] AND v IN ['x', 'y']")).isEmpty();
    assertValidation("Key attribute's data type should match its data type in table's schema: Key pk",
        () -> select(from + "pk = 1 OR pk = 'p'"));
    assertValidation("Key attribute's data type should match its data type in table's schema: Key sk",
        () -> select(from + "pk = 'p' AND sk IN [1, '2']"));
  }

  private static List<String> keys(List<Map<String, AttributeValue>> items) {
    return items.stream().map(i -> i.get("pk").s() + i.get("sk").n()).toList();
  }

  @Test
  void inOnThePartitionKeyQueriesEachPartitionInKeyOrder() {
    String table = createItems();
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("o"), "sk", n("9"), "v", s("a"))));
    String from = "SELECT * FROM \"" + table + "\" WHERE ";
    // Key order: o, p, q, whatever the order written; each partition's items in sort-key order
    assertThat(select(from + "pk IN ('q', 'o', 'p') AND sk < 3"))
        .extracting(i -> i.get("pk").s() + i.get("sk").n())
        .containsExactly("p1", "p2", "q1");
    assertThat(select(from + "(pk = 'q' OR pk = ?) AND v = 'a'", s("o")))
        .extracting(i -> i.get("pk").s() + i.get("sk").n())
        .containsExactly("o9", "q1");
    assertThat(select(from + "pk IN ['none', 'q']"))
        .extracting(i -> i.get("pk").s() + i.get("sk").n()).containsExactly("q1");

    // One Query per partition: three tiny partitions, each half a unit when eventually consistent
    ExecuteStatementResponse counted = dynamo.executeStatement(r -> r
        .statement(from + "pk IN ('o', 'p', 'q')").returnConsumedCapacity("TOTAL"));
    assertThat(counted.items()).hasSize(8);
    assertThat(counted.consumedCapacity().capacityUnits()).isEqualTo(1.5);
  }

  @Test
  void limitAndNextTokenPageAcrossPartitions() {
    String table = createItems();
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("o"), "sk", n("9"), "v", s("a"))));
    String statement = "SELECT * FROM \"" + table + "\" WHERE pk IN ('q', 'p', 'o')";
    for (int limit : List.of(1, 2, 3, 7, 8)) {
      List<String> all = new ArrayList<>();
      String token = null;
      do {
        String from = token;
        ExecuteStatementResponse page = dynamo.executeStatement(r -> r.statement(statement)
            .limit(limit).nextToken(from));
        assertThat(page.items()).as("limit %d", limit).hasSizeLessThanOrEqualTo(limit);
        page.items().forEach(i -> all.add(i.get("pk").s() + i.get("sk").n()));
        token = page.nextToken();
      } while (token != null);
      assertThat(all).as("limit %d", limit)
          .containsExactly("o9", "p1", "p2", "p3", "p4", "p5", "p6", "q1");
    }
  }

  @Test
  void orderByReadsKeysInTheOrderAsked() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\" WHERE ";
    assertThat(select(from + "pk = 'p' AND sk >= 4 ORDER BY sk DESC"))
        .extracting(i -> i.get("sk").n()).containsExactly("6", "5", "4");
    assertThat(select(from + "pk = 'p' AND sk <= 2 ORDER BY sk ASC"))
        .extracting(i -> i.get("sk").n()).containsExactly("1", "2");
    assertThat(select(from + "pk IN ('p', 'q') AND sk < 3 ORDER BY pk DESC, sk DESC"))
        .extracting(i -> i.get("pk").s() + i.get("sk").n())
        .containsExactly("q1", "p2", "p1");
    assertThat(select(from + "pk IN ('p', 'q') AND sk < 3 ORDER BY pk"))
        .extracting(i -> i.get("pk").s() + i.get("sk").n())
        .containsExactly("p1", "p2", "q1");
    assertThat(select("SELECT sk FROM \"" + table + "\".\"ByOwner\" WHERE owner = 'ann'"
        + " ORDER BY sk DESC"))
        .extracting(i -> i.get("sk").n()).containsExactly("3", "2", "1");
  }

  @Test
  void orderByOutsideTheKeyOrWithoutPartitionsIsRefused() {
    String table = createItems();
    String from = "SELECT * FROM \"" + table + "\"";
    assertValidation("Must have WHERE clause in the statement when using ORDER BY clause.",
        () -> select(from + " ORDER BY sk"));
    assertValidation("Attribute v in ORDER BY clause must be part of the primary key",
        () -> select(from + " WHERE pk = 'p' ORDER BY v"));
    assertValidation("Must have at least one non-optional hash key condition in WHERE clause"
        + " when using ORDER BY clause.", () -> select(from + " WHERE sk = 1 ORDER BY sk"));
    assertValidation("Must have hash key in ORDER BY clause when more than one hash key"
        + " condition specified in WHERE clause.",
        () -> select(from + " WHERE pk IN ('p', 'q') ORDER BY sk"));
    StringBuilder many = new StringBuilder(from + " WHERE pk IN (");
    for (int i = 0; i <= 50; i++) {
      many.append(i == 0 ? "" : ", ").append("'k").append(i).append("'");
    }
    assertValidation("Too many decomposed read operations for a given query.",
        () -> select(many + ")"));
  }

  @Test
  void aPageOverSeveralPartitionsEndsNearAMegabyte() {
    String table = createTable("pql-pages", "pk", S, "sk", N);
    String filler = "x".repeat(350 * 1024);
    for (String pk : List.of("a", "b", "c")) {
      for (int sk = 1; sk <= 2; sk++) {
        String sortKey = Integer.toString(sk);
        dynamo.putItem(r -> r.tableName(table)
            .item(item("pk", s(pk), "sk", n(sortKey), "d", s(filler))));
      }
    }
    // 700 KB a partition: the first page stops after the second partition, past 1 MB
    String statement = "SELECT * FROM \"" + table + "\" WHERE pk IN ('a', 'b', 'c')";
    ExecuteStatementResponse first = dynamo.executeStatement(r -> r.statement(statement));
    assertThat(first.items()).extracting(i -> i.get("pk").s() + i.get("sk").n())
        .containsExactly("a1", "a2", "b1", "b2");
    assertThat(first.nextToken()).isNotNull();
    ExecuteStatementResponse second = dynamo.executeStatement(r -> r.statement(statement)
        .nextToken(first.nextToken()));
    assertThat(second.items()).extracting(i -> i.get("pk").s() + i.get("sk").n())
        .containsExactly("c1", "c2");
    assertThat(second.nextToken()).isNull();
  }
}
