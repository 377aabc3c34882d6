package io.stator.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.capacity.CapacityMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A fresh durable server for each test: a table made in one test is gone in the next, and the
 * ports differ. The RocksDB directories are removed when each server closes.
 */
@StatorTest(
    lifecycle = StatorTest.Lifecycle.PER_METHOD,
    storage = EmbeddedStator.StorageKind.ROCKSDB,
    capacity = CapacityMode.ENFORCE)
class PerMethodRocksDbTest {
  private static final List<Integer> PORTS = new ArrayList<>();

  @RepeatedTest(2)
  void eachTestHasItsOwnServer(EmbeddedStator stator, DynamoDbClient dynamo) {
    assertThat(dynamo.listTables().tableNames()).isEmpty();
    dynamo.createTable(b -> b.tableName("Once")
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .billingMode(BillingMode.PAY_PER_REQUEST));
    PORTS.add(stator.port());
  }

  @AfterAll
  static void portsDiffered() {
    assertThat(PORTS).hasSize(2).doesNotHaveDuplicates();
  }
}
