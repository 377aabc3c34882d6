package io.stator.server.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.api.AttributeDefinition;
import io.stator.api.BillingModeSummary;
import io.stator.api.Condition;
import io.stator.api.ConsumedCapacity;
import io.stator.api.CreateTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GetItemResponse;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListTablesResponse;
import io.stator.api.Projection;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.ProvisionedThroughputDescription;
import io.stator.api.QueryRequest;
import io.stator.api.QueryResponse;
import io.stator.api.SSESpecification;
import io.stator.api.TableDescription;
import io.stator.api.UpdateTableRequest;
import io.stator.value.AttributeValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Request shapes read member by member, response shapes written as DynamoDB writes them. */
class ShapesTest {
  private static final JsonFactory JSON = new JsonFactory();

  @Test
  void readsACreateTableRequest() throws IOException {
    CreateTableRequest r =
        JsonInputTest.root(
            """
            {"TableName":"Orders",
             "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                                     {"AttributeName":"sk","AttributeType":"N"}],
             "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                          {"AttributeName":"sk","KeyType":"RANGE"}],
             "LocalSecondaryIndexes":[{"IndexName":"bySk","KeySchema":[
                 {"AttributeName":"pk","KeyType":"HASH"}],
                 "Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],
             "BillingMode":"PROVISIONED",
             "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7},
             "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},
             "Tags":[{"Key":"k","Value":"v"}],
             "SSESpecification":{"Enabled":true},
             "DeletionProtectionEnabled":false}
            """,
            Requests.CREATE_TABLE);
    assertThat(r.tableName()).isEqualTo("Orders");
    assertThat(r.attributeDefinitions())
        .containsExactly(new AttributeDefinition("pk", "S"), new AttributeDefinition("sk", "N"));
    assertThat(r.keySchema())
        .containsExactly(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("sk", "RANGE"));
    assertThat(r.localSecondaryIndexes()).hasSize(1);
    assertThat(r.localSecondaryIndexes().get(0).projection())
        .isEqualTo(new Projection("INCLUDE", List.of("a")));
    assertThat(r.billingMode()).isEqualTo("PROVISIONED");
    assertThat(r.provisionedThroughput()).isEqualTo(new ProvisionedThroughput(5L, 7L));
    assertThat(r.streamSpecification().streamViewType()).isEqualTo("NEW_IMAGE");
    assertThat(r.tags()).hasSize(1);
    assertThat(r.deletionProtectionEnabled()).isFalse();
    assertThat(r.sseSpecification()).isEqualTo(new SSESpecification(true, null, null));
    assertThat(r.globalSecondaryIndexes()).isNull();
  }

  @Test
  void readsAQueryRequest() throws IOException {
    QueryRequest r =
        JsonInputTest.root(
            """
            {"TableName":"t","IndexName":"i","Select":"COUNT","Limit":10,
             "ConsistentRead":true,"ScanIndexForward":false,
             "ExclusiveStartKey":{"pk":{"S":"a"},"sk":{"N":"2"}},
             "KeyConditionExpression":"#p = :v AND begins_with(sk, :s)",
             "ExpressionAttributeNames":{"#p":"pk"},
             "ExpressionAttributeValues":{":v":{"S":"a"},":s":{"S":"ORDER#"}},
             "KeyConditions":{"pk":{"AttributeValueList":[{"S":"a"}],"ComparisonOperator":"EQ"}}}
            """,
            Requests::query);
    assertThat(r.tableName()).isEqualTo("t");
    assertThat(r.indexName()).isEqualTo("i");
    assertThat(r.select()).isEqualTo("COUNT");
    assertThat(r.limit()).isEqualTo(10);
    assertThat(r.consistentRead()).isTrue();
    assertThat(r.scanIndexForward()).isFalse();
    assertThat(r.exclusiveStartKey())
        .containsEntry("pk", AttributeValue.s("a"))
        .containsEntry("sk", AttributeValue.n("2"));
    assertThat(r.keyConditionExpression()).isEqualTo("#p = :v AND begins_with(sk, :s)");
    assertThat(r.expressionAttributeNames()).containsExactly(Map.entry("#p", "pk"));
    assertThat(r.expressionAttributeValues()).hasSize(2);
    assertThat(r.keyConditions())
        .containsExactly(
            Map.entry("pk", new Condition(List.of(AttributeValue.s("a")), "EQ")));
  }

  @Test
  void readsAnUpdateTableRequest() throws IOException {
    UpdateTableRequest r =
        JsonInputTest.root(
            """
            {"TableName":"t","BillingMode":"PAY_PER_REQUEST",
             "GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"old"}},
               {"Update":{"IndexName":"u","ProvisionedThroughput":
                   {"ReadCapacityUnits":1,"WriteCapacityUnits":2}}}]}
            """,
            Requests.UPDATE_TABLE);
    assertThat(r.billingMode()).isEqualTo("PAY_PER_REQUEST");
    assertThat(r.globalSecondaryIndexUpdates()).hasSize(2);
    assertThat(r.globalSecondaryIndexUpdates().get(0).delete().indexName()).isEqualTo("old");
    assertThat(r.globalSecondaryIndexUpdates().get(1).update().provisionedThroughput())
        .isEqualTo(new ProvisionedThroughput(1L, 2L));
  }

  @Test
  void writesATableDescriptionWithEpochSecondTimestampsAndNoNullMembers() throws IOException {
    TableDescription table =
        new TableDescription(
            List.of(new AttributeDefinition("pk", "S")),
            "t",
            List.of(new KeySchemaElement("pk", "HASH")),
            "ACTIVE",
            Instant.ofEpochSecond(1_700_000_000L, 123_000_000),
            new ProvisionedThroughputDescription(null, null, 0L, 0L, 0L),
            0L,
            0L,
            "arn:aws:dynamodb:us-east-1:000000000000:table/t",
            null,
            new BillingModeSummary("PAY_PER_REQUEST", Instant.ofEpochSecond(1_700_000_001L)),
            null,
            null,
            null,
            null,
            null,
            false,
            null,
            null,
            null,
            null);
    String json = write(g -> TableResponses.TABLE_DESCRIPTION.write(g, table));
    assertThat(json)
        .isEqualTo(
            "{\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
                + "\"TableName\":\"t\","
                + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
                + "\"TableStatus\":\"ACTIVE\",\"CreationDateTime\":1700000000.123,"
                + "\"ProvisionedThroughput\":{\"NumberOfDecreasesToday\":0,"
                + "\"ReadCapacityUnits\":0,\"WriteCapacityUnits\":0},"
                + "\"TableSizeBytes\":0,\"ItemCount\":0,"
                + "\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/t\","
                + "\"BillingModeSummary\":{\"BillingMode\":\"PAY_PER_REQUEST\","
                + "\"LastUpdateToPayPerRequestDateTime\":1700000001},"
                + "\"DeletionProtectionEnabled\":false}");
  }

  @Test
  void writesItemsAndPages() throws IOException {
    GetItemResponse missing = new GetItemResponse(null, null);
    assertThat(write(g -> Responses.getItem(g, missing))).isEqualTo("{}");

    QueryResponse page =
        new QueryResponse(
            List.of(Map.of("pk", AttributeValue.s("a"))),
            1,
            3,
            Map.of("pk", AttributeValue.s("a")),
            new ConsumedCapacity("t", 0.5, null, null, null, null, null));
    assertThat(write(g -> Responses.query(g, page)))
        .isEqualTo(
            "{\"Items\":[{\"pk\":{\"S\":\"a\"}}],\"Count\":1,\"ScannedCount\":3,"
                + "\"LastEvaluatedKey\":{\"pk\":{\"S\":\"a\"}},"
                + "\"ConsumedCapacity\":{\"TableName\":\"t\",\"CapacityUnits\":0.5}}");

    QueryResponse count = new QueryResponse(null, 4, 4, null, null);
    assertThat(write(g -> Responses.query(g, count))).isEqualTo("{\"Count\":4,\"ScannedCount\":4}");

    assertThat(write(g -> Responses.listTables(g, new ListTablesResponse(null, null))))
        .isEqualTo("{\"TableNames\":[]}");
  }

  @Test
  void errorBodiesCarryTheWireTypeAndTheMessage() throws IOException {
    assertThat(error(ErrorType.ValidationException, "bad", null))
        .isEqualTo(
            "{\"__type\":\"com.amazon.coral.validate#ValidationException\","
                + "\"message\":\"bad\"}");
    // DynamoDB's front end spells it Message in serialization errors.
    assertThat(error(ErrorType.SerializationException, "Unexpected field type", null))
        .isEqualTo(
            "{\"__type\":\"com.amazon.coral.service#SerializationException\","
                + "\"Message\":\"Unexpected field type\"}");
    assertThat(error(ErrorType.UnknownOperationException, null, null))
        .isEqualTo("{\"__type\":\"com.amazon.coral.service#UnknownOperationException\"}");
    DynamoDbException failed =
        DynamoDbException.conditionalCheckFailed(Map.of("pk", AttributeValue.s("a")));
    assertThat(error(failed.type(), failed.getMessage(), failed.item()))
        .isEqualTo(
            "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
                + "\"message\":\"The conditional request failed\","
                + "\"Item\":{\"pk\":{\"S\":\"a\"}}}");
  }

  @Test
  void everyDatabaseAndStreamsOperationIsServed() {
    // Database extends DynamoDbStreams: its own operations are those the Streams API has not
    List<String> streams = java.util.Arrays.stream(
            io.stator.api.DynamoDbStreams.class.getDeclaredMethods())
        .map(java.lang.reflect.Method::getName)
        .toList();
    List<String> methods =
        java.util.stream.Stream.concat(
                java.util.Arrays.stream(io.stator.api.Database.class.getDeclaredMethods())
                    .map(java.lang.reflect.Method::getName)
                    .filter(name -> !name.equals("close") && !streams.contains(name))
                    .map(name -> Character.toUpperCase(name.charAt(0)) + name.substring(1)),
                java.util.Arrays.stream(
                        io.stator.api.DynamoDbStreams.class.getDeclaredMethods())
                    .map(java.lang.reflect.Method::getName)
                    .map(name -> WireProtocol.STREAMS_TARGET_PREFIX
                        + Character.toUpperCase(name.charAt(0)) + name.substring(1)))
            .toList();
    assertThat(WireProtocol.operations()).containsExactlyInAnyOrderElementsOf(methods);
    assertThat(WireProtocol.operation("DynamoDBStreams_20120810.GetRecords"))
        .isEqualTo("DynamoDBStreams_20120810.GetRecords");
    assertThat(WireProtocol.operation("DynamoDB_20120810.GetRecords")).isNull();
    assertThat(WireProtocol.operation("DynamoDBStreams_20120810.PutItem")).isNull();
  }

  private static String error(ErrorType type, String message, Map<String, AttributeValue> item)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    WireProtocol.writeError(type, message, item, out);
    return out.toString(StandardCharsets.UTF_8);
  }

  @FunctionalInterface
  interface Body {
    void write(JsonGenerator generator) throws IOException;
  }

  private static String write(Body body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      body.write(generator);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
