package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Every request is checked against the constraints of DynamoDB's service model before it runs,
 * and answered with DynamoDB's words: each kind of constraint (length, value, pattern, enum,
 * required), in nested lists and maps, several in one message in the model's member order, for
 * every family of operations. The tables these requests name need not exist: DynamoDB checks
 * the request before it looks for its table.
 */
class ModelConstraintsTest extends EndToEndTest {
  private static final String PREFIX = "1 validation error detected: ";

  @Test
  void anItemOperationTakesATableNameOrArnOfOneTo1024Characters() {
    assertValidation(PREFIX + "Value '' at 'tableName' failed to satisfy constraint: Member must"
            + " have length greater than or equal to 1",
        () -> dynamo.getItem(r -> r.tableName("").key(item("pk", s("a")))));
    String long1025 = "t".repeat(1025);
    assertValidation(PREFIX + "Value '" + long1025 + "' at 'tableName' failed to satisfy"
            + " constraint: Member must have length less than or equal to 1024",
        () -> dynamo.deleteItem(r -> r.tableName(long1025).key(item("pk", s("a")))));
  }

  @Test
  void requiredMembersAreNamedInTheModelsOrder() {
    assertValidation("2 validation errors detected: Value null at 'tableName' failed to satisfy"
            + " constraint: Member must not be null; Value null at 'key' failed to satisfy"
            + " constraint: Member must not be null",
        () -> dynamo.getItem(r -> r.consistentRead(true)));
  }

  @Test
  void aBatchWithoutRequestItemsIsRefusedInDynamoDbsOwnSentence() {
    // Missing or empty, and before any other error of the request (an invalid enum here).
    assertValidation("The requestItems parameter is required for BatchGetItem",
        () -> dynamo.batchGetItem(r -> r.returnConsumedCapacity("ALL")));
    assertValidation("The requestItems parameter is required for BatchGetItem",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of())));
    assertValidation("The requestItems parameter is required for BatchWriteItem",
        () -> dynamo.batchWriteItem(r -> r.returnItemCollectionMetrics("ALL")));
    assertValidation("The requestItems parameter is required for BatchWriteItem",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of())));
    // Given, its own constraints are the model's as ever.
    assertValidation(PREFIX + "Value '[]' at 'requestItems.orders.member.keys' failed to satisfy"
            + " constraint: Member must have length greater than or equal to 1",
        () -> dynamo.batchGetItem(r -> r.requestItems(
            Map.of("orders", KeysAndAttributes.builder().keys(List.of()).build()))));
  }

  @Test
  void aKeyAttributesNameIsAtMost255Characters() {
    String name = "k".repeat(256);
    assertValidation("2 validation errors detected: Value '" + name + "' at"
            + " 'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member"
            + " must have length less than or equal to 255; Value '" + name + "' at"
            + " 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must have"
            + " length less than or equal to 255",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("long-key"))
            .keySchema(key(name, KeyType.HASH)).attributeDefinitions(attribute(name, S))
            .billingMode("PAY_PER_REQUEST")));
  }

  @Test
  void anEnumListsTheModelsValueSet() {
    assertValidation(PREFIX + "Value 'FREE' at 'billingMode' failed to satisfy constraint: Member"
            + " must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("enum"))
            .keySchema(key("pk", KeyType.HASH)).attributeDefinitions(attribute("pk", S))
            .billingMode("FREE")));
  }

  @Test
  void nestedListMembersAndSeveralErrorsFollowTheModelsMemberOrder() {
    // The SDK writes BillingMode after the lists; DynamoDB reports in its model's order.
    assertValidation("3 validation errors detected: Value 'BOOL' at"
            + " 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member"
            + " must satisfy enum value set: [B, N, S]; Value 'PRIMARY' at"
            + " 'keySchema.1.member.keyType' failed to satisfy constraint: Member must satisfy"
            + " enum value set: [HASH, RANGE]; Value 'FREE' at 'billingMode' failed to satisfy"
            + " constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("nested"))
            .attributeDefinitions(AttributeDefinition.builder().attributeName("pk")
                .attributeType("BOOL").build())
            .keySchema(KeySchemaElement.builder().attributeName("pk").keyType("PRIMARY").build())
            .billingMode("FREE")));
  }

  @Test
  void whereDynamoDbIsRecordedToOrderMembersOtherwiseItsOrderIsKept() {
    // An empty attribute definition and an empty throughput: the type before the name, the
    // write capacity before the read capacity, as DynamoDB answers.
    assertValidation("4 validation errors detected: Value null at"
            + " 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member"
            + " must not be null; Value null at 'attributeDefinitions.1.member.attributeName'"
            + " failed to satisfy constraint: Member must not be null; Value null at"
            + " 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member"
            + " must not be null; Value null at 'provisionedThroughput.readCapacityUnits' failed"
            + " to satisfy constraint: Member must not be null",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("order"))
            .keySchema(key("pk", KeyType.HASH))
            .attributeDefinitions(AttributeDefinition.builder().build())
            .provisionedThroughput(t -> { })));
    assertValidation("2 validation errors detected: Value null at"
            + " 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must"
            + " not be null; Value null at 'timeToLiveSpecification.enabled' failed to satisfy"
            + " constraint: Member must not be null",
        () -> dynamo.updateTimeToLive(r -> r.tableName("orders")
            .timeToLiveSpecification(t -> { })));
    assertValidation(PREFIX + "Value '' at 'streamSpecification.streamViewType' failed to"
            + " satisfy constraint: Member must satisfy enum value set: [OLD_IMAGE, KEYS_ONLY,"
            + " NEW_AND_OLD_IMAGES, NEW_IMAGE]",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("views"))
            .keySchema(key("pk", KeyType.HASH)).attributeDefinitions(attribute("pk", S))
            .billingMode("PAY_PER_REQUEST")
            .streamSpecification(v -> v.streamEnabled(true).streamViewType(""))));
  }

  @Test
  void namesDynamoDbChecksByItsOwnRules() {
    // DescribeTable checks its name as a table name: the length, then the pattern.
    assertValidation("2 validation errors detected: Value '' at 'tableName' failed to satisfy"
            + " constraint: Member must have length greater than or equal to 3; Value '' at"
            + " 'tableName' failed to satisfy constraint: Member must satisfy regular expression"
            + " pattern: [a-zA-Z0-9_.-]+",
        () -> dynamo.describeTable(r -> r.tableName("")));
    // Contributor Insights words an index name's length in a sentence of its own.
    String sentence = "IndexName must be at least 3 characters long and at most 255 characters long";
    assertValidation(sentence, () -> dynamo.describeContributorInsights(
        r -> r.tableName("orders").indexName("")));
    assertValidation(sentence, () -> dynamo.updateContributorInsights(
        r -> r.tableName("orders").indexName("ab").contributorInsightsAction("ENABLE")));
  }

  @Test
  void anIndexNameMustMatchThePatternAndLength() {
    GlobalSecondaryIndex index = GlobalSecondaryIndex.builder()
        .indexName("by name!")
        .keySchema(key("name", KeyType.HASH))
        .projection(p -> p.projectionType(ProjectionType.ALL))
        .build();
    GlobalSecondaryIndex shortName = index.toBuilder().indexName("ab").build();
    GlobalSecondaryIndex empty = index.toBuilder().indexName("").build();
    assertValidation("2 validation errors detected: Value '' at"
            + " 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member"
            + " must have length greater than or equal to 3; Value '' at"
            + " 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member"
            + " must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        () -> createWithIndexes(empty));
    assertValidation("2 validation errors detected: Value 'by name!' at"
            + " 'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member"
            + " must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value 'ab' at"
            + " 'globalSecondaryIndexes.2.member.indexName' failed to satisfy constraint: Member"
            + " must have length greater than or equal to 3",
        () -> createWithIndexes(index, shortName));
  }

  private void createWithIndexes(GlobalSecondaryIndex... indexes) {
    dynamo.createTable(r -> r.tableName(uniqueTableName("index-names"))
        .keySchema(key("pk", KeyType.HASH))
        .attributeDefinitions(attribute("pk", S), attribute("name", S))
        .billingMode("PAY_PER_REQUEST")
        .globalSecondaryIndexes(indexes));
  }

  @Test
  void atMostTenErrorsAreListed() {
    List<AttributeDefinition> definitions = new ArrayList<>();
    for (int i = 1; i <= 12; i++) {
      definitions.add(
          AttributeDefinition.builder().attributeName("a" + i).attributeType("X").build());
    }
    DynamoDbException error = assertValidationContaining("10 validation errors detected: ",
        () -> dynamo.createTable(r -> r.tableName(uniqueTableName("ten"))
            .keySchema(key("a1", KeyType.HASH)).attributeDefinitions(definitions)));
    String message = error.awsErrorDetails().errorMessage();
    assertThat(message.split("; ")).hasSize(10);
    assertThat(message).contains("'attributeDefinitions.10.member.attributeType'")
        .doesNotContain("'attributeDefinitions.11.member.attributeType'");
  }

  @Test
  void queryAndScanNumbersAndEnums() {
    assertValidation("2 validation errors detected: Value 'EVERYTHING' at 'select' failed to"
            + " satisfy constraint: Member must satisfy enum value set: [ALL_ATTRIBUTES,"
            + " ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES, COUNT]; Value '0' at 'limit'"
            + " failed to satisfy constraint: Member must have value greater than or equal to 1",
        () -> dynamo.query(r -> r.tableName("orders").limit(0).select("EVERYTHING")
            .keyConditionExpression("pk = :v")
            .expressionAttributeValues(Map.of(":v", s("a")))));
    // TotalSegments comes before Segment in the model.
    assertValidation("2 validation errors detected: Value '1000001' at 'totalSegments' failed"
            + " to satisfy constraint: Member must have value less than or equal to 1000000;"
            + " Value '1000000' at 'segment' failed to satisfy constraint: Member must have value"
            + " less than or equal to 999999",
        () -> dynamo.scan(r -> r.tableName("orders").segment(1_000_000)
            .totalSegments(1_000_001)));
  }

  @Test
  void batchesCheckTheirMapsKeysAndValues() {
    List<WriteRequest> writes = new ArrayList<>();
    for (int i = 0; i < 26; i++) {
      writes.add(WriteRequest.builder()
          .putRequest(PutRequest.builder().item(item("pk", s("k" + i))).build()).build());
    }
    String writeRequest = "com\\.amazonaws\\.dynamodb\\.v20120810\\.WriteRequest@[0-9a-f]+";
    DynamoDbException tooMany = assertValidationContaining("at 'requestItems' failed",
        () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of("orders", writes))));
    assertThat(tooMany.awsErrorDetails().errorMessage())
        .matches(java.util.regex.Pattern.quote(PREFIX + "Value '{orders=[") + writeRequest
            + "(, " + writeRequest + "){25}\\]\\}' at 'requestItems' failed to satisfy"
            + " constraint: Map value must satisfy constraint: \\[Member must have length less"
            + " than or equal to 25, Member must have length greater than or equal to 1\\]");

    DynamoDbException badTable = assertValidationContaining("at 'requestItems' failed",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of("",
            KeysAndAttributes.builder().keys(item("pk", s("a"))).build()))));
    assertThat(badTable.awsErrorDetails().errorMessage())
        .matches(java.util.regex.Pattern.quote(PREFIX + "Value '{=")
            + "com\\.amazonaws\\.dynamodb\\.v20120810\\.KeysAndAttributes@[0-9a-f]+\\}' at"
            + " 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint:"
            + " \\[Member must have length less than or equal to 1024, Member must have length"
            + " greater than or equal to 1\\]");

    List<Map<String, AttributeValue>> keys = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      keys.add(item("pk", s("k" + i)));
    }
    DynamoDbException tooManyKeys = assertValidationContaining("at 'requestItems.orders",
        () -> dynamo.batchGetItem(r -> r.requestItems(Map.of("orders",
            KeysAndAttributes.builder().keys(keys).build()))));
    assertThat(tooManyKeys.awsErrorDetails().errorMessage())
        .startsWith(PREFIX + "Value '[{pk={S: k0,}}, {pk={S: k1,}}, ")
        .endsWith("{pk={S: k100,}}]' at 'requestItems.orders.member.keys' failed to satisfy"
            + " constraint: Member must have length less than or equal to 100");
  }

  @Test
  void aMapsValuesAreCheckedAsTheMapsAndAnItemIsNeverPrinted() {
    String longName = "n".repeat(65_536);
    assertValidation(PREFIX + "Value '{#n=" + longName + "}' at 'expressionAttributeNames' failed"
            + " to satisfy constraint: Map value must satisfy constraint: [Member must have length"
            + " less than or equal to 65535]",
        () -> dynamo.getItem(r -> r.tableName("orders").key(item("pk", s("a")))
            .projectionExpression("#n").expressionAttributeNames(Map.of("#n", longName))));
    // An attribute name past the model's bound: the item it is in is not repeated back.
    assertValidation(PREFIX + "Value at 'item' failed to satisfy constraint: Map keys must"
            + " satisfy constraint: [Member must have length less than or equal to 65535]",
        () -> dynamo.putItem(r -> r.tableName("orders")
            .item(item("pk", s("a"), longName, s("v")))));
  }

  @Test
  void transactionsCheckEveryAction() {
    assertValidation(PREFIX + "Value '[]' at 'transactItems' failed to satisfy constraint: Member"
            + " must have length greater than or equal to 1",
        () -> dynamo.transactWriteItems(r -> r.transactItems(List.of())));
    assertValidation(PREFIX + "Value null at 'transactItems.2.member.get.tableName' failed to"
            + " satisfy constraint: Member must not be null",
        () -> dynamo.transactGetItems(r -> r.transactItems(
            TransactGetItem.builder().get(g -> g.tableName("orders").key(item("pk", s("a"))))
                .build(),
            TransactGetItem.builder().get(g -> g.key(item("pk", s("b")))).build())));
  }

  @Test
  void streamsOperationsCheckTheStreamsModel() {
    DynamoDbStreamsClient streams = endpoint.streamsClient();
    assertValidation("2 validation errors detected: Value 'arn' at 'streamArn' failed to satisfy"
            + " constraint: Member must have length greater than or equal to 37; Value '0' at"
            + " 'limit' failed to satisfy constraint: Member must have value greater than or"
            + " equal to 1",
        () -> streams.describeStream(r -> r.streamArn("arn").limit(0)));
    assertValidation(PREFIX + "Value '' at 'shardIterator' failed to satisfy constraint: Member"
            + " must have length greater than or equal to 1",
        () -> streams.getRecords(r -> r.shardIterator("")));
  }

  private static final software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType S =
      software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S;
}
