package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * PutItem, GetItem and DeleteItem: the ten attribute types, number normalisation and limits, set
 * rules, key rules, the 400 KB item limit, ReturnValues and projections.
 *
 * <p>Where the peer implementation used to check these expectations differs, DynamoDB's
 * documented behaviour is kept:
 *
 * <ul>
 *   <li>It measures strings in UTF-16 code units, so it accepts a 1025-character partition key
 *       of two-byte characters and a 410,000-byte string of 205,000 "é". DynamoDB documents key
 *       limits and item size in UTF-8 bytes ("the UTF-8 binary length"), so both are rejected
 *       here.
 *   <li>Its projection syntax errors are worded by its parser generator; DynamoDB's read
 *       {@code Syntax error; token: "<token>", near: "<text>"}, which is what is asserted.
 * </ul>
 */
class ItemsTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;
  private static final ScalarAttributeType N = ScalarAttributeType.N;
  private static final ScalarAttributeType B = ScalarAttributeType.B;

  // ---- the data model -----------------------------------------------------------------------

  /**
   * Long strings of a stored item are written out as the UTF-8 they are stored in, without a
   * String in between: they come back exactly, escapes and all, through every read, and an
   * UpdateItem that leaves them alone stores them unchanged.
   */
  @Test
  void longStringsComeBackExactlyThroughEveryRead() {
    String table = createTable("long-strings", "pk", S, "sk", N);
    String text = "quote \" backslash \\ slash / newline \n tab \t bell \u0007 del \u007f "
        + "é 中文 emoji \uD83D\uDE00 separators \u2028 \u2029 and some padding to be long";
    String key = "a partition key long enough to be kept as bytes: \"é\"";
    Map<String, AttributeValue> stored = item("pk", s(key), "sk", n("1"), "text", s(text),
        "nested", AttributeValue.fromM(item("inner", s(text))),
        "list", AttributeValue.fromL(List.of(s(text), n("2"))));
    dynamo.putItem(r -> r.tableName(table).item(stored));
    Map<String, AttributeValue> key1 = item("pk", s(key), "sk", n("1"));

    assertThat(get(table, key1)).isEqualTo(stored);
    assertThat(dynamo.query(r -> r.tableName(table).keyConditionExpression("pk = :pk")
        .expressionAttributeValues(item(":pk", s(key)))).items()).containsExactly(stored);
    assertThat(dynamo.scan(r -> r.tableName(table)).items()).containsExactly(stored);
    assertThat(dynamo.batchGetItem(r -> r.requestItems(Map.of(table,
        software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder()
            .keys(key1).build()))).responses().get(table)).containsExactly(stored);

    // A condition compares the stored string with the request's, which differs only at its end.
    assertThatThrownBy(() -> dynamo.updateItem(r -> r.tableName(table).key(key1)
        .updateExpression("SET n = :one").conditionExpression("#t = :other")
        .expressionAttributeNames(Map.of("#t", "text"))
        .expressionAttributeValues(item(":one", n("1"), ":other", s(text + "!")))))
        .isInstanceOf(ConditionalCheckFailedException.class);
    Map<String, AttributeValue> updated = dynamo.updateItem(r -> r.tableName(table).key(key1)
        .updateExpression("SET n = :one").conditionExpression("#t = :same")
        .expressionAttributeNames(Map.of("#t", "text"))
        .expressionAttributeValues(item(":one", n("1"), ":same", s(text)))
        .returnValues(ReturnValue.ALL_NEW)).attributes();
    Map<String, AttributeValue> expected = new java.util.HashMap<>(stored);
    expected.put("n", n("1"));
    assertThat(updated).isEqualTo(expected);
    assertThat(get(table, key1)).isEqualTo(expected);

    PutItemResponse replaced = dynamo.putItem(r -> r.tableName(table)
        .item(item("pk", s(key), "sk", n("1"))).returnValues(ReturnValue.ALL_OLD));
    assertThat(replaced.attributes()).isEqualTo(expected);
  }

  /** A non-key attribute name may be 65,535 bytes long, as DynamoDB allows. */
  @Test
  void anAttributeNameOf65535BytesIsKept() {
    String table = createTable("long-names", "pk", S);
    String name = "n".repeat(65_535);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), name, s("v"))));
    Map<String, AttributeValue> got =
        dynamo.getItem(r -> r.tableName(table).key(item("pk", s("a")))).item();
    assertThat(got).containsEntry(name, s("v"));
  }

  @Test
  void allTenTypesRoundTripIncludingNestingAndEmptyValuesOutsideKeys() {
    String table = createTable("types", "pk", S, "sk", N);
    Map<String, AttributeValue> item = item(
        "pk", s("TENANT#t_01"),
        "sk", n("1"),
        "s", s("Alice"),
        "emptyString", s(""),
        "n", n("-12.5"),
        "b", b(0x00, 0x7f, 0x80, 0xff),
        "emptyBinary", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])),
        "boolTrue", AttributeValue.fromBool(true),
        "boolFalse", AttributeValue.fromBool(false),
        "null", AttributeValue.fromNul(true),
        "ss", AttributeValue.fromSs(List.of("red", "green", "")),
        "ns", AttributeValue.fromNs(List.of("1", "-2.5", "1E+10")),
        "bs", AttributeValue.fromBs(List.of(
            SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromByteArray(new byte[] {2, 3}))),
        "emptyMap", m(Map.of()),
        "emptyList", l(),
        "m", m(item(
            "name", s("Acme Corp"),
            "empty", s(""),
            "address", m(item("city", s("Paris"), "zip", n("75001"))),
            "tags", l(s("a"), n("2"), AttributeValue.fromBool(true), AttributeValue.fromNul(true)))),
        "l", l(s("x"), l(n("1"), l(s("deep"))), m(item("k", b("v"))), s(""),
            AttributeValue.fromSs(List.of("only"))));
    dynamo.putItem(r -> r.tableName(table).item(item));

    Map<String, AttributeValue> read = get(table, item("pk", s("TENANT#t_01"), "sk", n("1")));
    assertThat(read.keySet()).containsExactlyInAnyOrderElementsOf(item.keySet());
    for (String name : List.of("pk", "sk", "s", "emptyString", "n", "b", "emptyBinary",
        "boolTrue", "boolFalse", "null", "emptyMap", "emptyList", "m", "l")) {
      assertThat(read.get(name)).as(name).isEqualTo(item.get(name));
    }
    // Sets have no order.
    assertThat(read.get("ss").ss()).containsExactlyInAnyOrder("red", "green", "");
    assertThat(read.get("ns").ns()).containsExactlyInAnyOrder("1", "-2.5", "10000000000");
    assertThat(read.get("bs").bs()).containsExactlyInAnyOrder(
        SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromByteArray(new byte[] {2, 3}));
  }

  @Test
  void numbersAreStoredNormalised() {
    String table = createTable("numbers", "id", S);
    Map<String, String> expected = Map.of(
        "1.50", "1.5",
        "1E+3", "1000",
        "-0", "0",
        "0.000", "0",
        "007", "7",
        "-1.0e-2", "-0.01",
        "12345678901234567890123456789012345678", "12345678901234567890123456789012345678",
        "9.9999999999999999999999999999999999999E+125",
        "999999999999999999999999999999999999990000000000000000000000000000000000000000000000"
            + "000000000000000000000000000000000000000000",
        "1E-130", "0." + "0".repeat(129) + "1");
    for (Map.Entry<String, String> number : expected.entrySet()) {
      dynamo.putItem(r -> r.tableName(table).item(item(
          "id", s(number.getKey()),
          "value", n(number.getKey()),
          "set", AttributeValue.fromNs(List.of(number.getKey())),
          "nested", l(n(number.getKey())))));
      Map<String, AttributeValue> read = get(table, item("id", s(number.getKey())));
      assertThat(read.get("value").n()).as(number.getKey()).isEqualTo(number.getValue());
      assertThat(read.get("set").ns()).as(number.getKey()).containsExactly(number.getValue());
      assertThat(read.get("nested").l().get(0).n()).as(number.getKey())
          .isEqualTo(number.getValue());
    }
  }

  @Test
  void numericKeysAreEqualWhateverTheirSpelling() {
    String table = createTable("number-keys", "id", N);
    dynamo.putItem(r -> r.tableName(table).item(item("id", n("1.50"), "v", s("first"))));
    assertThat(get(table, item("id", n("1.5"))))
        .isEqualTo(item("id", n("1.5"), "v", s("first")));
    // 15E-1 is the same number, so this put replaces the item.
    dynamo.putItem(r -> r.tableName(table).item(item("id", n("15E-1"), "v", s("second"))));
    assertThat(get(table, item("id", n("1.500"))).get("v")).isEqualTo(s("second"));
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isEqualTo(1);
  }

  @Test
  void numbersOutOfRangeOrPrecisionAreRejected() {
    String table = createTable("number-errors", "id", S);
    assertValidation("Attempting to store more than 38 significant digits in a Number",
        () -> putValue(table, n("1234567890123456789012345678901234567891")));
    assertValidation("Attempting to store more than 38 significant digits in a Number",
        () -> putValue(table, n("1.234567890123456789012345678901234567891")));
    assertValidation("Number overflow. Attempting to store a number with magnitude larger than "
        + "supported range", () -> putValue(table, n("1E+126")));
    assertValidation("Number overflow. Attempting to store a number with magnitude larger than "
        + "supported range", () -> putValue(table, n("-1E+126")));
    assertValidation("Number underflow. Attempting to store a number with magnitude smaller than "
        + "supported range", () -> putValue(table, n("1E-131")));
    assertValidationContaining("The parameter cannot be converted to a numeric value",
        () -> putValue(table, n("twelve")));
    assertValidationContaining("The parameter cannot be converted to a numeric value",
        () -> putValue(table, n("")));
    assertValidationContaining("The parameter cannot be converted to a numeric value",
        () -> putValue(table, AttributeValue.fromNs(List.of("1", "x"))));
    assertValidation("Number overflow. Attempting to store a number with magnitude larger than "
        + "supported range", () -> putValue(table, m(item("deep", n("1E+126")))));
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isZero();
  }

  @Test
  void setsMustBeNonEmptyAndWithoutDuplicates() {
    String table = createTable("sets", "id", S);
    assertValidation("One or more parameter values were invalid: An string set  may not be empty",
        () -> putValue(table, AttributeValue.fromSs(List.of())));
    assertValidation("One or more parameter values were invalid: An number set  may not be empty",
        () -> putValue(table, AttributeValue.fromNs(List.of())));
    assertValidation("One or more parameter values were invalid: Binary sets should not be empty",
        () -> putValue(table, AttributeValue.fromBs(List.of())));
    assertValidation(
        "One or more parameter values were invalid: Input collection [a, b, a] contains duplicates.",
        () -> putValue(table, AttributeValue.fromSs(List.of("a", "b", "a"))));
    assertValidationContaining("contains duplicates",
        () -> putValue(table, AttributeValue.fromNs(List.of("1", "2", "1"))));
    assertValidationContaining("contains duplicates",
        () -> putValue(table, AttributeValue.fromBs(List.of(
            SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromByteArray(new byte[] {1})))));
    assertValidation("One or more parameter values were invalid: An string set  may not be empty",
        () -> putValue(table, m(item("inner", AttributeValue.fromSs(List.of())))));
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isZero();
  }

  @Test
  void nullMustBeTrue() {
    String table = createTable("null", "id", S);
    assertValidation("One or more parameter values were invalid: Null attribute value types must "
        + "have the value of true", () -> putValue(table, AttributeValue.fromNul(false)));
  }

  // ---- keys ---------------------------------------------------------------------------------

  @Test
  void keyOfTheWrongTypeIsRejectedNamingTheKey() {
    String table = createTable("key-type", "pk", S, "sk", N);
    assertValidation("One or more parameter values were invalid: Type mismatch for key pk "
        + "expected: S actual: N",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("pk", n("1"), "sk", n("1")))));
    assertValidation("One or more parameter values were invalid: Type mismatch for key sk "
        + "expected: N actual: S",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), "sk", s("1")))));
    assertValidation("One or more parameter values were invalid: Type mismatch for key pk "
        + "expected: S actual: BOOL",
        () -> dynamo.putItem(r -> r.tableName(table).item(
            item("pk", AttributeValue.fromBool(true), "sk", n("1")))));
    assertValidation("One or more parameter values were invalid: Type mismatch for key pk "
        + "expected: S actual: SS",
        () -> dynamo.putItem(r -> r.tableName(table).item(
            item("pk", AttributeValue.fromSs(List.of("a")), "sk", n("1")))));
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isZero();
  }

  @Test
  void everyItemNeedsItsKey() {
    String table = createTable("key-missing", "pk", S, "sk", N);
    assertValidation("One or more parameter values were invalid: Missing the key pk in the item",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("sk", n("1"), "x", s("y")))));
    assertValidation("One or more parameter values were invalid: Missing the key sk in the item",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("pk", s("a"), "x", s("y")))));
  }

  @Test
  void keysAreNeverEmpty() {
    String strings = createTable("key-empty-s", "pk", S, "sk", S);
    assertValidation("One or more parameter values are not valid. The AttributeValue for a key "
        + "attribute cannot contain an empty string value. Key: pk",
        () -> dynamo.putItem(r -> r.tableName(strings).item(item("pk", s(""), "sk", s("a")))));
    assertValidation("One or more parameter values are not valid. The AttributeValue for a key "
        + "attribute cannot contain an empty string value. Key: sk",
        () -> dynamo.putItem(r -> r.tableName(strings).item(item("pk", s("a"), "sk", s("")))));
    assertValidationContaining("The AttributeValue for a key attribute cannot contain an empty "
        + "string value. Key: pk",
        () -> dynamo.getItem(r -> r.tableName(strings).key(item("pk", s(""), "sk", s("a")))));

    String binaries = createTable("key-empty-b", "pk", B);
    assertValidation("One or more parameter values are not valid. The AttributeValue for a key "
        + "attribute cannot contain an empty binary value. Key: pk",
        () -> dynamo.putItem(r -> r.tableName(binaries).item(item("pk", b()))));
  }

  @Test
  void partitionKeyIsAtMost2048BytesOfUtf8() {
    String table = createTable("key-long-hash", "pk", S);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("x".repeat(2048)))));
    assertThat(get(table, item("pk", s("x".repeat(2048))))).containsKey("pk");
    String message = "One or more parameter values were invalid: Size of hashkey has exceeded "
        + "the maximum size limit of2048 bytes";
    assertValidation(message,
        () -> dynamo.putItem(r -> r.tableName(table).item(item("pk", s("x".repeat(2049))))));
    // 1025 characters of two bytes each: the limit is in bytes, not characters.
    assertValidation(message,
        () -> dynamo.putItem(r -> r.tableName(table).item(item("pk", s("é".repeat(1025))))));
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isEqualTo(1);
  }

  @Test
  void sortKeyIsAtMost1024Bytes() {
    String table = createTable("key-long-range", "pk", S, "sk", B);
    byte[] longest = new byte[1024];
    dynamo.putItem(r -> r.tableName(table).item(
        item("pk", s("a"), "sk", AttributeValue.fromB(SdkBytes.fromByteArray(longest)))));
    assertValidation("One or more parameter values were invalid: Aggregated size of all range "
        + "keys has exceeded the size limit of 1024 bytes",
        () -> dynamo.putItem(r -> r.tableName(table).item(item(
            "pk", s("a"), "sk", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[1025]))))));
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isEqualTo(1);
  }

  @Test
  void getAndDeleteNeedTheFullKeyOfTheRightType() {
    String table = createTable("full-key", "pk", S, "sk", N);
    String message = "The provided key element does not match the schema";
    assertValidation(message, () -> dynamo.getItem(r -> r.tableName(table).key(item("pk", s("a")))));
    assertValidation(message, () -> dynamo.getItem(r -> r.tableName(table).key(
        item("pk", s("a"), "sk", n("1"), "extra", s("x")))));
    assertValidation(message, () -> dynamo.getItem(r -> r.tableName(table).key(
        item("pk", s("a"), "sk", s("1")))));
    assertValidation(message, () -> dynamo.deleteItem(r -> r.tableName(table).key(
        item("sk", n("1")))));
    assertValidation(message, () -> dynamo.deleteItem(r -> r.tableName(table).key(
        item("pk", n("1"), "sk", n("1")))));
  }

  @Test
  void itemsOfAMissingTableAreResourceNotFound() {
    String table = uniqueTableName("no-such-table");
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("id", s("a")))));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found",
        () -> dynamo.deleteItem(r -> r.tableName(table).key(item("id", s("a")))));
  }

  // ---- item size ----------------------------------------------------------------------------

  @Test
  void itemsOver400KbAreRejectedAndNothingIsWritten() {
    String table = createTable("item-size", "pk", S);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("k"), "data", s("small"))));

    // Size = attribute names + values in UTF-8: "pk" + "k" + "data" + the string.
    int overhead = "pk".length() + "k".length() + "data".length();
    String exactly = "x".repeat(400 * 1024 - overhead);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("k"), "data", s(exactly))));
    assertThat(get(table, item("pk", s("k"))).get("data").s()).hasSize(exactly.length());

    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("k"), "data", s("small"))));
    assertValidation("Item size has exceeded the maximum allowed size",
        () -> dynamo.putItem(r -> r.tableName(table).item(
            item("pk", s("k"), "data", s(exactly + "x")))));
    assertValidation("Item size has exceeded the maximum allowed size",
        () -> dynamo.putItem(r -> r.tableName(table).item(
            item("pk", s("new"), "data", s("é".repeat(205_000))))));
    assertThat(get(table, item("pk", s("k")))).isEqualTo(item("pk", s("k"), "data", s("small")));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("new")))).hasItem())
        .isFalse();
  }

  // ---- writes and ReturnValues --------------------------------------------------------------

  @Test
  void putReplacesTheWholeItem() {
    String table = createTable("replace", "customerId", S, "orderDate", S);
    Map<String, AttributeValue> key = item("customerId", s("C#123"), "orderDate", s("2026-03-14"));
    Map<String, AttributeValue> first = new java.util.LinkedHashMap<>(key);
    first.putAll(item("total", n("49.99"), "status", s("shipped")));
    dynamo.putItem(r -> r.tableName(table).item(first));
    Map<String, AttributeValue> second = new java.util.LinkedHashMap<>(key);
    second.putAll(item("giftNote", s("Happy Birthday")));
    dynamo.putItem(r -> r.tableName(table).item(second));

    assertThat(get(table, key)).isEqualTo(second);
    // Another sort key under the same partition key is another item.
    dynamo.putItem(r -> r.tableName(table).item(
        item("customerId", s("C#123"), "orderDate", s("2026-03-15"))));
    assertThat(get(table, key)).isEqualTo(second);
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isEqualTo(2);
  }

  @Test
  void returnValuesAllOldOnPutAndDelete() {
    String table = createTable("return-values", "id", S);
    PutItemResponse created = dynamo.putItem(r -> r.tableName(table)
        .item(item("id", s("a"), "v", n("1"))).returnValues(ReturnValue.ALL_OLD));
    assertThat(created.hasAttributes()).isFalse();

    PutItemResponse replaced = dynamo.putItem(r -> r.tableName(table)
        .item(item("id", s("a"), "v", n("2"))).returnValues(ReturnValue.ALL_OLD));
    assertThat(replaced.attributes()).isEqualTo(item("id", s("a"), "v", n("1")));

    PutItemResponse quiet = dynamo.putItem(r -> r.tableName(table)
        .item(item("id", s("a"), "v", n("3"))).returnValues(ReturnValue.NONE));
    assertThat(quiet.hasAttributes()).isFalse();

    DeleteItemResponse deleted = dynamo.deleteItem(r -> r.tableName(table)
        .key(item("id", s("a"))).returnValues(ReturnValue.ALL_OLD));
    assertThat(deleted.attributes()).isEqualTo(item("id", s("a"), "v", n("3")));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))).hasItem())
        .isFalse();

    DeleteItemResponse nothing = dynamo.deleteItem(r -> r.tableName(table)
        .key(item("id", s("a"))).returnValues(ReturnValue.ALL_OLD));
    assertThat(nothing.hasAttributes()).isFalse();
  }

  @Test
  void putReturnValuesAreOnlyAllOldOrNone() {
    String table = createTable("return-new", "id", S);
    // Both wordings have been DynamoDB's at some time; the peers record one each.
    assertThat(assertValidationContaining("",
        () -> dynamo.putItem(r -> r.tableName(table)
            .item(item("id", s("a"))).returnValues(ReturnValue.ALL_NEW)))
        .awsErrorDetails().errorMessage())
        .isIn("Return values set to invalid value", "ReturnValues can only be ALL_OLD or NONE");
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isZero();
  }

  // ---- reads --------------------------------------------------------------------------------

  @Test
  void getItemOfAMissingItemHasNoItem() {
    String table = createTable("get-missing", "id", S);
    GetItemResponse response = dynamo.getItem(r -> r.tableName(table).key(item("id", s("none"))));
    assertThat(response.hasItem()).isFalse();
  }

  @Test
  void consistentReadSeesTheLatestWrite() {
    String table = createTable("consistent", "id", S);
    for (int version = 1; version <= 5; version++) {
      String v = Integer.toString(version);
      dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"), "v", n(v))));
      assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))
          .consistentRead(true)).item().get("v")).isEqualTo(n(v));
    }
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))
        .consistentRead(false)).item()).isEqualTo(item("id", s("a"), "v", n("5")));
  }

  @Test
  void projectionExpressionSelectsTopLevelAndNestedPaths() {
    String table = createTable("projection", "pk", S, "sk", S);
    Map<String, AttributeValue> key = item("pk", s("USER#123"), "sk", s("PROFILE"));
    Map<String, AttributeValue> full = new java.util.LinkedHashMap<>(key);
    full.putAll(item(
        "name", s("Alice"),
        "email", s("alice@acme.com"),
        "status", s("active"),
        "info", m(item(
            "address", m(item("city", s("Paris"), "zip", s("75001"))),
            "phone", s("+33"))),
        "tags", l(s("a"), s("b"), s("c"))));
    dynamo.putItem(r -> r.tableName(table).item(full));

    assertThat(dynamo.getItem(r -> r.tableName(table).key(key)
        .projectionExpression("email, sk")).item())
        .isEqualTo(item("email", s("alice@acme.com"), "sk", s("PROFILE")));

    assertThat(dynamo.getItem(r -> r.tableName(table).key(key)
        .projectionExpression("info.address.city, tags[1]")).item())
        .isEqualTo(item(
            "info", m(item("address", m(item("city", s("Paris"))))),
            "tags", l(s("b"))));

    // "name" and "status" are reserved words: ExpressionAttributeNames stand in for them.
    assertThat(dynamo.getItem(r -> r.tableName(table).key(key)
        .projectionExpression("#n, #i.#a.zip, #s")
        .expressionAttributeNames(Map.of("#n", "name", "#i", "info", "#a", "address", "#s",
            "status"))).item())
        .isEqualTo(item(
            "name", s("Alice"),
            "info", m(item("address", m(item("zip", s("75001"))))),
            "status", s("active")));

    // Paths that are not in the item select nothing.
    assertThat(dynamo.getItem(r -> r.tableName(table).key(key)
        .projectionExpression("nothing, info.nothing, tags[7]")).item()).isEmpty();
  }

  @Test
  void projectionExpressionErrors() {
    String table = createTable("projection-errors", "id", S);
    assertValidationContaining("Invalid ProjectionExpression: Attribute name is a reserved "
        + "keyword; reserved keyword: name",
        () -> dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))
            .projectionExpression("name")));
    assertValidation("Invalid ProjectionExpression: An expression attribute name used in the "
        + "document path is not defined; attribute name: #x",
        () -> dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))
            .projectionExpression("#x")));
    assertValidation("Value provided in ExpressionAttributeNames unused in expressions: "
        + "keys: {#unused}",
        () -> dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))
            .projectionExpression("id")
            .expressionAttributeNames(Map.of("#unused", "x"))));
    assertValidationContaining("Invalid ProjectionExpression: Syntax error; token:",
        () -> dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))
            .projectionExpression("a,,b")));
  }

  private Map<String, AttributeValue> get(String table, Map<String, AttributeValue> key) {
    GetItemResponse response = dynamo.getItem(r -> r.tableName(table).key(key));
    assertThat(response.hasItem()).as("item %s in %s", key, table).isTrue();
    return response.item();
  }

  private void putValue(String table, AttributeValue value) {
    dynamo.putItem(r -> r.tableName(table).item(item("id", s("item"), "value", value)));
  }

  /**
   * Nesting: the attribute is level 1, so a value of 31 nested maps (its leaf at level 32) is the
   * deepest DynamoDB takes; one more is refused in its words, on PutItem, BatchWriteItem,
   * TransactWriteItems and in ExpressionAttributeValues, and nothing is written.
   */
  @Test
  void valuesNestedBeyondThirtyTwoLevelsAreRefused() {
    String table = createTable("nesting", "pk", S);
    dynamo.putItem(r -> r.tableName(table).item(item("pk", s("ok"), "data", deep(31))));
    AttributeValue stored = dynamo.getItem(r -> r.tableName(table).key(item("pk", s("ok"))))
        .item().get("data");
    int depth = 0;
    while (stored.m() != null && stored.hasM()) {
      stored = stored.m().get("n");
      depth++;
    }
    assertThat(depth).isEqualTo(31);

    String tooDeep = "Nesting Levels have exceeded supported limits: Attributes in the item have"
        + " nested levels beyond supported limit";
    assertValidation(tooDeep, () -> dynamo.putItem(r -> r.tableName(table)
        .item(item("pk", s("deep"), "data", deep(32)))));
    assertValidation(tooDeep, () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table,
        List.of(software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
            .putRequest(p -> p.item(item("pk", s("deep"), "data", deep(32)))).build())))));
    assertValidation(tooDeep, () -> dynamo.transactWriteItems(r -> r.transactItems(
        t -> t.put(p -> p.tableName(table).item(item("pk", s("deep"), "data", deep(32)))))));
    // In ExpressionAttributeValues, inside DynamoDB's wording for an invalid value of a key
    assertValidation("ExpressionAttributeValues contains invalid value: " + tooDeep
            + " for key :deep", () -> dynamo.updateItem(r -> r.tableName(table)
        .key(item("pk", s("ok"))).updateExpression("SET touched = :t")
        .conditionExpression("data = :deep")
        .expressionAttributeValues(Map.of(":t", s("y"), ":deep", deep(32)))));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("deep")))).hasItem())
        .isFalse();
  }

  /**
   * The item size limit is exactly 409,600 bytes of the stored item (names and values) on every
   * write path. A Put over it is a ValidationException, in a transaction too (before it opens);
   * an update whose result is over it is worded for the update, and in a transaction cancels it.
   */
  @Test
  void theItemSizeLimitIsExactly409600Bytes() {
    String table = createTable("size-limit", "pk", S);
    // "pk" + "a" + "d" + the filler: 4 bytes and the filler's.
    Map<String, AttributeValue> largest = item("pk", s("a"), "d", s(repeat("x", 409_596)));
    Map<String, AttributeValue> over = item("pk", s("a"), "d", s(repeat("x", 409_597)));
    String put = "Item size has exceeded the maximum allowed size";
    dynamo.putItem(r -> r.tableName(table).item(largest));
    assertValidation(put, () -> dynamo.putItem(r -> r.tableName(table).item(over)));
    dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
        software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
            .putRequest(p -> p.item(largest)).build()))));
    assertValidation(put, () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, List.of(
        software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
            .putRequest(p -> p.item(over)).build())))));
    dynamo.transactWriteItems(r -> r.transactItems(
        t -> t.put(p -> p.tableName(table).item(largest))));
    assertValidation(put, () -> dynamo.transactWriteItems(r -> r.transactItems(
        t -> t.put(p -> p.tableName(table).item(over)))));

    String update = "Item size to update has exceeded the maximum allowed size";
    assertValidation(update, () -> dynamo.updateItem(r -> r.tableName(table)
        .key(item("pk", s("a"))).updateExpression("SET e = :e")
        .expressionAttributeValues(Map.of(":e", AttributeValue.fromBool(true)))));
    assertThat(cancelledUpdate(table, u -> u.key(item("pk", s("a")))
        .updateExpression("SET e = :e")
        .expressionAttributeValues(Map.of(":e", AttributeValue.fromBool(true)))))
        .isEqualTo(update);
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("a")))).item())
        .isEqualTo(largest);
  }

  /**
   * An update whose result nests deeper than 32 levels is refused in the words of a put of such
   * an item, though each value it carries is shallow enough: here a value of 31 maps SET one
   * level below the attribute, its leaf at level 33. In a transaction it cancels the action with
   * a ValidationError. Nothing is written; one level less is kept.
   */
  @Test
  void anUpdateNestingItsResultBeyondThirtyTwoLevelsIsRefused() {
    String table = createTable("update-nesting", "pk", S);
    Map<String, AttributeValue> before = item("pk", s("a"), "data", m(Map.of()));
    dynamo.putItem(r -> r.tableName(table).item(before));
    String tooDeep = "Nesting Levels have exceeded supported limits: Attributes in the item have"
        + " nested levels beyond supported limit";
    assertValidation(tooDeep, () -> dynamo.updateItem(r -> r.tableName(table)
        .key(item("pk", s("a"))).updateExpression("SET #d.n = :v")
        .expressionAttributeNames(Map.of("#d", "data"))
        .expressionAttributeValues(Map.of(":v", deep(31)))));
    assertThat(cancelledUpdate(table, u -> u.key(item("pk", s("a")))
        .updateExpression("SET #d.n = :v").expressionAttributeNames(Map.of("#d", "data"))
        .expressionAttributeValues(Map.of(":v", deep(31)))))
        .isEqualTo(tooDeep);
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("a")))).item())
        .isEqualTo(before);

    // One level less, its leaf at level 32, is kept, by UpdateItem and in a transaction.
    dynamo.updateItem(r -> r.tableName(table).key(item("pk", s("a")))
        .updateExpression("SET #d.n = :v").expressionAttributeNames(Map.of("#d", "data"))
        .expressionAttributeValues(Map.of(":v", deep(30))));
    dynamo.transactWriteItems(r -> r.transactItems(
        t -> t.update(u -> u.tableName(table).key(item("pk", s("a")))
            .updateExpression("SET #d.m = :v").expressionAttributeNames(Map.of("#d", "data"))
            .expressionAttributeValues(Map.of(":v", deep(30))))));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("pk", s("a")))).item())
        .isEqualTo(item("pk", s("a"), "data", m(Map.of("n", deep(30), "m", deep(30)))));
  }

  /**
   * The message of the ValidationError reason a TransactWriteItems of the one Update on
   * {@code table} is cancelled with.
   */
  private String cancelledUpdate(String table, Consumer<Update.Builder> update) {
    TransactionCanceledException e = assertErrorContaining(TransactionCanceledException.class,
        "TransactionCanceledException", "[ValidationError]",
        () -> dynamo.transactWriteItems(r -> r.transactItems(
            t -> t.update(u -> update.accept(u.tableName(table))))));
    assertThat(e.cancellationReasons()).hasSize(1);
    assertThat(e.cancellationReasons().get(0).code()).isEqualTo("ValidationError");
    return e.cancellationReasons().get(0).message();
  }

  /** A string leaf wrapped in {@code maps} single-entry maps. */
  private static AttributeValue deep(int maps) {
    AttributeValue value = s("leaf");
    for (int i = 0; i < maps; i++) {
      value = m(Map.of("n", value));
    }
    return value;
  }

}
