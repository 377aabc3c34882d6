package io.stator.server.e2e;

import io.stator.engine.Engine;
import io.stator.server.StatorServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Stator servers on loopback, each with its own engine over its own storage of one store, and an
 * AWS SDK client (DynamoDB and Streams) of each: what the checks of several servers share
 * ({@link TwoServersTest} on the build's node, {@link ClusterServersCheck} on a cluster).
 */
final class ServersOnOneStore implements AutoCloseable {
  final List<StatorServer> servers = new ArrayList<>();
  final List<DynamoDbClient> clients = new ArrayList<>();
  final List<DynamoDbStreamsClient> streams = new ArrayList<>();

  /** Serves {@code engine} on a new server, with clients of it. */
  void start(Engine engine) {
    StatorServer server = StatorServer.start("127.0.0.1", 0, engine, "us-east-1", false, 2);
    servers.add(server);
    clients.add(DynamoDbEndpoint.client(DynamoDbEndpoint.uri(server)));
    streams.add(DynamoDbEndpoint.streamsClient(DynamoDbEndpoint.uri(server)));
  }

  @Override
  public void close() {
    clients.forEach(DynamoDbClient::close);
    streams.forEach(DynamoDbStreamsClient::close);
    servers.forEach(StatorServer::close);
  }

  /** An on-demand table keyed by the string {@code id}, with a stream of both images if asked. */
  static void createTable(DynamoDbClient client, String name, boolean stream) {
    client.createTable(r -> {
      r.tableName(name).billingMode("PAY_PER_REQUEST")
          .attributeDefinitions(d -> d.attributeName("id").attributeType("S"))
          .keySchema(k -> k.attributeName("id").keyType("HASH"));
      if (stream) {
        r.streamSpecification(s -> s.streamEnabled(true).streamViewType("NEW_AND_OLD_IMAGES"));
      }
    });
  }

  /**
   * One side of a transfer in the table Accounts: {@code amount} added to the account's balance,
   * on the condition that the balance covers it when {@code covered} (the debit's side).
   */
  static TransactWriteItem transfer(String id, long amount, boolean covered) {
    return transfer("Accounts", id, amount, covered);
  }

  /** As {@link #transfer(String, long, boolean)}, in the table {@code table}. */
  static TransactWriteItem transfer(String table, String id, long amount, boolean covered) {
    return TransactWriteItem.builder().update(u -> {
      u.tableName(table).key(Map.of("id", AttributeValue.fromS(id)))
          .updateExpression("ADD balance :delta");
      Map<String, AttributeValue> values =
          new HashMap<>(Map.of(":delta", AttributeValue.fromN(Long.toString(amount))));
      if (covered) {
        u.conditionExpression("balance >= :amount");
        values.put(":amount", AttributeValue.fromN(Long.toString(-amount)));
      }
      u.expressionAttributeValues(values);
    }).build();
  }

  /** Runs the tasks on threads of their own, all at once, and rethrows the first failure. */
  static <T> void runAll(List<Callable<T>> tasks) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    try {
      for (Future<T> f : pool.invokeAll(tasks)) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
