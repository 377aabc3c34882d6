package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DuplicateItemException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * ExecuteStatement's statements on one item, through the SDK: each write checked afterwards
 * through GetItem, and one table's GSI and stream checked after PartiQL writes.
 */
class PartiqlTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;

  private ExecuteStatementResponse run(String statement, AttributeValue... parameters) {
    return dynamo.executeStatement(r -> {
      r.statement(statement);
      if (parameters.length > 0) {
        r.parameters(parameters);
      }
    });
  }

  private Map<String, AttributeValue> get(String table, Map<String, AttributeValue> key) {
    var got = dynamo.getItem(r -> r.tableName(table).key(key).consistentRead(true));
    return got.hasItem() ? got.item() : null; // the SDK shows an absent Item as an empty map
  }

  private void assertConditionFails(String statement) {
    assertError(ConditionalCheckFailedException.class, "ConditionalCheckFailedException",
        "The conditional request failed", () -> run(statement));
  }

  @Test
  void insertWritesLiteralsAndParameters() {
    String table = createTable("pql-insert", "pk", S, "sk", N);
    ExecuteStatementResponse inserted = run("INSERT INTO \"" + table + "\" VALUE {'pk': 'a', "
        + "'sk': 1, 'name': ?, 'tags': <<'x', 'y'>>, 'nums': <<1, 2.5>>, "
        + "'doc': {'inner': [1, 'two', true, NULL]}, 'flag': false, 'neg': -3e2}", s("Ann"));
    assertThat(inserted.items()).isEmpty();
    Map<String, AttributeValue> item = get(table, item("pk", s("a"), "sk", n("1")));
    assertThat(item).containsEntry("name", s("Ann"))
        .containsEntry("flag", AttributeValue.fromBool(false))
        .containsEntry("neg", n("-300"))
        .containsEntry("doc", m(item("inner", l(n("1"), s("two"),
            AttributeValue.fromBool(true), AttributeValue.fromNul(true)))));
    assertThat(item.get("tags").ss()).containsExactlyInAnyOrder("x", "y");
    assertThat(item.get("nums").ns()).containsExactlyInAnyOrder("1", "2.5");
  }

  @Test
  void insertOfAnExistingKeyIsADuplicateAndWritesNothing() {
    String table = createTable("pql-dup", "pk", S);
    run("INSERT INTO \"" + table + "\" VALUE {'pk': ?, 'v': 1}", s("k"));
    assertError(DuplicateItemException.class, "DuplicateItemException",
        "Duplicate primary key exists in table",
        () -> run("INSERT INTO \"" + table + "\" VALUE {'pk': ?, 'v': 2}", s("k")));
    assertThat(get(table, item("pk", s("k")))).containsEntry("v", n("1"));
  }

  @Test
  void selectOnTheFullKeyIsAGetItem() {
    String table = createTable("pql-select", "pk", S, "sk", S);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("p"), "sk", s("s"), "a", n("1"),
        "m", m(item("x", s("X"), "y", s("Y"))), "l", l(s("l0"), s("l1")))));

    ExecuteStatementResponse all = dynamo.executeStatement(r -> r
        .statement("select * from \"" + table + "\" where pk = ? and \"sk\" = 's'")
        .parameters(s("p")).consistentRead(true)
        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    assertThat(all.items()).containsExactly(get(table, item("pk", s("p"), "sk", s("s"))));
    assertThat(all.consumedCapacity().capacityUnits()).isEqualTo(1.0);

    ExecuteStatementResponse some = run(
        "SELECT a, m.x, l[1] FROM \"" + table + "\" WHERE sk = 's' AND pk = 'p'");
    // A path below the top is a column named by its last name and indexes, as DynamoDB answers
    assertThat(some.items()).containsExactly(item("a", n("1"), "x", s("X"), "l[1]", s("l1")));
    assertThat(run("SELECT m.x, l[0], l[5] FROM \"" + table + "\" WHERE pk = 'p' AND sk > 'a'")
        .items()).containsExactly(item("x", s("X"), "l[0]", s("l0")));

    assertThat(run("SELECT * FROM \"" + table + "\" WHERE pk = 'p' AND sk = 'none'").items())
        .isEmpty();
  }

  @Test
  void updateSetsAddsRemovesAndReturns() {
    String table = createTable("pql-update", "pk", S);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("u"), "count", n("1"),
        "list", l(n("1")), "tags", AttributeValue.fromSs(List.of("a", "b")),
        "doc", m(item("inner", s("old"))), "gone", s("x"))));

    ExecuteStatementResponse updated = run("UPDATE \"" + table + "\" SET count = count + ? "
        + "SET list = list_append(list, [2]), tags = set_add(tags, <<'c'>>) "
        + "SET doc.inner = 'new' REMOVE gone WHERE pk = 'u' AND count = 1 "
        + "RETURNING ALL NEW *", n("4"));
    Map<String, AttributeValue> after = get(table, item("pk", s("u")));
    assertThat(updated.items()).containsExactly(after);
    assertThat(after).containsEntry("count", n("5"))
        .containsEntry("list", l(n("1"), n("2")))
        .containsEntry("doc", m(item("inner", s("new"))))
        .doesNotContainKey("gone");
    assertThat(after.get("tags").ss()).containsExactlyInAnyOrder("a", "b", "c");

    ExecuteStatementResponse removed = run("UPDATE \"" + table + "\" "
        + "SET tags = set_delete(tags, <<'a'>>) WHERE pk = 'u' RETURNING MODIFIED OLD *");
    assertThat(removed.items().get(0).get("tags").ss()).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(get(table, item("pk", s("u"))).get("tags").ss())
        .containsExactlyInAnyOrder("b", "c");
  }

  @Test
  void updateOfAMissingItemOrAFailedConditionIsAConditionalCheckFailure() {
    String table = createTable("pql-update-cond", "pk", S);
    run("INSERT INTO \"" + table + "\" VALUE {'pk': 'k', 'v': 1}");
    assertConditionFails("UPDATE \"" + table + "\" SET v = 2 WHERE pk = 'k' AND v > 1");
    assertThat(get(table, item("pk", s("k")))).containsEntry("v", n("1"));
    assertConditionFails("UPDATE \"" + table + "\" SET v = 2 WHERE pk = 'absent'");
    assertThat(get(table, item("pk", s("absent")))).isNull();
    run("UPDATE \"" + table + "\" SET v = 2 WHERE pk = 'k' AND v IS NOT MISSING "
        + "AND other IS MISSING AND (begins_with(pk, 'k') OR v IN (7, 8))");
    assertThat(get(table, item("pk", s("k")))).containsEntry("v", n("2"));
  }

  @Test
  void deleteWithConditionsAndReturning() {
    String table = createTable("pql-delete", "pk", S);
    run("INSERT INTO \"" + table + "\" VALUE {'pk': 'd', 'v': 'keep'}");
    assertConditionFails("DELETE FROM \"" + table + "\" WHERE pk = 'd' AND v <> 'keep'");
    assertThat(get(table, item("pk", s("d")))).isNotNull();

    ExecuteStatementResponse deleted =
        run("DELETE FROM \"" + table + "\" WHERE pk = ? AND v = 'keep' RETURNING ALL OLD *",
            s("d"));
    assertThat(deleted.items()).containsExactly(item("pk", s("d"), "v", s("keep")));
    assertThat(get(table, item("pk", s("d")))).isNull();
  }

  @Test
  void partiqlWritesReachTheIndexAndTheStream() {
    String table = uniqueTableName("pql-index");
    dynamo.createTable(CreateTableRequest.builder()
        .tableName(table)
        .attributeDefinitions(attribute("pk", S), attribute("owner", S))
        .keySchema(key("pk", KeyType.HASH))
        .globalSecondaryIndexes(GlobalSecondaryIndex.builder().indexName("ByOwner")
            .keySchema(key("owner", KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.ALL)).build())
        .streamSpecification(s -> s.streamEnabled(true)
            .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .build());
    awaitActive(table);

    run("INSERT INTO \"" + table + "\" VALUE {'pk': 'i', 'owner': 'ann'}");
    run("UPDATE \"" + table + "\" SET owner = 'bob' WHERE pk = 'i'");
    run("INSERT INTO \"" + table + "\" VALUE {'pk': 'j', 'owner': 'bob'}");
    run("DELETE FROM \"" + table + "\" WHERE pk = 'j'");

    assertThat(dynamo.query(r -> r.tableName(table).indexName("ByOwner")
        .keyConditionExpression("#o = :o").expressionAttributeNames(Map.of("#o", "owner"))
        .expressionAttributeValues(Map.of(":o", s("bob")))).items())
        .containsExactly(item("pk", s("i"), "owner", s("bob")));
    assertThat(dynamo.query(r -> r.tableName(table).indexName("ByOwner")
        .keyConditionExpression("#o = :o").expressionAttributeNames(Map.of("#o", "owner"))
        .expressionAttributeValues(Map.of(":o", s("ann")))).items()).isEmpty();

    String arn = dynamo.describeTable(r -> r.tableName(table)).table().latestStreamArn();
    List<Record> records = new StreamConsumer(endpoint.streamsClient(), arn).readAll();
    // A stream orders the records of one key; the two keys may lie in different shards.
    List<Record> ofI = records.stream()
        .filter(r -> r.dynamodb().keys().get("pk").equals(s("i"))).toList();
    List<Record> ofJ = records.stream()
        .filter(r -> r.dynamodb().keys().get("pk").equals(s("j"))).toList();
    assertThat(ofI).extracting(Record::eventName)
        .containsExactly(OperationType.INSERT, OperationType.MODIFY);
    assertThat(ofJ).extracting(Record::eventName)
        .containsExactly(OperationType.INSERT, OperationType.REMOVE);
    assertThat(ofI.get(1).dynamodb().oldImage()).containsEntry("owner", s("ann"));
    assertThat(ofI.get(1).dynamodb().newImage()).containsEntry("owner", s("bob"));
    assertThat(ofJ.get(1).dynamodb().oldImage()).containsEntry("owner", s("bob"));
  }

  /**
   * A statement that does not parse gets DynamoDB's recorded words: the envelope and what was
   * not expected, without a position; nothing after the colon for what the lexer refuses; an
   * alias and an unknown function in sentences of their own, the function with where it is
   * ({@code line:column:length}). Nothing runs.
   */
  @Test
  void parseErrorsAreWordedAsDynamoDbWordsThem() {
    String table = createTable("pql-parse", "pk", S);
    String t = "\"" + table + "\"";
    String envelope = "Statement wasn't well formed, can't be processed: ";
    Map<String, String> expected = new java.util.LinkedHashMap<>();
    expected.put("SELECT * FROM " + t + " WHERE pk = 'a' foo", "Unexpected token after expression");
    expected.put("SELECT * FROM " + t + " WHERE pk = 'a')", "Unexpected token after expression");
    expected.put("SELECT * FROM " + t + " ORDER BY pk WHERE pk = 'a'",
        "Unexpected token after expression");
    expected.put("DELETE FROM " + t + " WHERE pk = 'a' ORDER BY pk",
        "Unexpected token after expression");
    expected.put("INSERT INTO " + t + " t VALUE {'pk': 'x'}", "Unexpected token after expression");
    expected.put("SELECT * FROM " + t + " WHERE", "Unexpected term");
    expected.put("SELECT * FROM " + t + " WHERE (", "Unexpected term");
    expected.put("SELECT * FROM", "Unexpected term");
    expected.put("SELECT * FROM " + t + " WHERE pk = 'p1' AND",
        "Missing right-hand side expression of infix operator");
    expected.put("SELECT * FROM " + t + " WHERE pk = 'p1' OR",
        "Missing right-hand side expression of infix operator");
    expected.put("SELECT * FROM " + t + " WHERE ORDER BY pk", "Unexpected keyword");
    expected.put("SELECT * FROM " + t + " WHERE pk = 'a' AND x IS FOO", "Expected type name");
    expected.put("SELECT * FROM " + t + " WHERE IS NULL", "Unexpected operator");
    expected.put("SELECT * FROM " + t + " WHERE pk = LIKE", "Unexpected operator");
    expected.put("DELETE FROM", "Expected identifier for simple path");
    expected.put("DELETE FROM WHERE pk = 'a'", "Expected identifier for simple path");
    expected.put("SELECT * FROM " + t + " WHERE pk = 1 # note", "");
    expected.put("SELECT * FROM " + t + " WHERE pk = 1 /* note", "");
    expected.put("SELECT * FROM " + t + " WHERE pk = 1e2147483648", "");
    expected.put("SELECT * FROM " + t + " WHERE pk = 1.5e-2147483647", "");
    expected.forEach((statement, detail) ->
        assertValidation(envelope + detail, () -> run(statement)));
    // A number literal that breaks DynamoDB's number rules: their words, and where it sits.
    String overflow = "Number overflow. Attempting to store a number with magnitude larger than"
        + " supported range under ";
    Map<String, String> numbers = new java.util.LinkedHashMap<>();
    numbers.put("SELECT * FROM " + t + " WHERE pk = 1e126", overflow + "root");
    numbers.put("SELECT * FROM " + t + " WHERE pk = 123456789012345678901234567890123456789",
        "Attempting to store more than 38 significant digits in a Number under root");
    numbers.put("UPDATE " + t + " SET a = 1e-131 WHERE pk = 'x'", "Number underflow. Attempting"
        + " to store a number with magnitude smaller than supported range under root");
    numbers.put("INSERT INTO " + t + " VALUE {'pk': 'x', 'n': 1e126}", overflow + "root");
    numbers.put("INSERT INTO " + t + " VALUE {'pk': 'x', 'm': {'x': 1e126}}",
        overflow + "root.x");
    numbers.put("INSERT INTO " + t + " VALUE {'pk': 'x', 'l': [1, [2, -1e126]]}",
        overflow + "root[1][1]");
    numbers.forEach((statement, message) -> assertValidation(message, () -> run(statement)));
    for (String aliased : List.of("SELECT * FROM " + t + " x WHERE pk = 'x'",
        "SELECT * FROM " + t + " AS x WHERE pk = 'x'",
        "UPDATE " + t + " x SET a = 3 WHERE pk = 'x'",
        "DELETE FROM " + t + " x WHERE pk = 'x'")) {
      assertValidation("Aliasing is not supported", () -> run(aliased));
    }
    String unknown = "SELECT * FROM " + t + " WHERE pk = 'a' AND nope(a)";
    assertValidation("Unrecognized function: nope at 1:" + (unknown.indexOf("nope") + 1) + ":4",
        () -> run(unknown));
    // set_add and set_delete are functions of a SET's value, unknown in a WHERE clause.
    String setAdd = "SELECT * FROM " + t + " WHERE pk = 'a' AND set_add(v, <<'x'>>) = v";
    assertValidation("Unrecognized function: set_add at 1:" + (setAdd.indexOf("set_add") + 1)
        + ":7", () -> run(setAdd));
    // EXISTS is a statement of ExecuteTransaction, no function of a WHERE clause.
    String exists = "SELECT * FROM " + t + " WHERE pk = 'a' AND EXISTS(v)";
    assertValidation("Unrecognized function: exists at 1:" + (exists.indexOf("EXISTS") + 1) + ":6",
        () -> run(exists));
    // A block comment is no error where it ends.
    assertThat(run("SELECT * FROM " + t + " /* all */ WHERE pk = 'a'").items()).isEmpty();
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isZero();
  }

  @Test
  void errors() {
    String table = createTable("pql-errors", "pk", S);
    assertValidation("Statement wasn't well formed, can't be processed: Expected data manipulation",
        () -> run("UPSERT INTO \"" + table + "\" VALUE {'pk': 'a'}"));
    // A bare type test parses, as recorded from DynamoDB, and is then refused as no statement
    for (String type : List.of("INT4", "INT8", "DOUBLE PRECISION", "CHARACTER VARYING")) {
      assertValidation("Unsupported operation: IsType", () -> run("x IS " + type));
    }
    assertValidation("Unsupported operation: IsType", () -> run("a.b[1] IS NOT int4;"));
    // A function in an INSERT's item is no value DynamoDB stores, named with where it sits
    String insert =
        "INSERT INTO \"" + table + "\" VALUE {'pk': 'f', 'ss': set_add(<<'a'>>, <<'b'>>)}";
    assertValidation("Unsupported data type: set_add under key root at 1:"
        + (insert.indexOf("set_add") + 1) + ":7", () -> run(insert));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("f")))).hasItem())
        .isFalse();
    assertValidation("Statement wasn't well formed, can't be processed: Expected data manipulation",
        () -> run("x IS INT4 AND y = 1"));
    assertValidation("Statement wasn't well formed, can't be processed: Unexpected keyword",
        () -> run("SELECT * FROM \"" + "x" + "\" WHERE WHERE"));
    assertValidationContaining("Statement wasn't well formed, can't be processed: ",
        () -> run("INSERT INTO \"" + table + "\" VALUE {'pk': 'a'"));
    assertValidation("Number of parameters in request and statement don't match.",
        () -> run("INSERT INTO \"" + table + "\" VALUE {'pk': ?}"));
    assertValidation(
        "Where clause does not contain a mandatory equality on all key attributes",
        () -> run("UPDATE \"" + table + "\" SET v = 1 WHERE v = 2"));
    assertValidation(
        "Where clause does not contain a mandatory equality on all key attributes",
        () -> run("DELETE FROM \"" + table + "\" WHERE pk = 'a' OR pk = 'b'"));
    assertErrorContaining(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> run("SELECT * FROM \"no-such-table\" WHERE pk = 'a'"));
    assertThat(dynamo.scan(r -> r.tableName(table)).items()).isEmpty();
  }
}
