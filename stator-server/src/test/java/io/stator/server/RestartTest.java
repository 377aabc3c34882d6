package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Closing the server closes the store; a new server on the same directory finds everything. */
class RestartTest {
  @TempDir Path dir;

  private static StatorServer startOn(Path dir) {
    return StatorServer.start("127.0.0.1", 0, Stator.open(RocksDbStorage.open(dir)));
  }

  @Test
  void tablesAndItemsSurviveARestart() {
    try (StatorServer server = startOn(dir);
        DynamoDbClient dynamo = SdkProtocolTest.client(server)) {
      SdkProtocolTest.createTableKeyedByPk(dynamo, "Kept");
      dynamo.putItem(
          b ->
              b.tableName("Kept")
                  .item(Map.of("pk", AttributeValue.fromS("a"), "v", AttributeValue.fromN("7"))));
    }
    try (StatorServer server = startOn(dir);
        DynamoDbClient dynamo = SdkProtocolTest.client(server)) {
      assertThat(dynamo.listTables().tableNames()).containsExactly("Kept");
      assertThat(
              dynamo
                  .getItem(b -> b.tableName("Kept").key(Map.of("pk", AttributeValue.fromS("a"))))
                  .item())
          .containsEntry("v", AttributeValue.fromN("7"));
    }
  }
}
