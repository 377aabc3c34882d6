package io.stator.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.util.Version;
import io.stator.junit.StatorTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A user's test: the SDK's async client on Netty 4.1 and the sync client, Jackson 2.17 for the
 * application's own JSON, and Stator started by one annotation. Before Stator's Netty 4.2 was
 * relocated, this classpath failed with {@code NoClassDefFoundError: io/netty/channel/IoHandler}.
 */
@StatorTest
class OrdersTest {
  @Test
  void theClasspathIsTheUsersOwn() {
    assertThat(Version.identify().values())
        .isNotEmpty()
        .allSatisfy(v -> assertThat(v.artifactVersion()).startsWith("4.1."));
    assertThat(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.getMinorVersion())
        .isEqualTo(17);
  }

  @Test
  void anOrderSavedAsyncOverNettyIsReadBack(DynamoDbAsyncClient async, DynamoDbClient sync)
      throws Exception {
    async.createTable(b -> b.tableName("Orders")
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .billingMode(BillingMode.PAY_PER_REQUEST)).join();
    String json = new ObjectMapper().writeValueAsString(Map.of("lines", 3));
    async.putItem(b -> b.tableName("Orders").item(Map.of(
        "id", AttributeValue.fromS("o-1"), "doc", AttributeValue.fromS(json)))).join();

    Map<String, AttributeValue> read = sync.getItem(b -> b.tableName("Orders")
        .key(Map.of("id", AttributeValue.fromS("o-1"))).consistentRead(true)).item();
    assertThat(new ObjectMapper().readTree(read.get("doc").s()).get("lines").asInt())
        .isEqualTo(3);
  }
}
