package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.engine.HeldStorage;
import io.stator.storage.memory.MemoryStorage;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * Through the AWS SDK: a PutItem on an item of a TransactWriteItems in progress is answered with
 * TransactionConflictException, which the SDK maps to its own exception class, as DynamoDB's.
 * The server's storage holds the transaction's commit until the PutItem has been answered.
 */
class TransactionConflictSdkTest {
  @Test
  void putItemOnAnItemOfARunningTransactionIsATransactionConflict() throws Exception {
    HeldStorage storage = new HeldStorage(new MemoryStorage());
    StatorServer server = StatorServer.start("127.0.0.1", 0, Stator.open(storage));
    try (DynamoDbClient dynamo = SdkProtocolTest.client(server)) {
      SdkProtocolTest.createTableKeyedByPk(dynamo, "Orders");
      CompletableFuture<Void> transaction = CompletableFuture.runAsync(() ->
          dynamo.transactWriteItems(b -> b.transactItems(
              TransactWriteItem.builder().put(p -> p.tableName("Orders").item(item("a", "1")))
                  .build(),
              TransactWriteItem.builder().put(p -> p.tableName("Orders").item(item("b", "1")))
                  .build())));
      assertThat(storage.held.await(30, TimeUnit.SECONDS)).isTrue();

      TransactionConflictException e = catchThrowableOfType(
          () -> dynamo.putItem(b -> b.tableName("Orders").item(item("a", "9"))),
          TransactionConflictException.class);
      assertThat(e).isNotNull();
      assertThat(e.statusCode()).isEqualTo(400);
      assertThat(e.awsErrorDetails().errorMessage())
          .isEqualTo("Transaction is ongoing for the item");

      storage.release.countDown();
      transaction.get(10, TimeUnit.SECONDS);
      assertThat(dynamo.getItem(b -> b.tableName("Orders").key(Map.of("pk", s("a"))))
          .item()).isEqualTo(item("a", "1"));
    } finally {
      storage.release.countDown();
      server.close();
    }
  }

  private static Map<String, AttributeValue> item(String pk, String v) {
    return Map.of("pk", s(pk), "v", AttributeValue.builder().n(v).build());
  }

  private static AttributeValue s(String value) {
    return AttributeValue.builder().s(value).build();
  }
}
