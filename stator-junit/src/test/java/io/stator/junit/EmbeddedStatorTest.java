package io.stator.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * {@link EmbeddedStator} started by hand, as a framework other than JUnit would: a GSI that lags
 * its table caught up on demand, and expired items swept on demand, so tests need not sleep.
 */
class EmbeddedStatorTest {
  private static DynamoDbClient client(EmbeddedStator stator) {
    return DynamoDbClient.builder()
        .endpointOverride(stator.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("local", "local")))
        .build();
  }

  @Test
  void aLaggingIndexIsAwaitedAndExpiredItemsAreSweptOnDemand() throws Exception {
    try (EmbeddedStator stator = EmbeddedStator.builder()
            .synchronousGlobalIndexes(false).gsiLag(Duration.ofMillis(300)).start();
        DynamoDbClient dynamo = client(stator)) {
      dynamo.createTable(b -> b.tableName("Orders")
          .attributeDefinitions(
              a -> a.attributeName("id").attributeType(ScalarAttributeType.S),
              a -> a.attributeName("status").attributeType(ScalarAttributeType.S))
          .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
          .globalSecondaryIndexes(g -> g.indexName("byStatus")
              .keySchema(k -> k.attributeName("status").keyType(KeyType.HASH))
              .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
          .billingMode(BillingMode.PAY_PER_REQUEST));
      dynamo.updateTimeToLive(b -> b.tableName("Orders")
          .timeToLiveSpecification(t -> t.attributeName("expires").enabled(true)));
      long past = Instant.now().minusSeconds(60).getEpochSecond();
      for (String id : new String[] {"o-1", "o-2"}) {
        dynamo.putItem(b -> b.tableName("Orders").item(Map.of(
            "id", AttributeValue.fromS(id), "status", AttributeValue.fromS("open"),
            "expires", AttributeValue.fromN(Long.toString(past)))));
      }

      assertThat(stator.awaitIndexes(Duration.ofSeconds(60))).isTrue();
      assertThat(dynamo.query(b -> b.tableName("Orders").indexName("byStatus")
          .keyConditionExpression("#s = :s")
          .expressionAttributeNames(Map.of("#s", "status"))
          .expressionAttributeValues(Map.of(":s", AttributeValue.fromS("open")))).count())
          .isEqualTo(2);

      assertThat(stator.sweepExpiredItems()).isEqualTo(2);
      assertThat(dynamo.scan(b -> b.tableName("Orders")).count()).isZero();
    }
  }
}
