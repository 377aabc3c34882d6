package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.Stator;
import io.stator.server.ServerLimits;
import io.stator.server.StatorServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * A Cassandra node that stops answering (its process stopped with SIGSTOP, as a long GC pause or
 * a frozen VM stops it) while the server, run as {@code serve --storage cassandra} runs it (calls
 * on workers), serves a GetItem: the server's own endpoint on another connection still answers
 * at once, the GetItem is answered with DynamoDB's retryable 500 InternalServerError once the
 * driver's request timeout ends its wait, and once the node runs again (SIGCONT) the next
 * requests are served with no restart. Linux or macOS ({@code kill}); on the suite's node.
 */
class CassandraStallTest {

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aStalledNodeGetsA500AndTheServerRecoversWhenItAnswersAgain() throws Exception {
    long pid = CassandraForTests.nodePid();
    var database = Stator.open(CassandraForTests.open("stall-" + UUID.randomUUID()));
    try (StatorServer server = StatorServer.start("127.0.0.1", 0, database, "us-east-1", false,
            2, ServerLimits.defaults());
        DynamoDbClient dynamo = DynamoDbEndpoint.client(DynamoDbEndpoint.uri(server))) {
      dynamo.createTable(b -> b.tableName("stalls").billingMode("PAY_PER_REQUEST")
          .attributeDefinitions(a -> a.attributeName("k").attributeType("S"))
          .keySchema(k -> k.attributeName("k").keyType("HASH")));
      Map<String, AttributeValue> key = Map.of("k", AttributeValue.fromS("one"));
      dynamo.putItem(b -> b.tableName("stalls").item(key));

      signal("-STOP", pid);
      long stalledAt = System.nanoTime();
      CompletableFuture<DynamoDbException> get;
      long ownEndpointMillis;
      try {
        get = CompletableFuture.supplyAsync(() -> catchThrowableOfType(DynamoDbException.class,
            () -> dynamo.getItem(b -> b.tableName("stalls").key(key).consistentRead(true))));
        long before = System.nanoTime();
        HttpResponse<String> connections = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create(DynamoDbEndpoint.uri(server) + "/stator/connections"))
                .timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
        ownEndpointMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before);
        assertThat(connections.statusCode()).isEqualTo(200);
        assertThat(get).as("the GetItem waits on the stopped node").isNotDone();
        DynamoDbException failure = get.get(2, TimeUnit.MINUTES);
        assertThat(failure).as("the GetItem's answer").isNotNull();
        assertThat(failure.statusCode()).isEqualTo(500);
        assertThat(failure.awsErrorDetails().errorCode()).isEqualTo("InternalServerError");
      } finally {
        signal("-CONT", pid);
      }
      long answeredAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stalledAt);

      long resumed = System.nanoTime();
      dynamo.putItem(b -> b.tableName("stalls")
          .item(Map.of("k", AttributeValue.fromS("two"))));
      GetItemResponse read = dynamo.getItem(b -> b.tableName("stalls").key(key)
          .consistentRead(true));
      assertThat(read.item()).isEqualTo(key);
      System.out.println("stalled node: own endpoint answered in " + ownEndpointMillis
          + " ms, the GetItem's 500 after " + answeredAfter + " ms, a PutItem and a GetItem "
          + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resumed) + " ms after SIGCONT");
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).as("kill %s %d", signal, pid).isZero();
  }
}
