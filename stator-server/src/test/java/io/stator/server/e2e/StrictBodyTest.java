package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A request body is read strictly, so that no two requests can name one key (issue 29): bytes
 * that are not UTF-8, an escaped surrogate without its pair, a body in UTF-16 or UTF-32 or with
 * a byte order mark, and a member named twice are each refused with HTTP 400 and a
 * SerializationException that says what is wrong, and nothing is written. Before, each was
 * read by guessing (<code>&#92;ud800</code> and <code>&#92;udfff</code> as {@code ?}, {@code C0
 * 80} as NUL, the last of two {@code TableName}s), and the PutItem of key
 * <code>acct-&#92;ud800</code> overwrote the item {@code acct-?}.
 *
 * <p>Each test starts from a table holding the items such guesses would land on ({@code acct-?},
 * {@code acct-??}, {@code acct-NUL}, {@code acct-U+FFFD}) and {@code acct-x}, whose attributes a
 * request on a value or a name would change, and checks with a Scan after every refused request
 * that the table holds exactly those items still.
 */
class StrictBodyTest extends EndToEndTest {
  private static final String SIGNATURE = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/"
      + "us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, "
      + "Signature=0000000000000000000000000000000000000000000000000000000000000000";
  private static final List<String> SEEDED =
      List.of("acct-?", "acct-??", "acct-\u0000", "acct-\uFFFD", "acct-x");

  private final HttpClient http = HttpClient.newHttpClient();
  private String table;

  @BeforeEach
  void seed() {
    table = createTable("strict-body", "id", ScalarAttributeType.S);
    for (String id : SEEDED) {
      dynamo.putItem(r -> r.tableName(table).item(item("id", s(id), "v", s("seed"))));
    }
  }

  // ---- escaped surrogates without their pair ------------------------------------------------

  @Test
  void anEscapedLoneHighOrLowSurrogateInAKeyIsRefused() throws Exception {
    for (String key : List.of("acct-\\ud800", "acct-\\udfff", "acct-\\udbff\\udbff",
        "acct-\\ude00\\ud83d", "acct-\\ud83dx", "\\ud800acct-")) {
      assertRefused("PutItem", putItem(key, "overwritten"), "unpaired surrogate");
    }
    assertRefused("DeleteItem",
        json("{\"TableName\":\"" + table + "\",\"Key\":{\"id\":{\"S\":\"acct-\\ud800\"}}}"),
        "unpaired surrogate");
    assertRefused("BatchWriteItem", json("{\"RequestItems\":{\"" + table + "\":[{\"PutRequest\":"
        + "{\"Item\":{\"id\":{\"S\":\"acct-\\udfff\"},\"v\":{\"S\":\"overwritten\"}}}}]}}"),
        "unpaired surrogate");
    assertRefused("TransactWriteItems", json("{\"TransactItems\":[{\"Put\":{\"TableName\":\""
        + table + "\",\"Item\":{\"id\":{\"S\":\"acct-\\ud800\"}}}}]}"), "unpaired surrogate");
  }

  @Test
  void anEscapedLoneSurrogateInAnAttributeValueOrNameIsRefused() throws Exception {
    assertRefused("PutItem", putItemWith("\"v\":{\"S\":\"x\\ud800\"}"), "\\ud800");
    assertRefused("PutItem", putItemWith("\"v\\udfff\":{\"S\":\"x\"}"),
        "Invalid string: Unexpected low surrogate in field name: 0xdfff");
    assertRefused("PutItem", putItemWith("\"v\":{\"SS\":[\"a\",\"\\ud800\"]}"), "\\ud800");
    assertRefused("PutItem", putItemWith("\"v\":{\"M\":{\"a\":{\"L\":[{\"S\":\"\\udc00\"}]}}}"),
        "\\udc00");
    assertRefused("PutItem", putItemWith("\"v\":{\"M\":{\"\\ud800\":{\"S\":\"a\"}}}"),
        "Invalid string: Broken surrogate pair in field name");
  }

  @Test
  void anEscapedLoneSurrogateInExpressionAttributeValuesOrNamesIsRefused() throws Exception {
    String key = "\"Key\":{\"id\":{\"S\":\"acct-x\"}}";
    assertRefused("UpdateItem", json("{\"TableName\":\"" + table + "\"," + key
        + ",\"UpdateExpression\":\"SET v = :v\","
        + "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"\\ud800\"}}}"), "unpaired surrogate");
    assertRefused("UpdateItem", json("{\"TableName\":\"" + table + "\"," + key
        + ",\"UpdateExpression\":\"SET #n = :v\","
        + "\"ExpressionAttributeNames\":{\"#n\":\"v\\udfff\"},"
        + "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"overwritten\"}}}"),
        "unpaired surrogate");
    assertRefused("UpdateItem", json("{\"TableName\":\"" + table + "\"," + key
        + ",\"UpdateExpression\":\"SET #\\ud800 = :v\",\"ExpressionAttributeNames\":"
        + "{\"#\\ud800\":\"v\"},\"ExpressionAttributeValues\":{\":v\":{\"S\":\"overwritten\"}}}"),
        "unpaired surrogate");
  }

  @Test
  void anEscapedLoneSurrogateInATableNameOrAnExpressionIsRefused() throws Exception {
    assertRefused("DescribeTable", json("{\"TableName\":\"" + table + "\\ud800\"}"),
        "unpaired surrogate");
    assertRefused("PutItem", json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":"
        + "\"acct-x\"},\"v\":{\"S\":\"overwritten\"}},"
        + "\"ConditionExpression\":\"attribute_exists(\\udfff) OR attribute_exists(id)\"}"),
        "unpaired surrogate");
  }

  // ---- bytes that are not UTF-8 -------------------------------------------------------------

  @Test
  void invalidUtf8InAKeyIsRefused() throws Exception {
    for (byte[] bad : invalidSequences()) {
      assertRefused("PutItem", json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":"
          + "\"acct-", bad, "\"},\"v\":{\"S\":\"overwritten\"}}}"), "not valid UTF-8");
    }
  }

  @Test
  void invalidUtf8InAValueOrANameIsRefused() throws Exception {
    for (byte[] bad : invalidSequences()) {
      assertRefused("PutItem", json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":"
          + "\"acct-x\"},\"v\":{\"S\":\"over", bad, "written\"}}}"), "not valid UTF-8");
      assertRefused("PutItem", json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":"
          + "\"acct-x\"},\"v", bad, "\":{\"S\":\"overwritten\"}}}"), "not valid UTF-8");
    }
  }

  @Test
  void invalidUtf8SaysWhatAndWhere() throws Exception {
    String head = "{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":\"acct-";
    int at = head.length() + 5;
    assertRefused("PutItem", json(head + "abcde", bytes(0xF4, 0x90, 0x80, 0x80), "\"}}}"),
        "Request body is not valid UTF-8: the bytes at offset " + at
            + " encode no character (beyond U+10FFFF)");
    assertRefused("PutItem", json(head + "abcde", bytes(0xC0, 0x80), "\"}}}"),
        "Request body is not valid UTF-8: byte 0xC0 at offset " + at + " starts no character");
    assertRefused("PutItem", json(head + "abcde", bytes(0xE0, 0x80, 0x80), "\"}}}"),
        "Request body is not valid UTF-8: the character at offset " + at
            + " is an overlong encoding");
    assertRefused("PutItem", json(head + "abcde", bytes(0xE2, 0x82), "\"}}}"),
        "Request body is not valid UTF-8: the character at offset " + at
            + " is cut short by byte 0x22");
    assertRefused("PutItem", json(head + "abcde", bytes(0xED, 0xA0, 0x80), "\"}}}"),
        "the bytes at offset " + at + " encode the surrogate U+D800, which is no character");
    assertRefused("PutItem", json(head + "abcde", bytes(0xF0, 0x9F, 0x98)),
        "the character at offset " + at + " is cut short by the end of the body");
  }

  // ---- encodings other than UTF-8 -----------------------------------------------------------

  @Test
  void aBodyInUtf16OrUtf32IsRefused() throws Exception {
    String body = new String(putItem("acct-x", "overwritten"), StandardCharsets.UTF_8);
    for (String charset : List.of("UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32BE", "UTF-32LE",
        "UTF-32")) {
      assertRefused("PutItem", body.getBytes(Charset.forName(charset)), "UTF-16 or UTF-32");
    }
  }

  @Test
  void aBodyStartingWithAByteOrderMarkIsRefused() throws Exception {
    assertRefused("PutItem", json(bytes(0xEF, 0xBB, 0xBF), putItem("acct-x", "overwritten")),
        "byte order mark");
    // Where it is no byte order mark, U+FEFF is a character like any other.
    assertThat(post("PutItem", putItem("acct-\uFEFF", "zwnbsp")).statusCode()).isEqualTo(200);
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("acct-\uFEFF"))))
        .item().get("v")).isEqualTo(s("zwnbsp"));
  }

  // ---- a member named twice -----------------------------------------------------------------

  @Test
  void aMemberNamedTwiceIsRefused() throws Exception {
    String item = "\"Item\":{\"id\":{\"S\":\"acct-x\"},\"v\":{\"S\":\"overwritten\"}}";
    assertRefused("PutItem", json("{\"TableName\":\"" + table + "-missing\",\"TableName\":\""
        + table + "\"," + item + "}"), "Duplicate member 'TableName'");
    assertRefused("PutItem", json("{\"TableName\":\"" + table + "\"," + item + ",\"TableName\":\""
        + table + "\"}"), "Duplicate member 'TableName'");
    assertRefused("PutItem", putItemWith("\"v\":{\"S\":\"overwritten\"},\"v\":{\"S\":\"again\"}"),
        "Duplicate member 'v'");
    assertRefused("PutItem", json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":"
        + "\"acct-y\"},\"id\":{\"S\":\"acct-x\"}}}"), "Duplicate member 'id'");
    assertRefused("PutItem", json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":"
        + "\"acct-?\",\"S\":\"acct-x\"}}}"), "Duplicate member 'S'");
    assertRefused("UpdateItem", json("{\"TableName\":\"" + table + "\",\"Key\":{\"id\":{\"S\":"
        + "\"acct-x\"}},\"UpdateExpression\":\"SET v = :v\",\"ExpressionAttributeValues\":"
        + "{\":v\":{\"S\":\"one\"},\":v\":{\"S\":\"two\"}}}"), "Duplicate member ':v'");
    // Also in a member Stator does not read.
    assertRefused("PutItem", json("{\"TableName\":\"" + table + "\"," + item
        + ",\"Unknown\":{\"a\":1,\"a\":2}}"), "Duplicate member 'a'");
  }

  // ---- what stays accepted ------------------------------------------------------------------

  @Test
  void aSurrogatePairEscapedOrInFourRawBytesIsOneCharacter() throws Exception {
    assertThat(post("PutItem", putItem("acct-\\ud83d\\ude00", "escaped")).statusCode())
        .isEqualTo(200);
    Map<String, AttributeValue> key = item("id", s("acct-\uD83D\uDE00"));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(key)).item().get("v"))
        .isEqualTo(s("escaped"));
    assertThat(post("PutItem", json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":"
        + "\"acct-", bytes(0xF0, 0x9F, 0x98, 0x80), "\"},\"v\":{\"S\":\"raw \\ud83d\\ude00\"}}}"))
        .statusCode()).isEqualTo(200);
    assertThat(dynamo.getItem(r -> r.tableName(table).key(key)).item().get("v"))
        .isEqualTo(s("raw \uD83D\uDE00"));
    // U+10FFFF, the last character, and U+FFFD, the replacement character, are characters too.
    assertThat(post("PutItem", putItem("acct-\\udbff\\udfff", "last")).statusCode())
        .isEqualTo(200);
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("acct-\uDBFF\uDFFF"))))
        .item().get("v")).isEqualTo(s("last"));
    Set<Map<String, AttributeValue>> expected = seededItems();
    expected.add(item("id", s("acct-\uD83D\uDE00"), "v", s("raw \uD83D\uDE00")));
    expected.add(item("id", s("acct-\uDBFF\uDFFF"), "v", s("last")));
    assertThat(scan()).isEqualTo(expected);
  }

  // ---- values that do not decode --------------------------------------------------------------

  @Test
  void aValueThatDoesNotDecodeIsRefusedInDynamoDbsWordsNotJavas() throws Exception {
    // Each body and DynamoDB's message for it. A binary value's base64: its length, a character
    // outside the alphabet (Java's own decoder says "Illegal base64 character 21"), a last
    // character whose extra bits are set. Then a member of the wrong JSON type.
    Map<byte[], String> refused = new LinkedHashMap<>();
    refused.put(putItemWith("\"b\":{\"B\":\"abc\"}"),
        "Base64 encoded length is expected a multiple of 4 bytes but found: 3");
    refused.put(putItemWith("\"b\":{\"B\":\"ab!d\"}"), "Invalid base 64 character: '!'");
    refused.put(putItemWith("\"b\":{\"BS\":[\"YQ==\",\"Y=Q=\"]}"),
        "Invalid base 64 character: '='");
    refused.put(putItemWith("\"b\":{\"B\":\"YR==\"}"),
        "Invalid last non-pad Base64 character dectected");
    refused.put(putItemWith("\"v\":{\"S\":5}"), "NUMBER_VALUE cannot be converted to String");
    refused.put(putItemWith("\"v\":{\"L\":\"x\"}"), "Unexpected field type");
    refused.put(json("{\"TableName\":[\"" + table + "\"],\"Item\":{}}"),
        "Unrecognized collection type class java.lang.String");
    for (Map.Entry<byte[], String> body : refused.entrySet()) {
      assertRefused("PutItem", body.getKey(), "\"Message\":\"" + body.getValue() + "\"}");
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** Posts {@code body}, expects DynamoDB's SerializationException, and an unchanged table. */
  private void assertRefused(String operation, byte[] body, String messageFragment)
      throws Exception {
    HttpResponse<String> response = post(operation, body);
    String shown = new String(body, StandardCharsets.ISO_8859_1);
    assertThat(response.statusCode()).as(shown).isEqualTo(400);
    assertThat(response.body()).as(shown)
        .startsWith("{\"__type\":\"com.amazon.coral.service#SerializationException\",")
        .contains("\"Message\":\"")
        .contains(messageFragment.replace("\\", "\\\\"));
    assertThat(scan()).as("the table after %s", shown).isEqualTo(seededItems());
  }

  private Set<Map<String, AttributeValue>> seededItems() {
    Set<Map<String, AttributeValue>> items = new HashSet<>();
    for (String id : SEEDED) {
      items.add(item("id", s(id), "v", s("seed")));
    }
    return items;
  }

  private Set<Map<String, AttributeValue>> scan() {
    return new HashSet<>(dynamo.scan(r -> r.tableName(table).consistentRead(true)).items());
  }

  /** A PutItem of {@code {id: key, v: value}}, both written as JSON string contents. */
  private byte[] putItem(String key, String value) {
    return json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":\"" + key
        + "\"},\"v\":{\"S\":\"" + value + "\"}}}");
  }

  /** A PutItem of the item {@code acct-x} with the given attributes besides its key. */
  private byte[] putItemWith(String attributes) {
    return json("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":\"acct-x\"},"
        + attributes + "}}");
  }

  /** Invalid UTF-8: beyond U+10FFFF, overlong, cut short, bare continuation, surrogate, F5+. */
  private static List<byte[]> invalidSequences() {
    return List.of(
        bytes(0xF4, 0x90, 0x80, 0x80),
        bytes(0xC0, 0x80),
        bytes(0xC1, 0xBF),
        bytes(0xE0, 0x80, 0xBF),
        bytes(0xF0, 0x80, 0x80, 0xBF),
        bytes(0xE2, 0x82),
        bytes(0xF0, 0x9F, 0x98),
        bytes(0x80),
        bytes(0xBF, 0xBF),
        bytes(0xED, 0xA0, 0x80),
        bytes(0xED, 0xBF, 0xBF),
        bytes(0xF5, 0x80, 0x80, 0x80),
        bytes(0xFF));
  }

  /** The parts one after the other: a String in UTF-8, a byte[] as it is. */
  private static byte[] json(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      out.writeBytes(
          part instanceof byte[] b ? b : ((String) part).getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  private static byte[] bytes(int... unsigned) {
    byte[] bytes = new byte[unsigned.length];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) unsigned[i];
    }
    return bytes;
  }

  private HttpResponse<String> post(String operation, byte[] body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(endpoint.uri() + "/"))
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "DynamoDB_20120810." + operation)
            .header("X-Amz-Date", "20260101T000000Z")
            .header("Authorization", SIGNATURE)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}
