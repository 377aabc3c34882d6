package io.stator.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.Database;
import io.stator.api.DescribeTableRequest;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** {@link StatorTest} with its defaults: one in-memory server for the class, parameters resolved. */
@StatorTest
class StatorTestTest {
  @BeforeAll
  static void createTable(DynamoDbClient dynamo) {
    dynamo.createTable(b -> b.tableName("Orders")
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .billingMode(BillingMode.PAY_PER_REQUEST));
  }

  @Test
  void aClientWritesAndReadsOverHttp(DynamoDbClient dynamo) {
    dynamo.putItem(b -> b.tableName("Orders")
        .item(Map.of("id", AttributeValue.fromS("o-1"), "total", AttributeValue.fromN("12"))));
    assertThat(dynamo.getItem(b -> b.tableName("Orders")
        .key(Map.of("id", AttributeValue.fromS("o-1")))).item())
        .containsEntry("total", AttributeValue.fromN("12"));
  }

  @Test
  void theEndpointTheServerAndItsDatabaseAreOne(
      URI endpoint, EmbeddedStator stator, Database database, DynamoDbClient dynamo) {
    assertThat(endpoint).isEqualTo(stator.endpoint());
    assertThat(endpoint.toString()).matches("http://127\\.0\\.0\\.1:[0-9]+");
    // The table made over HTTP before all tests, seen through the embedded API
    assertThat(database.describeTable(new DescribeTableRequest("Orders")).table().tableName())
        .isEqualTo("Orders");
    assertThat(dynamo.listTables().tableNames()).containsExactly("Orders");
  }
}
