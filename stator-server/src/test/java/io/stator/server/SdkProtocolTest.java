package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.CreateTableRequest;
import io.stator.api.CreateTableResponse;
import io.stator.api.Database;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteItemResponse;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DeleteTableResponse;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DescribeTableResponse;
import io.stator.api.DescribeTimeToLiveRequest;
import io.stator.api.DescribeTimeToLiveResponse;
import io.stator.api.GetItemRequest;
import io.stator.api.GetItemResponse;
import io.stator.api.ListTablesRequest;
import io.stator.api.ListTablesResponse;
import io.stator.api.PutItemRequest;
import io.stator.api.PutItemResponse;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateItemResponse;
import io.stator.api.UpdateTableRequest;
import io.stator.api.UpdateTableResponse;
import io.stator.api.UpdateTimeToLiveRequest;
import io.stator.api.UpdateTimeToLiveResponse;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The wire protocol as the AWS SDK for Java v2 sees it: it signs, sends AWS JSON 1.0, checks
 * {@code x-amz-crc32} on every response and maps {@code __type} to its exception classes.
 */
class SdkProtocolTest {
  private static StatorServer server;
  private static StatorServer failing;
  private static DynamoDbClient dynamo;

  @BeforeAll
  static void start() {
    server = StatorServer.start("127.0.0.1", 0, Stator.inMemory());
    failing = StatorServer.start("127.0.0.1", 0, new FailingDatabase());
    dynamo = client(server);
  }

  @AfterAll
  static void stop() {
    dynamo.close();
    server.close();
    failing.close();
  }

  static DynamoDbClient client(StatorServer s) {
    return client(s.port());
  }

  /** Creates an on-demand table keyed by a string partition key {@code pk} alone. */
  static void createTableKeyedByPk(DynamoDbClient dynamo, String table) {
    dynamo.createTable(
        b ->
            b.tableName(table)
                .attributeDefinitions(
                    a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .billingMode(BillingMode.PAY_PER_REQUEST));
  }

  /** An SDK client of the server on this loopback port, without retries. */
  static DynamoDbClient client(int port) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("key", "secret")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  @Test
  void tablesAndItemsRoundTripThroughTheSdk() {
    TableDescription created =
        dynamo
            .createTable(
                b ->
                    b.tableName("Orders")
                        .attributeDefinitions(
                            AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build(),
                            AttributeDefinition.builder()
                                .attributeName("sk")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                        .keySchema(
                            KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build(),
                            KeySchemaElement.builder()
                                .attributeName("sk")
                                .keyType(KeyType.RANGE)
                                .build())
                        .billingMode(BillingMode.PAY_PER_REQUEST))
            .tableDescription();
    assertThat(created.tableName()).isEqualTo("Orders");
    assertThat(created.creationDateTime()).isNotNull();

    TableDescription described = dynamo.describeTable(b -> b.tableName("Orders")).table();
    assertThat(described.keySchema()).hasSize(2);
    assertThat(described.tableArn()).endsWith(":table/Orders");
    assertThat(described.billingModeSummary().billingMode())
        .isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(dynamo.listTables().tableNames()).contains("Orders");

    Map<String, AttributeValue> item =
        Map.ofEntries(
            Map.entry("pk", AttributeValue.fromS("CUSTOMER#1")),
            Map.entry("sk", AttributeValue.fromS("ORDER#2")),
            Map.entry("n", AttributeValue.fromN("1.50")),
            Map.entry("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, -1}))),
            Map.entry("bool", AttributeValue.fromBool(true)),
            Map.entry("nul", AttributeValue.fromNul(true)),
            Map.entry("m", AttributeValue.fromM(Map.of("x", AttributeValue.fromS("y")))),
            Map.entry("l", AttributeValue.fromL(List.of(AttributeValue.fromN("1")))),
            Map.entry("ss", AttributeValue.fromSs(List.of("a", "b"))),
            Map.entry("ns", AttributeValue.fromNs(List.of("1", "2"))),
            Map.entry(
                "bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {7})))));
    dynamo.putItem(b -> b.tableName("Orders").item(item));
    dynamo.putItem(
        b ->
            b.tableName("Orders")
                .item(
                    Map.of(
                        "pk", AttributeValue.fromS("CUSTOMER#1"),
                        "sk", AttributeValue.fromS("ORDER#10"))));

    Map<String, AttributeValue> read =
        dynamo
            .getItem(
                b ->
                    b.tableName("Orders")
                        .consistentRead(true)
                        .key(
                            Map.of(
                                "pk", AttributeValue.fromS("CUSTOMER#1"),
                                "sk", AttributeValue.fromS("ORDER#2"))))
            .item();
    assertThat(read).hasSize(item.size());
    assertThat(read.get("n")).isEqualTo(AttributeValue.fromN("1.5"));
    assertThat(read.get("b")).isEqualTo(item.get("b"));
    assertThat(read.get("m")).isEqualTo(item.get("m"));
    assertThat(read.get("l")).isEqualTo(item.get("l"));
    assertThat(read.get("nul")).isEqualTo(item.get("nul"));
    assertThat(read.get("ss").ss()).containsExactlyInAnyOrder("a", "b");
    assertThat(read.get("bs")).isEqualTo(item.get("bs"));

    var query =
        dynamo.query(
            b ->
                b.tableName("Orders")
                    .keyConditionExpression("pk = :p AND begins_with(sk, :s)")
                    .expressionAttributeValues(
                        Map.of(
                            ":p", AttributeValue.fromS("CUSTOMER#1"),
                            ":s", AttributeValue.fromS("ORDER#")))
                    .scanIndexForward(false));
    assertThat(query.count()).isEqualTo(2);
    // Strings sort by UTF-8 bytes: ORDER#10 before ORDER#2; newest first reverses that.
    assertThat(query.items())
        .extracting(i -> i.get("sk").s())
        .containsExactly("ORDER#2", "ORDER#10");

    var scan = dynamo.scan(b -> b.tableName("Orders").limit(1));
    assertThat(scan.items()).hasSize(1);
    assertThat(scan.lastEvaluatedKey()).containsKeys("pk", "sk");

    Map<String, AttributeValue> old =
        dynamo
            .deleteItem(
                b ->
                    b.tableName("Orders")
                        .returnValues(ReturnValue.ALL_OLD)
                        .key(
                            Map.of(
                                "pk", AttributeValue.fromS("CUSTOMER#1"),
                                "sk", AttributeValue.fromS("ORDER#10"))))
            .attributes();
    assertThat(old).containsEntry("sk", AttributeValue.fromS("ORDER#10"));

    dynamo.deleteTable(b -> b.tableName("Orders"));
    assertThat(dynamo.listTables().tableNames()).doesNotContain("Orders");
  }

  @Test
  void errorTypesBecomeTheSdksExceptions() {
    assertThatThrownBy(() -> dynamo.describeTable(b -> b.tableName("NoSuchTable")))
        .isInstanceOfSatisfying(
            ResourceNotFoundException.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(400);
              assertThat(e.awsErrorDetails().errorMessage()).isNotBlank();
              assertThat(e.requestId()).isNotBlank();
            });
  }

  @Test
  void invalidAttributeValuesAreValidationExceptions() {
    AttributeValue twoTypes = AttributeValue.builder().s("x").n("1").build();
    assertThatThrownBy(
            () ->
                dynamo.putItem(
                    b -> b.tableName("Whatever").item(Map.of("pk", twoTypes))))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e -> {
              assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
              assertThat(e.awsErrorDetails().errorMessage())
                  .isEqualTo(
                      "Supplied AttributeValue has more than one datatypes set, "
                          + "must contain exactly one of the supported datatypes");
              assertThat(e.statusCode()).isEqualTo(400);
            });
    assertThatThrownBy(
            () ->
                dynamo.putItem(
                    b ->
                        b.tableName("Whatever")
                            .item(Map.of("pk", AttributeValue.builder().build()))))
        .isInstanceOfSatisfying(
            DynamoDbException.class,
            e ->
                assertThat(e.awsErrorDetails().errorMessage())
                    .startsWith("Supplied AttributeValue is empty"));
  }

  @Test
  void aFaultInTheDatabaseIsAnInternalServerError() {
    try (DynamoDbClient client = client(failing)) {
      assertThatThrownBy(client::listTables)
          .isInstanceOfSatisfying(
              DynamoDbException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(500);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InternalServerError");
              });
      // The connection and the server survive the fault.
      assertThatThrownBy(client::listTables).isInstanceOf(DynamoDbException.class);
    }
  }

  /** A database whose every operation fails as a bug would. */
  static final class FailingDatabase implements Database {
    private static RuntimeException bug() {
      return new IllegalStateException("a bug in the engine (raised on purpose by a test)");
    }

    @Override
    public CreateTableResponse createTable(CreateTableRequest r) {
      throw bug();
    }

    @Override
    public DescribeTableResponse describeTable(DescribeTableRequest r) {
      throw bug();
    }

    @Override
    public ListTablesResponse listTables(ListTablesRequest r) {
      throw bug();
    }

    @Override
    public DeleteTableResponse deleteTable(DeleteTableRequest r) {
      throw bug();
    }

    @Override
    public UpdateTableResponse updateTable(UpdateTableRequest r) {
      throw bug();
    }

    @Override
    public PutItemResponse putItem(PutItemRequest r) {
      throw bug();
    }

    @Override
    public GetItemResponse getItem(GetItemRequest r) {
      throw bug();
    }

    @Override
    public DeleteItemResponse deleteItem(DeleteItemRequest r) {
      throw bug();
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest r) {
      throw bug();
    }

    @Override
    public QueryResponse query(QueryRequest r) {
      throw bug();
    }

    @Override
    public ScanResponse scan(ScanRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.BatchGetItemResponse batchGetItem(io.stator.api.BatchGetItemRequest r) {
      throw bug();
    }

    @Override
    public UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.BatchWriteItemResponse batchWriteItem(
        io.stator.api.BatchWriteItemRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.TransactWriteItemsResponse transactWriteItems(
        io.stator.api.TransactWriteItemsRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.TransactGetItemsResponse transactGetItems(
        io.stator.api.TransactGetItemsRequest r) {
      throw bug();
    }

    @Override
    public DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.UpdateContributorInsightsResponse updateContributorInsights(
        io.stator.api.UpdateContributorInsightsRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.DescribeContributorInsightsResponse describeContributorInsights(
        io.stator.api.DescribeContributorInsightsRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.ListContributorInsightsResponse listContributorInsights(
        io.stator.api.ListContributorInsightsRequest r) {
      throw bug();
    }

    @Override
    public io.stator.api.TagResourceResponse tagResource(
        io.stator.api.TagResourceRequest request) {
      throw bug();
    }

    @Override
    public io.stator.api.UntagResourceResponse untagResource(
        io.stator.api.UntagResourceRequest request) {
      throw bug();
    }

    @Override
    public io.stator.api.ListTagsOfResourceResponse listTagsOfResource(
        io.stator.api.ListTagsOfResourceRequest request) {
      throw bug();
    }

    @Override
    public io.stator.api.DescribeContinuousBackupsResponse describeContinuousBackups(
        io.stator.api.DescribeContinuousBackupsRequest request) {
      throw bug();
    }

    @Override
    public io.stator.api.UpdateContinuousBackupsResponse updateContinuousBackups(
        io.stator.api.UpdateContinuousBackupsRequest request) {
      throw bug();
    }

    @Override
    public io.stator.api.DescribeLimitsResponse describeLimits(
        io.stator.api.DescribeLimitsRequest request) {
      throw bug();
    }

    @Override
    public io.stator.api.DescribeEndpointsResponse describeEndpoints(
        io.stator.api.DescribeEndpointsRequest request) {
      throw bug();
    }

    @Override
    public void close() {}
  }
}
