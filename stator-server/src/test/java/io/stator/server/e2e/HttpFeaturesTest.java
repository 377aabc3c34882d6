package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.zip.CRC32;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * HTTP as the SDKs and browsers use it: compressed request bodies, compressed answers whose
 * {@code x-amz-crc32} is of the bytes sent, CORS for web pages, and a {@code Date} on every
 * answer.
 */
class HttpFeaturesTest extends EndToEndTest {
  private static final String SIGNATURE = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/"
      + "us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, "
      + "Signature=0000000000000000000000000000000000000000000000000000000000000000";

  private final HttpClient http = HttpClient.newHttpClient();
  private String table;

  @BeforeEach
  void createTable() {
    table = createTable("http", "id", ScalarAttributeType.S);
  }

  @Test
  void aGzipOrDeflateRequestBodyIsReadDecompressed() throws Exception {
    HttpResponse<byte[]> gzip = post("PutItem", gzip(putItem("a", "x".repeat(2000))), "gzip",
        null, null);
    assertThat(gzip.statusCode()).isEqualTo(200);
    HttpResponse<byte[]> deflate = post("PutItem", deflate(putItem("b", "y")), "deflate", null,
        null);
    assertThat(deflate.statusCode()).isEqualTo(200);
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))).item().get("v").s())
        .hasSize(2000);
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("b")))).item())
        .containsKey("v");
  }

  @Test
  void aCorruptOrUnknownCompressedBodyIsASerializationExceptionAndWritesNothing()
      throws Exception {
    byte[] good = gzip(putItem("c", "z"));
    byte[] corrupt = java.util.Arrays.copyOf(good, good.length - 6);
    corrupt[12] ^= 0x5a;
    for (HttpResponse<byte[]> r : java.util.List.of(
        post("PutItem", corrupt, "gzip", null, null),
        post("PutItem", putItem("c", "z"), "gzip", null, null),
        post("PutItem", putItem("c", "z"), "br", null, null))) {
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(new String(r.body(), StandardCharsets.UTF_8))
          .contains("com.amazon.coral.service#SerializationException");
    }
    assertThat(dynamo.scan(r -> r.tableName(table)).count()).isZero();
  }

  /** A small body that would decompress past 16 MB is refused as a body that large is. */
  @Test
  void aBodyThatDecompressesPastTheRequestLimitIsRefusedAsTooLarge() throws Exception {
    String padding = " ".repeat(17 * 1024 * 1024);
    byte[] bomb = gzip(("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":\"g\"}}"
        + padding + "}").getBytes(StandardCharsets.UTF_8));
    assertThat(bomb.length).isLessThan(100_000);
    HttpResponse<byte[]> r = post("PutItem", bomb, "gzip", null, null);
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("RequestEntityTooLarge")
        .contains("Request must be smaller than 16777216 bytes for the operation");
    assertThat(dynamo.scan(b -> b.tableName(table)).count()).isZero();
  }

  @Test
  void aLargeAnswerIsCompressedWhenAcceptedWithTheCrcOfTheBytesSent() throws Exception {
    assertThat(post("PutItem", putItem("big", "q".repeat(5000)), null, null, null).statusCode())
        .isEqualTo(200);
    byte[] get = ("{\"TableName\":\"" + table + "\",\"Key\":{\"id\":{\"S\":\"big\"}}}")
        .getBytes(StandardCharsets.UTF_8);

    HttpResponse<byte[]> zipped = post("GetItem", get, null, "gzip, deflate", null);
    assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(zipped.headers().firstValue("x-amz-crc32")).hasValue(crc(zipped.body()));
    String text = new String(new GZIPInputStream(new java.io.ByteArrayInputStream(zipped.body()))
        .readAllBytes(), StandardCharsets.UTF_8);
    assertThat(text).contains("q".repeat(5000));
    assertThat(zipped.body().length).isLessThan(text.length() / 4);

    HttpResponse<byte[]> plain = post("GetItem", get, null, "gzip;q=0, identity", null);
    assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(new String(plain.body(), StandardCharsets.UTF_8)).isEqualTo(text);
    // A small answer is not worth compressing.
    HttpResponse<byte[]> small = post("DescribeTable",
        ("{\"TableName\":\"" + table + "\"}").getBytes(StandardCharsets.UTF_8), null, "gzip",
        null);
    assertThat(small.headers().firstValue("Content-Encoding")).isEmpty();
  }

  @Test
  void aWebPageGetsCorsHeadersAndItsPreflightAnEmptyAnswer() throws Exception {
    HttpResponse<byte[]> preflight = http.send(HttpRequest.newBuilder(URI.create(endpoint.uri()
            + "/"))
            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
            .header("Origin", "http://localhost:3000")
            .header("Access-Control-Request-Method", "POST")
            .header("Access-Control-Request-Headers", "content-type,x-amz-target,authorization")
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(preflight.statusCode()).isEqualTo(200);
    assertThat(preflight.body()).isEmpty();
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods")).hasValue("POST");
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers"))
        .hasValue("content-type,x-amz-target,authorization");
    assertThat(preflight.headers().firstValue("Access-Control-Max-Age")).hasValue("172800");

    HttpResponse<byte[]> call = post("PutItem", putItem("d", "w"), null, null,
        "http://localhost:3000");
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
    assertThat(call.headers().firstValue("Access-Control-Expose-Headers").orElseThrow())
        .contains("x-amzn-RequestId", "x-amzn-ErrorType");
    // Without an Origin, none of it.
    HttpResponse<byte[]> noOrigin = post("PutItem", putItem("e", "w"), null, null, null);
    assertThat(noOrigin.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
  }

  @Test
  void everyAnswerHasADate() throws Exception {
    HttpResponse<byte[]> ok = post("PutItem", putItem("f", "w"), null, null, null);
    HttpResponse<byte[]> error = post("Nope", putItem("f", "w"), null, null, null);
    HttpResponse<byte[]> health = http.send(
        HttpRequest.newBuilder(URI.create(endpoint.uri() + "/")).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    for (HttpResponse<byte[]> r : java.util.List.of(ok, error, health)) {
      ZonedDateTime date = ZonedDateTime.parse(r.headers().firstValue("Date").orElseThrow(),
          DateTimeFormatter.RFC_1123_DATE_TIME);
      assertThat(date.toInstant()).isBetween(
          java.time.Instant.now().minusSeconds(60), java.time.Instant.now().plusSeconds(60));
    }
  }

  private byte[] putItem(String id, String value) {
    return ("{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":\"" + id
        + "\"},\"v\":{\"S\":\"" + value + "\"}}}").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] gzip(byte[] plain) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(plain);
    }
    return out.toByteArray();
  }

  private static byte[] deflate(byte[] plain) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DeflaterOutputStream z = new DeflaterOutputStream(out)) {
      z.write(plain);
    }
    return out.toByteArray();
  }

  private static String crc(byte[] body) {
    CRC32 crc = new CRC32();
    crc.update(body);
    return Long.toString(crc.getValue());
  }

  private HttpResponse<byte[]> post(String operation, byte[] body, String contentEncoding,
      String acceptEncoding, String origin) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.uri() + "/"))
        .header("Content-Type", "application/x-amz-json-1.0")
        .header("X-Amz-Target", "DynamoDB_20120810." + operation)
        .header("X-Amz-Date", "20260101T000000Z")
        .header("Authorization", SIGNATURE)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentEncoding != null) {
      b.header("Content-Encoding", contentEncoding);
    }
    if (acceptEncoding != null) {
      b.header("Accept-Encoding", acceptEncoding);
    }
    if (origin != null) {
      b.header("Origin", origin);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
