package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The HTTP front door, spoken to with plain HTTP requests and raw sockets. */
class HttpProtocolTest {
  private static final String AUTH =
      "AWS4-HMAC-SHA256 Credential=key/20240101/us-east-1/dynamodb/aws4_request, "
          + "SignedHeaders=host;x-amz-date, Signature=abc";
  private static final String PREFIX = "com.amazonaws.dynamodb.v20120810#";
  private static final String SERVICE = "com.amazon.coral.service#";

  private static StatorServer server;
  private static HttpClient client;

  @BeforeAll
  static void start() {
    server = StatorServer.start("127.0.0.1", 0, Stator.inMemory());
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void getAnswersHealthyLikeDynamoDb() throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(uri()).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("healthy: dynamodb.us-east-1.amazonaws.com ");
    assertThat(response.headers().firstValue("x-amz-crc32")).hasValue("3128867991");
  }

  @Test
  void aRequestWithoutCredentialsIsMissingAnAuthenticationToken() throws Exception {
    HttpResponse<String> response = post("ListTables", "{}", null);
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .isEqualTo(
            "{\"__type\":\""
                + SERVICE
                + "MissingAuthenticationTokenException\","
                + "\"message\":\"Request is missing Authentication Token\"}");
  }

  @Test
  void queryStringCredentialsAreAccepted() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(uri() + "?X-Amz-Algorithm=AWS4-HMAC-SHA256"))
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "DynamoDB_20120810.PutItem")
            .POST(HttpRequest.BodyPublishers.ofString("{\"TableName\":5}"))
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.body()).contains("SerializationException");
  }

  @Test
  void anUnknownOperationIsRefused() throws Exception {
    for (String target : new String[] {"DynamoDB_20120810.Frobnicate", "Frobnicate", ""}) {
      HttpResponse<String> response = post(target, "{}", AUTH, true);
      assertThat(response.statusCode()).as(target).isEqualTo(400);
      assertThat(response.body())
          .isEqualTo("{\"__type\":\"" + SERVICE + "UnknownOperationException\"}");
    }
  }

  @Test
  void malformedJsonIsASerializationErrorEvenBeforeTheTargetAndCredentialsAreChecked()
      throws Exception {
    String bare = "{\"__type\":\"" + SERVICE + "SerializationException\"}";
    assertThat(post("ListTables", "{\"Limit\":", AUTH).body()).isEqualTo(bare);
    assertThat(post("Nope", "not json", AUTH).body()).isEqualTo(bare);
    assertThat(post("ListTables", "{", null).body()).isEqualTo(bare);
    assertThat(post("ListTables", "", AUTH).body()).isEqualTo(bare);
  }

  @Test
  void wrongJsonTypesAreSerializationErrors() throws Exception {
    HttpResponse<String> response = post("DescribeTable", "{\"TableName\":5}", AUTH);
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .isEqualTo(
            "{\"__type\":\""
                + SERVICE
                + "SerializationException\","
                + "\"Message\":\"NUMBER_VALUE cannot be converted to String\"}");
    assertThat(post("PutItem", "{\"Item\":\"x\"}", AUTH).body())
        .contains("\"Message\":\"Unexpected field type\"");
  }

  @Test
  void invalidAttributeValuesAreValidationErrors() throws Exception {
    HttpResponse<String> response =
        post("PutItem", "{\"TableName\":\"t\",\"Item\":{\"a\":{\"NULL\":false}}}", AUTH);
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .contains("com.amazon.coral.validate#ValidationException")
        .contains("Null attribute value types must have the value of true");
  }

  @Test
  void anEngineFaultIsAnInternalServerErrorAndTheConnectionSurvives() throws Exception {
    try (StatorServer failing =
            StatorServer.start("127.0.0.1", 0, new SdkProtocolTest.FailingDatabase());
        Socket socket = new Socket("127.0.0.1", failing.port())) {
      socket.setSoTimeout(10_000);
      for (int i = 0; i < 2; i++) {
        socket.getOutputStream().write(rawPost("ListTables", "{}"));
        RawResponse response = RawResponse.read(socket.getInputStream());
        assertThat(response.status).isEqualTo(500);
        assertThat(response.body)
            .isEqualTo(
                "{\"__type\":\"" + PREFIX + "InternalServerError\","
                    + "\"message\":\"Internal server error\"}");
      }
    }
  }

  @Test
  void everyResponseCarriesARequestIdAndTheCrc32OfItsBody() throws Exception {
    for (HttpResponse<byte[]> response :
        java.util.List.of(
            postBytes("DescribeTable", "{\"TableName\":5}", AUTH),
            postBytes("ListTables", "{}", null),
            postBytes("PutItem", "{\"Item\":{\"a\":{}}}", AUTH))) {
      CRC32 crc = new CRC32();
      crc.update(response.body());
      assertThat(response.headers().firstValue("x-amz-crc32"))
          .hasValue(Long.toString(crc.getValue()));
      assertThat(response.headers().firstValue("x-amzn-RequestId")).isPresent();
      assertThat(response.headers().firstValue("Content-Type"))
          .hasValue("application/x-amz-json-1.0");
      assertThat(response.headers().firstValueAsLong("Content-Length"))
          .hasValue(response.body().length);
    }
  }

  @Test
  void plainJsonContentTypeIsAcceptedAndEchoed() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(uri())
            .header("Content-Type", "application/json")
            .header("Authorization", AUTH)
            .header("X-Amz-Target", "DynamoDB_20120810.DescribeTable")
            .POST(HttpRequest.BodyPublishers.ofString("{\"TableName\":[]}"))
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.body()).contains("Unrecognized collection type class java.lang.String");
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
  }

  @Test
  void otherMethodsAndContentTypesAreNotFound() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(uri())
            .header("Content-Type", "text/plain")
            .header("X-Amz-Target", "DynamoDB_20120810.ListTables")
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).isEqualTo("<UnknownOperationException/>\n");
  }

  @Test
  void severalRequestsShareOneKeptAliveConnection() throws Exception {
    try (Socket socket = socket()) {
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      for (int i = 0; i < 3; i++) {
        out.write(rawPost("DescribeTable", "{\"TableName\":" + i + "}"));
        out.flush();
        RawResponse response = RawResponse.read(in);
        assertThat(response.status).isEqualTo(400);
        assertThat(response.body).contains("NUMBER_VALUE cannot be converted to String");
      }
    }
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrder() throws Exception {
    try (Socket socket = socket()) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      all.write(rawPost("DescribeTable", "{\"TableName\":1}"));
      all.write(rawPost("DescribeTable", "{\"TableName\":true}"));
      all.write(("GET / HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      all.write(rawPost("DescribeTable", "{\"TableName\":[]}"));
      socket.getOutputStream().write(all.toByteArray());
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      assertThat(RawResponse.read(in).body).contains("NUMBER_VALUE");
      assertThat(RawResponse.read(in).body).contains("TRUE_VALUE");
      assertThat(RawResponse.read(in).body).startsWith("healthy");
      assertThat(RawResponse.read(in).body).contains("Unrecognized collection type");
    }
  }

  /** With the calls on the event loops, a write and the reads after it still answer in order. */
  @Test
  void pipelinedWritesAndReadsAreAnsweredInOrderWithCallsOnTheEventLoops() throws Exception {
    try (StatorServer inline =
            StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1", true);
        Socket socket = new Socket("127.0.0.1", inline.port())) {
      socket.setSoTimeout(10_000);
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      all.write(rawPost("CreateTable", "{\"TableName\":\"pipe\",\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
          + "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}"));
      for (int i = 0; i < 20; i++) {
        all.write(rawPost("PutItem",
            "{\"TableName\":\"pipe\",\"Item\":{\"k\":{\"S\":\"a\"},\"n\":{\"N\":\"" + i + "\"}}}"));
        all.write(rawPost("GetItem",
            "{\"TableName\":\"pipe\",\"Key\":{\"k\":{\"S\":\"a\"}},\"ConsistentRead\":true}"));
      }
      socket.getOutputStream().write(all.toByteArray());
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      assertThat(RawResponse.read(in).body).contains("\"TableStatus\"");
      for (int i = 0; i < 20; i++) {
        assertThat(RawResponse.read(in).status).isEqualTo(200);
        assertThat(RawResponse.read(in).body).contains("\"n\":{\"N\":\"" + i + "\"}");
      }
    }
  }

  @Test
  void anOversizedBodyIsRequestEntityTooLarge() throws Exception {
    try (Socket socket = socket()) {
      String head =
          "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
              + "X-Amz-Target: DynamoDB_20120810.PutItem\r\nAuthorization: "
              + AUTH
              + "\r\nContent-Length: "
              + (StatorServer.MAX_REQUEST_BYTES + 1)
              + "\r\n\r\n{\"TableName\":\"t\"";
      socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      RawResponse response = RawResponse.read(socket.getInputStream());
      assertThat(response.status).isEqualTo(413);
      assertThat(response.body).contains(PREFIX + "RequestEntityTooLarge");
    }
    // The server is still there.
    assertThat(post("ListTables", "{}", null).statusCode()).isEqualTo(400);
  }

  /** Only the sweep's own path, with or without a query, sweeps; a longer path is DynamoDB's. */
  @Test
  void theSweepAnswersItsPathOnly() throws Exception {
    try (Socket socket = socket()) {
      String listTables = new String(rawPost("ListTables", "{}"), StandardCharsets.UTF_8);
      socket.getOutputStream().write(listTables.replace("POST / ", "POST /stator/ttl/sweep?now ")
          .getBytes(StandardCharsets.UTF_8));
      assertThat(RawResponse.read(socket.getInputStream()).body).contains("\"DeletedItems\"");
      socket.getOutputStream().write(listTables.replace("POST / ", "POST /stator/ttl/sweeper ")
          .getBytes(StandardCharsets.UTF_8));
      assertThat(RawResponse.read(socket.getInputStream()).body).contains("TableNames");
    }
  }

  /**
   * A malformed percent-escape in the URI is the client's mistake: a DynamoDB call on such a path
   * is answered as on any other, a presigned-looking one is unauthenticated, and the partitions
   * endpoint says 400. Each used to throw while decoding, which closed the connection unanswered.
   */
  @Test
  void aMalformedEscapeInTheUriIsAnsweredNotDropped() throws Exception {
    try (Socket socket = socket()) {
      String listTables = new String(rawPost("ListTables", "{}"), StandardCharsets.UTF_8);
      socket.getOutputStream().write(
          listTables.replace("POST / ", "POST /%zz ").getBytes(StandardCharsets.UTF_8));
      RawResponse call = RawResponse.read(socket.getInputStream());
      assertThat(call.status).isEqualTo(200);
      assertThat(call.body).contains("TableNames");

      socket.getOutputStream().write((listTables.replace("POST / ", "POST /?X-Amz-Algorithm=%zz ")
          .replaceAll("Authorization: [^\r]*\r\n", "")).getBytes(StandardCharsets.UTF_8));
      RawResponse presigned = RawResponse.read(socket.getInputStream());
      assertThat(presigned.status).isEqualTo(400);
      assertThat(presigned.body).contains("MissingAuthenticationTokenException");

      socket.getOutputStream().write(
          "GET /stator/tables/%zz/partitions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      RawResponse partitions = RawResponse.read(socket.getInputStream());
      assertThat(partitions.status).isEqualTo(400);
      assertThat(partitions.body).contains("Malformed percent-escape");
    }
  }

  @Test
  void garbledHttpIsABadRequest() throws Exception {
    try (Socket socket = socket()) {
      String garbled = "POST / HTTP/1.1\r\nContent-Length: banana\r\n\r\n";
      socket.getOutputStream().write(garbled.getBytes(StandardCharsets.US_ASCII));
      RawResponse response = RawResponse.read(socket.getInputStream());
      assertThat(response.status).isEqualTo(400);
    }
    try (Socket socket = socket()) {
      socket.getOutputStream().write(new byte[] {0, 1, 2, (byte) 0xff, '\r', '\n', '\r', '\n'});
      RawResponse response = RawResponse.read(socket.getInputStream());
      assertThat(response.status).isEqualTo(400);
    }
    assertThat(post("ListTables", "{}", null).statusCode()).isEqualTo(400);
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static URI uri() {
    return URI.create("http://127.0.0.1:" + server.port() + "/");
  }

  private static Socket socket() throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static HttpResponse<String> post(String operation, String body, String auth)
      throws Exception {
    return post(operation, body, auth, false);
  }

  private static HttpResponse<String> post(
      String operation, String body, String auth, boolean rawTarget) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri())
            .header("Content-Type", "application/x-amz-json-1.0")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    String target = rawTarget ? operation : "DynamoDB_20120810." + operation;
    if (!target.isEmpty()) {
      request.header("X-Amz-Target", target);
    }
    if (auth != null) {
      request.header("Authorization", auth);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<byte[]> postBytes(String operation, String body, String auth)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri())
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "DynamoDB_20120810." + operation)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (auth != null) {
      request.header("Authorization", auth);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** A signed-looking POST of {@code operation} with {@code body}, as raw HTTP/1.1 bytes. */
  static byte[] rawPost(String operation, String body) {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
            + "X-Amz-Target: DynamoDB_20120810."
            + operation
            + "\r\nAuthorization: "
            + AUTH
            + "\r\nContent-Length: "
            + content.length
            + "\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    byte[] all = new byte[h.length + content.length];
    System.arraycopy(h, 0, all, 0, h.length);
    System.arraycopy(content, 0, all, h.length, content.length);
    return all;
  }

  /** A response read off a raw socket: status line, headers, Content-Length body. */
  record RawResponse(int status, Map<String, String> headers, String body) {
    static RawResponse read(InputStream in) throws IOException {
      String statusLine = line(in);
      int status = Integer.parseInt(statusLine.split(" ")[1]);
      Map<String, String> headers = new LinkedHashMap<>();
      for (String line = line(in); !line.isEmpty(); line = line(in)) {
        int colon = line.indexOf(':');
        headers.put(
            line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).trim());
      }
      int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
      byte[] body = in.readNBytes(length);
      return new RawResponse(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new IOException("connection closed after: " + line);
        }
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }
  }
}
