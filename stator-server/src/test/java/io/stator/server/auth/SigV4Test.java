package io.stator.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.capacity.ManualClock;
import io.stator.server.ServerLimits;
import io.stator.server.StatorServer;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * {@code --auth sigv4} through the AWS SDK's own signer: a request signed with a configured key
 * is served, and each way a signature can be wrong gets DynamoDB's error (unknown key, wrong
 * secret, a temporary key without its session token, a body changed after signing, a signature
 * 15 minutes out of time either way, none at all, one missing its parts); a presigned request is
 * served too.
 */
class SigV4Test {
  private static final String BODY = "{}";
  private final ManualClock clock = new ManualClock(Instant.now());
  private StatorServer server;

  @BeforeEach
  void start() {
    Credentials keys = Credentials.of(List.of(
        new Credential("AKIDSTATOR", "secret-one", null),
        new Credential("ASIATEMP", "secret-two", "session-token")));
    server = StatorServer.start("127.0.0.1", 0, Stator.inMemory(), "us-east-1", true, 1,
        ServerLimits.defaults(), new SigV4(keys, clock), null);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  private DynamoDbClient client(AwsCredentials credentials) {
    return DynamoDbClient.builder().endpointOverride(endpoint()).region(Region.EU_WEST_1)
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private static DynamoDbException failure(DynamoDbClient dynamo) {
    return catchThrowableOfType(() -> dynamo.listTables(), DynamoDbException.class);
  }

  @Test
  void aRequestSignedWithAConfiguredKeyIsServed() {
    try (DynamoDbClient dynamo = client(AwsBasicCredentials.create("AKIDSTATOR", "secret-one"));
        DynamoDbClient temporary = client(
            AwsSessionCredentials.create("ASIATEMP", "secret-two", "session-token"))) {
      assertThat(dynamo.listTables().tableNames()).isEmpty();
      assertThat(temporary.listTables().tableNames()).isEmpty();
    }
  }

  @Test
  void anUnknownKeyOrAMissingSessionTokenIsUnrecognized() {
    for (AwsCredentials wrong : List.of(
        AwsBasicCredentials.create("AKIDOTHER", "secret-one"),
        AwsBasicCredentials.create("ASIATEMP", "secret-two"),
        AwsSessionCredentials.create("ASIATEMP", "secret-two", "another-token"))) {
      try (DynamoDbClient dynamo = client(wrong)) {
        DynamoDbException e = failure(dynamo);
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnrecognizedClientException");
        assertThat(e.awsErrorDetails().errorMessage())
            .isEqualTo("The security token included in the request is invalid.");
      }
    }
  }

  @Test
  void aWrongSecretIsAnInvalidSignature() {
    try (DynamoDbClient dynamo = client(AwsBasicCredentials.create("AKIDSTATOR", "secret-x"))) {
      DynamoDbException e = failure(dynamo);
      assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidSignatureException");
      assertThat(e.awsErrorDetails().errorMessage()).startsWith(
          "The request signature we calculated does not match the signature you provided.");
    }
  }

  @Test
  void aSignatureOutOfItsTimeIsRefusedEitherWay() {
    try (DynamoDbClient dynamo = client(AwsBasicCredentials.create("AKIDSTATOR", "secret-one"))) {
      clock.advance(Duration.ofMinutes(16));
      DynamoDbException late = failure(dynamo);
      assertThat(late.awsErrorDetails().errorCode()).isEqualTo("InvalidSignatureException");
      assertThat(late.awsErrorDetails().errorMessage())
          .startsWith("Signature expired: ").contains(" is now earlier than ")
          .endsWith(" - 15 min.)");
      clock.advance(Duration.ofMinutes(-32));
      DynamoDbException early = failure(dynamo);
      assertThat(early.awsErrorDetails().errorMessage())
          .startsWith("Signature not yet current: ").endsWith(" + 15 min.)");
      clock.advance(Duration.ofMinutes(16));
      assertThat(dynamo.listTables().tableNames()).isEmpty();
    }
  }

  /** ListTables signed by the SDK's signer, header or query, then sent with {@code body}. */
  private HttpResponse<String> signedThenSent(String body, boolean presigned) throws Exception {
    SdkHttpFullRequest request = SdkHttpFullRequest.builder()
        .method(SdkHttpMethod.POST).uri(endpoint()).encodedPath("/")
        .putHeader("Content-Type", "application/x-amz-json-1.0")
        .putHeader("X-Amz-Target", "DynamoDB_20120810.ListTables")
        .build();
    SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
        .identity(AwsBasicCredentials.create("AKIDSTATOR", "secret-one"))
        .request(request)
        .payload(() -> new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)))
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "dynamodb")
        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
        .putProperty(AwsV4HttpSigner.AUTH_LOCATION, presigned
            ? AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING
            : AwsV4FamilyHttpSigner.AuthLocation.HEADER));
    SdkHttpRequest sent = signed.request();
    HttpRequest.Builder http = HttpRequest.newBuilder(sent.getUri())
        .POST(HttpRequest.BodyPublishers.ofString(body));
    for (Map.Entry<String, List<String>> header : sent.headers().entrySet()) {
      if (!header.getKey().equalsIgnoreCase("Host")) {
        header.getValue().forEach(v -> http.header(header.getKey(), v));
      }
    }
    return HttpClient.newHttpClient().send(http.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aBodyChangedAfterSigningIsRefusedAndAPresignedRequestIsServed() throws Exception {
    assertThat(signedThenSent(BODY, false).statusCode()).isEqualTo(200);
    HttpResponse<String> changed = signedThenSent("{\"Limit\":1}", false);
    assertThat(changed.statusCode()).isEqualTo(400);
    assertThat(changed.body()).contains("InvalidSignatureException");

    HttpResponse<String> presigned = signedThenSent(BODY, true);
    assertThat(presigned.statusCode()).as(presigned.body()).isEqualTo(200);
    assertThat(presigned.body()).contains("TableNames");
  }

  @Test
  void noSignatureOrOneMissingItsPartsIsRefused() throws Exception {
    HttpRequest.Builder base = HttpRequest.newBuilder(endpoint())
        .header("Content-Type", "application/x-amz-json-1.0")
        .header("X-Amz-Target", "DynamoDB_20120810.ListTables")
        .POST(HttpRequest.BodyPublishers.ofString(BODY));
    HttpResponse<String> none =
        HttpClient.newHttpClient().send(base.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(none.statusCode()).isEqualTo(400);
    assertThat(none.body()).contains("MissingAuthenticationTokenException");

    HttpResponse<String> partial = HttpClient.newHttpClient().send(
        base.header("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDSTATOR/20261205/us-east-1"
            + "/dynamodb/aws4_request").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(partial.statusCode()).isEqualTo(400);
    assertThat(partial.body()).contains("IncompleteSignatureException")
        .contains("Authorization header requires 'Signature' parameter.")
        .contains("Authorization header requires 'SignedHeaders' parameter.");
  }
}
