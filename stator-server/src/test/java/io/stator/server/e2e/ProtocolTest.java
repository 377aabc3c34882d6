package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The wire protocol as the SDK sees it: errors become the SDK's typed exceptions with the right
 * error code and HTTP 400, responses carry a request id and a CRC32, and a few requests no SDK
 * would send (no signature, unknown operation, broken JSON) get DynamoDB's protocol errors.
 *
 * <p>Only the error name after the '#' of {@code __type} is asserted for the protocol errors:
 * DynamoDB prefixes some with {@code com.amazon.coral.service#}, and the SDKs read the name
 * alone.
 */
class ProtocolTest extends EndToEndTest {
  private static final String SIGNATURE = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/"
      + "us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, "
      + "Signature=0000000000000000000000000000000000000000000000000000000000000000";

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void errorsMapToTheSdksTypedExceptions() {
    String table = createTable("typed-errors", "id", ScalarAttributeType.S);

    ResourceNotFoundException notFound = assertError(ResourceNotFoundException.class,
        "ResourceNotFoundException", "Requested resource not found",
        () -> dynamo.getItem(r -> r.tableName(table + "-missing").key(item("id", s("a")))));
    assertThat(notFound.requestId()).isNotBlank();

    assertErrorContaining(ResourceInUseException.class, "ResourceInUseException", "",
        () -> dynamo.createTable(r -> r.tableName(table)
            .keySchema(key("id", software.amazon.awssdk.services.dynamodb.model.KeyType.HASH))
            .attributeDefinitions(attribute("id", ScalarAttributeType.S))
            .billingMode("PAY_PER_REQUEST")));

    DynamoDbException validation = assertValidation(
        "One or more parameter values were invalid: Missing the key id in the item",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("other", s("a")))));
    // A ValidationException has no class of its own in the SDK.
    assertThat(validation.getClass()).isEqualTo(DynamoDbException.class);
    assertThat(validation.isThrottlingException()).isFalse();
  }

  @Test
  void failedConditionIsConditionalCheckFailedException() {
    String table = createTable("condition", "id", ScalarAttributeType.S);
    dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"), "v", n("1"))));
    assertError(ConditionalCheckFailedException.class, "ConditionalCheckFailedException",
        "The conditional request failed",
        () -> dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"), "v", n("2")))
            .conditionExpression("attribute_not_exists(id)")));
    assertThat(dynamo.getItem(r -> r.tableName(table).key(item("id", s("a")))).item().get("v"))
        .isEqualTo(n("1"));
  }

  @Test
  void responsesCarryARequestIdAndACrc32() {
    String table = createTable("headers", "id", ScalarAttributeType.S);
    PutItemResponse response =
        dynamo.putItem(r -> r.tableName(table).item(item("id", s("a"))));
    assertThat(response.responseMetadata().requestId()).isNotBlank().isNotEqualTo("UNKNOWN");
    Map<String, String> headers = endpoint.lastResponseHeaders();
    assertThat(headers.get("x-amzn-requestid")).isEqualTo(response.responseMetadata().requestId());
    // The SDK checks the CRC32 of DynamoDB responses itself when the header is present.
    assertThat(headers.get("x-amz-crc32")).isNotNull().matches("\\d+");
    assertThat(Long.parseLong(headers.get("x-amz-crc32"))).isBetween(0L, 0xFFFFFFFFL);
  }

  @Test
  void getSlashAnswersHealthy() throws Exception {
    HttpResponse<String> response = http.send(
        HttpRequest.newBuilder(endpoint.uri().resolve("/")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).startsWith("healthy: dynamodb.");
  }

  @Test
  void requestWithoutSignatureIsMissingAuthenticationToken() throws Exception {
    HttpResponse<String> response = post(null, "DynamoDB_20120810.ListTables", "{}");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .contains("#MissingAuthenticationTokenException\"")
        .contains("Request is missing Authentication Token");
  }

  @Test
  void unknownOperationIsUnknownOperationException() throws Exception {
    HttpResponse<String> response = post(SIGNATURE, "DynamoDB_20120810.MakeCoffee", "{}");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("#UnknownOperationException\"");
  }

  @Test
  void anOperationOnlyAnAwsAccountHasIsAValidationErrorThatSaysWhatToUseInstead()
      throws Exception {
    // Not UnknownOperationException: the AWS CLI would print "An error occurred
    // (UnknownOperationException) when calling the CreateGlobalTable operation" and no reason.
    HttpResponse<String> response =
        post(SIGNATURE, "DynamoDB_20120810.CreateGlobalTable",
            "{\"GlobalTableName\":\"gt\","
                + "\"ReplicationGroup\":[{\"RegionName\":\"us-west-2\"}]}");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .contains("#ValidationException\"")
        .contains("CreateGlobalTable is not available in Stator")
        .contains("StreamSpecification");
    response = post(SIGNATURE, "DynamoDB_20120810.EnableKinesisStreamingDestination",
        "{\"TableName\":\"Orders\",\"StreamArn\":\"arn:aws:kinesis:us-east-1:000000000000:"
            + "stream/s\"}");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("#ValidationException\"")
        .contains("no Amazon Kinesis Data Streams");
    // Unsigned, it is refused for that first, as any operation is.
    assertThat(post(null, "DynamoDB_20120810.ListGlobalTables", "{}").body())
        .contains("#MissingAuthenticationTokenException\"");
    // A name DynamoDB does not know keeps DynamoDB's bare answer.
    assertThat(post(SIGNATURE, "DynamoDB_20120810.MakeCoffee", "{}").body())
        .contains("#UnknownOperationException\"")
        .doesNotContain("message");
  }

  @Test
  void malformedJsonIsSerializationException() throws Exception {
    HttpResponse<String> response =
        post(SIGNATURE, "DynamoDB_20120810.ListTables", "{\"Limit\": ");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("#SerializationException\"");

    HttpResponse<String> wrongType =
        post(SIGNATURE, "DynamoDB_20120810.ListTables", "{\"Limit\": \"ten\"}");
    assertThat(wrongType.statusCode()).isEqualTo(400);
    assertThat(wrongType.body()).contains("#SerializationException\"");
  }

  @Test
  void garbageIsAClientErrorAndTheServerCarriesOn() throws Exception {
    byte[] garbage = new byte[64 * 1024];
    new java.util.Random(1).nextBytes(garbage);
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint.uri())
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "DynamoDB_20120810.PutItem")
            .header("Authorization", SIGNATURE)
            .POST(HttpRequest.BodyPublishers.ofByteArray(garbage))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isBetween(400, 499);
    assertThat(dynamo.listTables(r -> r.limit(1)).sdkHttpResponse().statusCode()).isEqualTo(200);
  }

  private HttpResponse<String> post(String authorization, String target, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint.uri() + "/"))
        .header("Content-Type", "application/x-amz-json-1.0")
        .header("X-Amz-Target", target)
        .header("X-Amz-Date", "20260101T000000Z")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
