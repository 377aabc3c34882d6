package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.TableOperationsTest.expect;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.DeleteItemRequest;
import io.stator.api.ErrorType;
import io.stator.api.ExpectedAttributeValue;
import io.stator.api.GetItemRequest;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.api.ScanRequest;
import io.stator.value.AttributeValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Expected, ConditionalOperator, QueryFilter, ScanFilter, KeyConditions and AttributesToGet. */
class LegacyParametersTest extends EngineTest {
  private static final String INVALID = "One or more parameter values were invalid: ";


  @BeforeEach
  void tables() {
    db.createTable(create("Thread", "forum", "S", "subject", "S"));
    db.createTable(create("Simple", "id", "S", null, null));
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static ExpectedAttributeValue value(AttributeValue v) {
    return new ExpectedAttributeValue(v, null, null, null);
  }

  private static ExpectedAttributeValue exists(boolean exists) {
    return new ExpectedAttributeValue(null, exists, null, null);
  }

  private static ExpectedAttributeValue op(String operator, AttributeValue... values) {
    return new ExpectedAttributeValue(null, null, operator, List.of(values));
  }

  private static io.stator.api.Condition cond(String operator, AttributeValue... values) {
    return new io.stator.api.Condition(List.of(values), operator);
  }

  @SafeVarargs
  private static <V> Map<String, V> map(Object... nameValues) {
    Map<String, V> m = new LinkedHashMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      @SuppressWarnings("unchecked")
      V v = (V) nameValues[i + 1];
      m.put((String) nameValues[i], v);
    }
    return m;
  }

  private static AttributeValue s(String s) {
    return AttributeValue.s(s);
  }

  private static AttributeValue n(String n) {
    return AttributeValue.n(n);
  }

  private void putIf(
      Map<String, AttributeValue> item, Map<String, ExpectedAttributeValue> expected,
      String conditionalOperator) {
    db.putItem(new PutItemRequest(
        "Simple", item, null, null, null, null, null, null, null, expected,
        conditionalOperator));
  }

  private boolean putSucceeds(
      Map<String, ExpectedAttributeValue> expected, String conditionalOperator) {
    try {
      putIf(item("id", "x", "a", "1", "n", 5, "tags", AttributeValue.ss(List.of("red", "blue"))),
          expected, conditionalOperator);
      return true;
    } catch (io.stator.api.DynamoDbException e) {
      assertThat(e.type()).isEqualTo(ErrorType.ConditionalCheckFailedException);
      return false;
    }
  }

  // ---- Expected ----------------------------------------------------------------------------

  @Test
  void expectedValueAndExists() {
    // Exists=false on an absent item: put-if-absent
    putIf(item("id", "x", "a", "1"), map("id", exists(false)), null);
    expect(() -> putIf(item("id", "x", "a", "2"), map("id", exists(false)), null),
        ErrorType.ConditionalCheckFailedException, "The conditional request failed");
    // Value alone (Exists implied true) is equality
    putIf(item("id", "x", "a", "2"), map("a", value(s("1"))), null);
    expect(() -> putIf(item("id", "x", "a", "3"), map("a", value(s("1"))), null),
        ErrorType.ConditionalCheckFailedException, "The conditional request failed");
    // Value with Exists=true, a number compared by value
    putIf(item("id", "x", "a", "3", "n", AttributeValue.n("1.50")),
        map("a", new ExpectedAttributeValue(s("2"), true, null, null)), null);
    putIf(item("id", "x", "a", "4"), map("n", value(n("1.5"))), null);
    assertThat(db.getItem(Fixtures.get("Simple", item("id", "x"))).item())
        .isEqualTo(item("id", "x", "a", "4"));
  }

  @Test
  void expectedOnDeleteWithReturnValuesOnConditionCheckFailure() {
    put(db, "Simple", item("id", "d", "v", 1));
    DeleteItemRequest del = new DeleteItemRequest("Simple", item("id", "d"), null, null, null,
        "ALL_OLD", null, null, "ALL_OLD", map("v", op("GT", n("1"))), null);
    try {
      db.deleteItem(del);
      throw new AssertionError("expected a failed condition");
    } catch (io.stator.api.DynamoDbException e) {
      assertThat(e.type()).isEqualTo(ErrorType.ConditionalCheckFailedException);
      assertThat(e.item()).isEqualTo(item("id", "d", "v", 1));
    }
    DeleteItemRequest ok = new DeleteItemRequest("Simple", item("id", "d"), null, null, null,
        "ALL_OLD", null, null, null, map("v", op("LE", n("1"))), null);
    assertThat(db.deleteItem(ok).attributes()).isEqualTo(item("id", "d", "v", 1));
  }

  @Test
  void everyComparisonOperatorInExpected() {
    put(db, "Simple", item("id", "x", "a", "1", "n", 5,
        "tags", AttributeValue.ss(List.of("red", "blue")), "nul", AttributeValue.NULL));
    assertThat(putSucceeds(map("n", op("EQ", n("5"))), null)).isTrue();
    assertThat(putSucceeds(map("n", op("EQ", s("5"))), null)).isFalse(); // types differ
    assertThat(putSucceeds(map("n", op("NE", n("5"))), null)).isFalse();
    assertThat(putSucceeds(map("missing", op("NE", n("5"))), null)).isTrue();
    assertThat(putSucceeds(map("n", op("LT", n("6"))), null)).isTrue();
    assertThat(putSucceeds(map("n", op("LT", n("5"))), null)).isFalse();
    assertThat(putSucceeds(map("n", op("LE", n("5"))), null)).isTrue();
    assertThat(putSucceeds(map("n", op("GT", n("4.99"))), null)).isTrue();
    assertThat(putSucceeds(map("n", op("GE", n("5.01"))), null)).isFalse();
    assertThat(putSucceeds(map("a", op("GT", n("0"))), null)).isFalse(); // S vs N: no order
    assertThat(putSucceeds(map("n", op("NOT_NULL")), null)).isTrue();
    assertThat(putSucceeds(map("n", op("NULL")), null)).isFalse();
    assertThat(putSucceeds(map("zzz", op("NULL")), null)).isTrue();
    assertThat(putSucceeds(map("tags", op("CONTAINS", s("red"))), null)).isTrue();
    assertThat(putSucceeds(map("tags", op("CONTAINS", s("green"))), null)).isFalse();
    assertThat(putSucceeds(map("tags", op("NOT_CONTAINS", s("green"))), null)).isTrue();
    assertThat(putSucceeds(map("a", op("CONTAINS", s("1"))), null)).isTrue(); // substring
    assertThat(putSucceeds(map("a", op("BEGINS_WITH", s("1"))), null)).isTrue();
    assertThat(putSucceeds(map("a", op("BEGINS_WITH", s("2"))), null)).isFalse();
    assertThat(putSucceeds(map("n", op("IN", n("1"), n("5"))), null)).isTrue();
    assertThat(putSucceeds(map("n", op("IN", n("1"), n("2"))), null)).isFalse();
    assertThat(putSucceeds(map("n", op("BETWEEN", n("5"), n("6"))), null)).isTrue();
    assertThat(putSucceeds(map("n", op("BETWEEN", n("6"), n("7"))), null)).isFalse();
    // Value with a ComparisonOperator is the single operand
    assertThat(putSucceeds(
        map("n", new ExpectedAttributeValue(n("3"), null, "GT", null)), null)).isTrue();
  }

  @Test
  void conditionalOperatorAndOr() {
    put(db, "Simple", item("id", "x", "a", "1", "n", 5));
    Map<String, ExpectedAttributeValue> oneTrueOneFalse =
        map("a", value(s("1")), "n", op("GT", n("100")));
    assertThat(putSucceeds(oneTrueOneFalse, null)).isFalse(); // AND by default
    assertThat(putSucceeds(oneTrueOneFalse, "AND")).isFalse();
    assertThat(putSucceeds(oneTrueOneFalse, "OR")).isTrue();
    // the first condition false, the second true: OR must still hold
    assertThat(putSucceeds(map("a", value(s("nope")), "n", op("GT", n("1"))), "OR")).isTrue();
    assertThat(putSucceeds(map("a", value(s("nope")), "n", op("GT", n("100"))), "OR"))
        .isFalse();
  }

  @Test
  void expectedValidationMessages() {
    expect(() -> putIf(item("id", "x"),
            map("a", new ExpectedAttributeValue(s("1"), null, "EQ", List.of(s("1")))), null),
        ErrorType.ValidationException,
        INVALID + "Value and AttributeValueList cannot be used together for Attribute: a");
    expect(() -> putIf(item("id", "x"),
            map("a", new ExpectedAttributeValue(null, true, "NOT_NULL", null)), null),
        ErrorType.ValidationException,
        INVALID + "Exists and ComparisonOperator cannot be used together for Attribute: a");
    expect(() -> putIf(item("id", "x"),
            map("a", new ExpectedAttributeValue(null, null, "EQ", null)), null),
        ErrorType.ValidationException,
        INVALID + "Value or AttributeValueList must be used with ComparisonOperator: EQ for"
            + " Attribute: a");
    expect(() -> putIf(item("id", "x"), map("a", op("EQ", s("1"), s("2"))), null),
        ErrorType.ValidationException,
        INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator");
    expect(() -> putIf(item("id", "x"), map("a", op("NULL", s("1"))), null),
        ErrorType.ValidationException,
        INVALID + "Invalid number of argument(s) for the NULL ComparisonOperator");
    expect(() -> putIf(item("id", "x"), map("a", op("BETWEEN", s("1"))), null),
        ErrorType.ValidationException,
        INVALID + "Invalid number of argument(s) for the BETWEEN ComparisonOperator");
    expect(() -> putIf(item("id", "x"), map("a", op("IN")), null),
        ErrorType.ValidationException,
        INVALID + "Invalid number of argument(s) for the IN ComparisonOperator");
    expect(() -> putIf(item("id", "x"), map("a", op("IN", s("1"), n("1"))), null),
        ErrorType.ValidationException,
        INVALID + "AttributeValues inside AttributeValueList must be of same type");
    expect(() -> putIf(item("id", "x"), map("a", op("BEGINS_WITH", n("1"))), null),
        ErrorType.ValidationException,
        INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
    expect(() -> putIf(item("id", "x"),
            map("a", op("LT", AttributeValue.ss(List.of("x")))), null),
        ErrorType.ValidationException,
        INVALID + "ComparisonOperator LT is not valid for SS AttributeValue type");
    expect(() -> putIf(item("id", "x"), map("a", op("BETWEEN", n("2"), n("1"))), null),
        ErrorType.ValidationException,
        "The BETWEEN condition was provided a range where the lower bound is greater than the"
            + " upper bound");
    expect(() -> putIf(item("id", "x"),
            map("a", new ExpectedAttributeValue(null, null, null, List.of(s("1")))), null),
        ErrorType.ValidationException,
        INVALID + "AttributeValueList can only be used with a ComparisonOperator for Attribute: a");
    expect(() -> putIf(item("id", "x"), map("a", exists(true)), null),
        ErrorType.ValidationException,
        INVALID + "Value must be provided when Exists is true for Attribute: a");
    expect(() -> putIf(item("id", "x"),
            map("a", new ExpectedAttributeValue(null, null, null, null)), null),
        ErrorType.ValidationException,
        INVALID + "Value must be provided when Exists is null for Attribute: a");
    expect(() -> putIf(item("id", "x"),
            map("a", new ExpectedAttributeValue(s("1"), false, null, null)), null),
        ErrorType.ValidationException,
        INVALID + "Value cannot be used when Exists is false for Attribute: a");
    expect(() -> putIf(item("id", "x"), map("a", op("LIKE", s("1"))), null),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'LIKE' at 'expected.a.member.comparisonOperator'"
            + " failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL,"
            + " BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
    expect(() -> putIf(item("id", "x"), map("a", exists(false)), "XOR"),
        ErrorType.ValidationException,
        "1 validation error detected: Value 'XOR' at 'conditionalOperator' failed to satisfy"
            + " constraint: Member must satisfy enum value set: [OR, AND]");
    // nothing was written by any of the refused requests
    assertThat(db.getItem(Fixtures.get("Simple", item("id", "x"))).item()).isNull();
  }

  @Test
  void mixingExpectedWithConditionExpressionIsRefused() {
    expect(() -> db.putItem(new PutItemRequest("Simple", item("id", "x"),
            "attribute_not_exists(id)", null, null, null, null, null, null,
            map("id", exists(false)), null)),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {Expected} Expression parameters:"
            + " {ConditionExpression}");
    expect(() -> db.deleteItem(new DeleteItemRequest("Simple", item("id", "x"),
            "attribute_exists(id)", null, null, null, null, null, null,
            map("id", exists(false)), "OR")),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {Expected, ConditionalOperator} Expression"
            + " parameters: {ConditionExpression}");
  }

  // ---- QueryFilter, ScanFilter, KeyConditions ----------------------------------------------

  private void threads() {
    put(db, "Thread", item("forum", "S3", "subject", "a", "views", 10, "tags",
        AttributeValue.ss(List.of("aws", "s3"))));
    put(db, "Thread", item("forum", "S3", "subject", "b", "views", 3));
    put(db, "Thread", item("forum", "S3", "subject", "c", "views", 25, "answered", "yes"));
    put(db, "Thread", item("forum", "EC2", "subject", "d", "views", 40));
  }

  private static QueryRequest legacyQuery(
      Map<String, io.stator.api.Condition> keyConditions,
      Map<String, io.stator.api.Condition> queryFilter, String conditionalOperator,
      List<String> attributesToGet, Integer limit) {
    return new QueryRequest("Thread", null, null, limit, null, null, null, null, null, null,
        null, null, null, attributesToGet, keyConditions, queryFilter, conditionalOperator);
  }

  private static ScanRequest legacyScan(
      Map<String, io.stator.api.Condition> scanFilter, String conditionalOperator,
      List<String> attributesToGet) {
    return new ScanRequest("Thread", null, null, null, null, null, null, null, null, null, null,
        null, null, attributesToGet, scanFilter, conditionalOperator);
  }

  private static List<String> subjects(List<Map<String, AttributeValue>> items) {
    return items.stream()
        .map(i -> ((AttributeValue.S) i.get("subject")).value())
        .collect(Collectors.toList());
  }

  @Test
  void queryWithKeyConditionsAndQueryFilter() {
    threads();
    var response = db.query(legacyQuery(
        map("forum", cond("EQ", s("S3")), "subject", cond("GE", s("b"))),
        map("views", cond("GT", n("5"))), null, null, null));
    assertThat(subjects(response.items())).containsExactly("c");
    assertThat(response.count()).isEqualTo(1);
    assertThat(response.scannedCount()).isEqualTo(2);

    var or = db.query(legacyQuery(map("forum", cond("EQ", s("S3"))),
        map("views", cond("LT", n("5")), "answered", cond("NOT_NULL")), "OR", null, null));
    assertThat(subjects(or.items())).containsExactly("b", "c");

    // the filter applies after Limit: Count <= ScannedCount
    var limited = db.query(legacyQuery(map("forum", cond("EQ", s("S3"))),
        map("views", cond("GT", n("20"))), null, null, 2));
    assertThat(limited.count()).isZero();
    assertThat(limited.scannedCount()).isEqualTo(2);
    assertThat(limited.lastEvaluatedKey()).isEqualTo(item("forum", "S3", "subject", "b"));
  }

  @Test
  void queryFilterMayNotNameAKeyAttribute() {
    expect(() -> db.query(legacyQuery(map("forum", cond("EQ", s("S3"))),
            map("subject", cond("EQ", s("a"))), null, null, null)),
        ErrorType.ValidationException,
        "QueryFilter can only contain non-primary key attributes: Primary key attribute:"
            + " subject");
  }

  @Test
  void keyConditionsValidation() {
    expect(() -> db.query(legacyQuery(map("forum", cond("EQ", s("S3"), s("x"))), null, null,
            null, null)),
        ErrorType.ValidationException,
        INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator");
    expect(() -> db.query(legacyQuery(map("forum", cond("EQ", s("S3")),
            "subject", cond("BETWEEN", s("z"), s("a"))), null, null, null, null)),
        ErrorType.ValidationException,
        "The BETWEEN condition was provided a range where the lower bound is greater than the"
            + " upper bound");
    expect(() -> db.query(legacyQuery(map("forum", cond("EQ", s("S3")),
            "subject", cond("EQ", s("a")), "views", cond("EQ", n("1"))), null, null, null,
            null)),
        ErrorType.ValidationException, "Conditions can be of length 1 or 2 only");
    expect(() -> db.query(legacyQuery(map("forum", cond("NE", s("S3"))), null, null, null,
            null)),
        ErrorType.ValidationException,
        "Attempted conditional constraint is not an indexable operation");
    expect(() -> db.query(legacyQuery(map("forum", new io.stator.api.Condition(
            List.of(s("S3")), null)), null, null, null, null)),
        ErrorType.ValidationException,
        "1 validation error detected: Value null at 'keyConditions.forum.member"
            + ".comparisonOperator' failed to satisfy constraint: Member must not be null");
    expect(() -> db.query(new QueryRequest("Thread", null, null, null, null, null, null,
            "forum = :f", null, null, null, Fixtures.values(":f", "S3"), null, null, null,
            map("views", cond("GT", n("1"))), null)),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {QueryFilter} Expression parameters:"
            + " {KeyConditionExpression}");
  }

  @Test
  void scanFilterWithEveryKindOfOperator() {
    threads();
    assertThat(subjects(db.scan(legacyScan(map("views", cond("BETWEEN", n("3"), n("10"))),
        null, null)).items())).containsExactlyInAnyOrder("a", "b");
    assertThat(subjects(db.scan(legacyScan(map("tags", cond("CONTAINS", s("s3"))), null, null))
        .items())).containsExactly("a");
    assertThat(subjects(db.scan(legacyScan(map("tags", cond("NOT_CONTAINS", s("s3"))), null,
        null)).items())).containsExactlyInAnyOrder("b", "c", "d");
    assertThat(subjects(db.scan(legacyScan(map("answered", cond("NULL")), null, null)).items()))
        .containsExactlyInAnyOrder("a", "b", "d");
    assertThat(subjects(db.scan(legacyScan(map("forum", cond("IN", s("EC2"), s("RDS"))), null,
        null)).items())).containsExactly("d");
    assertThat(subjects(db.scan(legacyScan(
        map("forum", cond("EQ", s("EC2")), "views", cond("LT", n("5"))), "OR", null)).items()))
        .containsExactlyInAnyOrder("b", "d");
    assertThat(subjects(db.scan(legacyScan(
        map("forum", cond("EQ", s("EC2")), "views", cond("LT", n("5"))), "AND", null)).items()))
        .isEmpty();
    assertThat(subjects(db.scan(legacyScan(map("subject", cond("BEGINS_WITH", s("c"))), null,
        null)).items())).containsExactly("c");
  }

  @Test
  void scanFilterValidation() {
    expect(() -> db.scan(legacyScan(map("views", cond("GT", AttributeValue.bool(true))), null,
            null)),
        ErrorType.ValidationException,
        INVALID + "ComparisonOperator GT is not valid for BOOL AttributeValue type");
    expect(() -> db.scan(legacyScan(map("views", cond("NOT_NULL", n("1"))), null, null)),
        ErrorType.ValidationException,
        INVALID + "Invalid number of argument(s) for the NOT_NULL ComparisonOperator");
    expect(() -> db.scan(new ScanRequest("Thread", null, null, null, null, null, null, null,
            "views > :v", null, null, Fixtures.values(":v", 1), null, null,
            map("views", cond("GT", n("1"))), null)),
        ErrorType.ValidationException,
        "Can not use both expression and non-expression parameters in the same request:"
            + " Non-expression parameters: {ScanFilter} Expression parameters:"
            + " {FilterExpression}");
  }

  // ---- AttributesToGet ---------------------------------------------------------------------

  @Test
  void attributesToGetOnGetQueryAndScan() {
    threads();
    assertThat(db.getItem(new GetItemRequest("Thread", item("forum", "S3", "subject", "c"),
        null, null, null, List.of("views", "answered", "nothing"), null)).item())
        .isEqualTo(item("views", 25, "answered", "yes"));
    assertThat(db.query(legacyQuery(map("forum", cond("EQ", s("EC2"))), null, null,
        List.of("subject"), null)).items())
        .containsExactly(item("subject", "d"));
    assertThat(db.scan(legacyScan(map("views", cond("GE", n("40"))), null,
        List.of("forum", "views"))).items())
        .containsExactly(item("forum", "EC2", "views", 40));
    expect(() -> db.scan(legacyScan(null, null, List.of("a", "a"))),
        ErrorType.ValidationException,
        INVALID + "Duplicate value in attribute name: a");
  }
}
