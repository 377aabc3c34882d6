package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.storage.FaultyStorage;
import io.stator.storage.memory.MemoryStorage;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Through the AWS SDK with its own retries, as applications use it, over a storage whose commits
 * end with an unknown outcome: an ADD whose first try landed is not added again, and a
 * TransactWriteItems that the server answered with a 500 (it could not find out) is not applied
 * again by the SDK's retry, which carries the same ClientRequestToken.
 */
class UnknownOutcomeSdkTest {
  private final FaultyStorage storage =
      new FaultyStorage(new MemoryStorage()).onlyCommits(space -> space.startsWith("table."));
  private StatorServer server;
  private DynamoDbClient dynamo;

  @BeforeEach
  void start() {
    server = StatorServer.start("127.0.0.1", 0, Stator.open(storage));
    dynamo = DynamoDbClient.builder() // the SDK's default retries
        .endpointOverride(URI.create("http://127.0.0.1:" + server.port()))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("key", "secret")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
    SdkProtocolTest.createTableKeyedByPk(dynamo, "Counters");
    dynamo.putItem(b -> b.tableName("Counters").item(Map.of("pk", s("c"), "n", n("5"))));
  }

  @AfterEach
  void stop() {
    dynamo.close();
    server.close();
  }

  @Test
  void anAddWhoseAnswerWasLostIsAnsweredOnceAndAppliedOnce() {
    storage.unknownOutcomeAfterApplying(1);

    Map<String, AttributeValue> updated = dynamo.updateItem(b -> b.tableName("Counters")
        .key(Map.of("pk", s("c"))).updateExpression("ADD n :one")
        .expressionAttributeValues(Map.of(":one", n("1"))).returnValues("UPDATED_NEW"))
        .attributes();

    assertThat(storage.injected()).isEqualTo(1);
    assertThat(updated).isEqualTo(Map.of("n", n("6")));
    assertThat(counter()).isEqualTo(n("6"));
  }

  @Test
  void theSdksRetryOfATransactionAnsweredWithA500DoesNotApplyItAgain() {
    // Applied, and the read that would find out fails: the server answers 500, keeping the token
    storage.unknownOutcomeAfterApplying(1).onlyReads(space -> space.startsWith("table."))
        .failReads(1);

    dynamo.transactWriteItems(b -> b.transactItems(
        TransactWriteItem.builder().update(u -> u.tableName("Counters")
            .key(Map.of("pk", s("c"))).updateExpression("ADD n :one")
            .expressionAttributeValues(Map.of(":one", n("1")))).build()));

    assertThat(storage.injected()).isEqualTo(2);
    assertThat(counter()).isEqualTo(n("6"));
  }

  private AttributeValue counter() {
    return dynamo.getItem(b -> b.tableName("Counters").key(Map.of("pk", s("c")))
        .consistentRead(true)).item().get("n");
  }

  private static AttributeValue s(String value) {
    return AttributeValue.builder().s(value).build();
  }

  private static AttributeValue n(String value) {
    return AttributeValue.builder().n(value).build();
  }
}
