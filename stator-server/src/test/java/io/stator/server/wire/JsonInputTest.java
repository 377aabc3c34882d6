package io.stator.server.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.PutItemRequest;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonInputTest {
  private static final JsonFactory JSON = new JsonFactory();

  // ---- round trips --------------------------------------------------------------------------

  static Stream<AttributeValue> everyType() {
    Map<String, AttributeValue> nested = new LinkedHashMap<>();
    nested.put("s", AttributeValue.s("x"));
    nested.put("l", AttributeValue.l(List.of(AttributeValue.n("1"), AttributeValue.NULL)));
    return Stream.of(
        AttributeValue.s("héllo \"world\" \u2603"),
        AttributeValue.s(""),
        AttributeValue.n("-12.5"),
        AttributeValue.n("1E+125"),
        AttributeValue.b(new byte[] {0, 1, (byte) 0xff, 42}),
        AttributeValue.b(new byte[0]),
        AttributeValue.bool(true),
        AttributeValue.bool(false),
        AttributeValue.NULL,
        AttributeValue.m(nested),
        AttributeValue.m(Map.of()),
        AttributeValue.l(List.of(AttributeValue.s("a"), AttributeValue.m(nested))),
        AttributeValue.l(List.of()),
        AttributeValue.ss(List.of("b", "a", "")),
        AttributeValue.ns(List.of("3", "-1.5", "100")),
        AttributeValue.bs(List.of(Bytes.of(new byte[] {1}), Bytes.of(new byte[] {2, 3}))));
  }

  @ParameterizedTest
  @MethodSource("everyType")
  void everyAttributeValueTypeRoundTrips(AttributeValue value) {
    String json = write(value);
    assertThat(readValue(json)).isEqualTo(value);
  }

  @Test
  void writesDynamoDbsShapes() {
    assertThat(write(AttributeValue.n("1.50"))).isEqualTo("{\"N\":\"1.5\"}");
    assertThat(write(AttributeValue.b(new byte[] {1, 2, 3}))).isEqualTo("{\"B\":\"AQID\"}");
    assertThat(write(AttributeValue.NULL)).isEqualTo("{\"NULL\":true}");
    assertThat(write(AttributeValue.ns(List.of("2", "1"))))
        .isEqualTo("{\"NS\":[\"2\",\"1\"]}");
    assertThat(write(AttributeValue.l(List.of(AttributeValue.bool(false)))))
        .isEqualTo("{\"L\":[{\"BOOL\":false}]}");
  }

  @Test
  void numbersAreNormalisedOnTheWayIn() {
    assertThat(readValue("{\"N\":\"1.50\"}")).isEqualTo(AttributeValue.n("1.5"));
    assertThat(readValue("{\"N\":\"1E+3\"}")).isEqualTo(new AttributeValue.N("1000"));
    assertThat(readValue("{\"NS\":[\"-0\",\"1.0\"]}"))
        .isEqualTo(new AttributeValue.NS(java.util.Set.of("0", "1")));
  }

  @Test
  void nullMembersAndUnknownMembersAreAbsent() {
    PutItemRequest request =
        putItem(
            "{\"TableName\":\"t\",\"Unknown\":{\"deep\":[1,2,{\"x\":null}]},"
                + "\"ConditionExpression\":null,\"Item\":{\"a\":{\"S\":\"v\",\"X\":5}}}");
    assertThat(request.tableName()).isEqualTo("t");
    assertThat(request.conditionExpression()).isNull();
    assertThat(request.item()).containsExactly(Map.entry("a", AttributeValue.s("v")));
  }

  // ---- validation errors of attribute values ------------------------------------------------

  @Test
  void moreThanOneTypeIsRejected() {
    assertValidation(
        "{\"S\":\"a\",\"BOOL\":true}",
        "Supplied AttributeValue has more than one datatypes set, "
            + "must contain exactly one of the supported datatypes");
  }

  @Test
  void anEmptyValueIsRejected() {
    assertValidation(
        "{}",
        "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
    assertValidation(
        "{\"S\":null}",
        "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  }

  @Test
  void nullMustBeTrue() {
    assertValidation(
        "{\"NULL\":false}",
        "One or more parameter values were invalid: "
            + "Null attribute value types must have the value of true");
  }

  @Test
  void invalidNumbersAndSetsAreValidationErrors() {
    assertThatThrownBy(() -> readValue("{\"N\":\"abc\"}"))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.ValidationException));
    assertThatThrownBy(() -> readValue("{\"N\":\"1E+126\"}"))
        .hasMessageContaining("Number overflow");
    assertThatThrownBy(() -> readValue("{\"SS\":[]}")).hasMessageContaining("may not be empty");
    assertThatThrownBy(() -> readValue("{\"SS\":[\"a\",\"a\"]}"))
        .hasMessageContaining("contains duplicates");
  }

  @Test
  void aTypeErrorLaterInTheBodyWinsOverAnEarlierValidationError() {
    // DynamoDB checks every member's JSON type before it validates any value.
    assertSerialization(
        "{\"Item\":{\"a\":{\"NULL\":false}},\"TableName\":5}",
        "NUMBER_VALUE cannot be converted to String");
  }

  @Test
  void nestingUpToThirtyTwoLevelsIsAccepted() {
    AttributeValue value = readValue(nested(31)); // its leaf at level 32
    int depth = 0;
    while (value instanceof AttributeValue.M m) {
      value = m.value().get("a");
      depth++;
    }
    assertThat(depth).isEqualTo(31);
    assertThat(value).isEqualTo(AttributeValue.s("x"));
  }

  @Test
  void nestingDeeperThanThirtyTwoLevelsIsAValidationError() {
    assertValidation(nested(32), JsonInput.TOO_DEEP);
  }

  @Test
  void absurdNestingNeverOverflowsTheStack() {
    StringBuilder json = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      json.append("{\"L\":[");
    }
    String body = "{\"Item\":{\"v\":" + json + "}}";
    assertError(
        () -> WireProtocol.invoke(null, "PutItem", in(body), sink()),
        ErrorType.ValidationException,
        JsonInput.TOO_DEEP);
  }

  private static String nested(int maps) {
    return "{\"M\":{\"a\":".repeat(maps) + "{\"S\":\"x\"}" + "}}".repeat(maps);
  }

  // ---- serialization errors -----------------------------------------------------------------

  static Stream<Arguments> wrongTypes() {
    return Stream.of(
        Arguments.of("{\"TableName\":5}", "NUMBER_VALUE cannot be converted to String"),
        Arguments.of("{\"TableName\":5.5}", "DECIMAL_VALUE cannot be converted to String"),
        Arguments.of("{\"TableName\":true}", "TRUE_VALUE cannot be converted to String"),
        Arguments.of("{\"TableName\":false}", "FALSE_VALUE cannot be converted to String"),
        Arguments.of(
            "{\"TableName\":{}}", "Start of structure or map found where not expected"),
        Arguments.of(
            "{\"TableName\":[]}", "Unrecognized collection type class java.lang.String"),
        Arguments.of("{\"Item\":\"x\"}", "Unexpected field type"),
        Arguments.of(
            "{\"Item\":[]}",
            "Unrecognized collection type java.util.Map<java.lang.String, "
                + "com.amazonaws.dynamodb.v20120810.AttributeValue>"),
        Arguments.of("{\"Item\":{\"a\":\"x\"}}", "Unexpected value type in payload"),
        Arguments.of(
            "{\"Item\":{\"a\":[]}}",
            "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"),
        Arguments.of("{\"Item\":{\"a\":{\"S\":1}}}", "NUMBER_VALUE cannot be converted to String"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"BOOL\":\"maybe\"}}}", "Unexpected token received from parser"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"BOOL\":3}}}", "NUMBER_VALUE cannot be converted to Boolean"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"B\":5}}}",
            "only base-64-encoded strings are convertible to bytes"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"B\":\"abc\"}}}",
            "Base64 encoded length is expected a multiple of 4 bytes but found: 3"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"B\":\"AB==\"}}}",
            "Invalid last non-pad Base64 character dectected"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"B\":\"ab!d\"}}}", "Invalid base 64 character: '!'"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"B\":\"a=bc\"}}}", "Invalid base 64 character: '='"),
        Arguments.of(
            "{\"Item\":{\"a\":{\"L\":{}}}}",
            "Start of structure or map found where not expected"),
        Arguments.of("{\"Item\":{\"a\":{\"SS\":\"x\"}}}", "Unexpected field type"),
        Arguments.of(
            "{\"ExpressionAttributeNames\":[]}",
            "Unrecognized collection type java.util.Map<java.lang.String, java.lang.String>"),
        Arguments.of(
            "{\"Expected\":{\"a\":[]}}",
            "Unrecognized collection type class "
                + "com.amazonaws.dynamodb.v20120810.ExpectedAttributeValue"),
        Arguments.of("{\"Expected\":{\"a\":{\"Exists\":\"maybe\"}}}",
            "Unexpected token received from parser"));
  }

  @ParameterizedTest
  @MethodSource("wrongTypes")
  void wrongJsonTypesAreSerializationErrors(String json, String message) {
    assertSerialization(json, message);
  }

  @Test
  void integersAcceptDecimalsTruncatedAndRefuseStrings() throws IOException {
    assertThat(root("{\"Limit\":3.9}", Requests.LIST_TABLES).limit()).isEqualTo(3);
    assertThatThrownBy(() -> root("{\"Limit\":\"3\"}", Requests.LIST_TABLES))
        .hasMessage("STRING_VALUE cannot be converted to Integer");
    assertThatThrownBy(() -> root("{\"Limit\":99999999999}", Requests.LIST_TABLES))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> assertThat(e.type()).isEqualTo(ErrorType.SerializationException));
  }

  @Test
  void booleansAcceptDynamoDbsStringSpellings() throws IOException {
    assertThat(root("{\"ConsistentRead\":\"yes\"}", Requests::getItem).consistentRead()).isTrue();
    assertThat(root("{\"ConsistentRead\":\"0\"}", Requests::getItem).consistentRead()).isFalse();
  }

  @Test
  void malformedJsonIsABareSerializationError() {
    for (String json : List.of("{", "{\"TableName\":}", "[1]", "5", "{} {}", "{\"a\":1,}")) {
      assertThatThrownBy(() -> WireProtocol.invoke(null, "PutItem", in(json), sink()))
          .as(json)
          .isInstanceOfSatisfying(
              DynamoDbException.class,
              e -> {
                assertThat(e.type()).isEqualTo(ErrorType.SerializationException);
                assertThat(e.getMessage()).isNull();
              });
    }
  }

  @Test
  void anInvalidExpressionAttributeValueNamesItsPlaceholder() {
    assertError(
        () -> putItem("{\"Item\":{\"v\":{\"S\":\"x\"}},\"ConditionExpression\":\"v = :a\","
            + "\"ExpressionAttributeValues\":{\":a\":{\"S\":\"x\"},\":b\":{\"SS\":[]}}}"),
        ErrorType.ValidationException,
        "ExpressionAttributeValues contains invalid value: One or more parameter values were "
            + "invalid: An string set  may not be empty for key :b");
    assertError(
        () -> putItem("{\"ConditionExpression\":\"v = :a\","
            + "\"ExpressionAttributeValues\":{\":a\":{}}}"),
        ErrorType.ValidationException,
        "ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must "
            + "contain exactly one of the supported datatypes for key :a");
    // The item's own invalid values keep their plain message.
    assertError(
        () -> putItem("{\"Item\":{\"v\":{\"NS\":[]}},\"ConditionExpression\":\"v = :a\","
            + "\"ExpressionAttributeValues\":{\":a\":{\"SS\":[]}}}"),
        ErrorType.ValidationException,
        "One or more parameter values were invalid: An number set  may not be empty");
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static void assertValidation(String valueJson, String message) {
    assertError(() -> readValue(valueJson), ErrorType.ValidationException, message);
  }

  private static void assertSerialization(String putItemJson, String message) {
    assertError(() -> putItem(putItemJson), ErrorType.SerializationException, message);
  }

  private static void assertError(ThrowingCallable call, ErrorType type, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> {
              assertThat(e.type()).isEqualTo(type);
              assertThat(e.getMessage()).isEqualTo(message);
            });
  }

  private static PutItemRequest putItem(String json) {
    try {
      return root(json, Requests::putItem);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads {@code {"Item":{"v": <valueJson>}}} and returns the value. */
  private static AttributeValue readValue(String valueJson) {
    return putItem("{\"Item\":{\"v\":" + valueJson + "}}").item().get("v");
  }

  static <T> T root(String json, JsonInput.Reader<T> reader) throws IOException {
    try (JsonParser parser = JSON.createParser(json)) {
      return new JsonInput(parser).root(reader);
    }
  }

  private static String write(AttributeValue value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      Responses.attributeValue(generator, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static java.io.InputStream in(String json) {
    return new java.io.ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8));
  }

  private static java.io.OutputStream sink() {
    return new ByteArrayOutputStream();
  }
}
