package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.ChildJvm;
import io.stator.storage.cassandra.CassandraNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code stator serve --storage cassandra} on a one-node Cassandra that this test starts (about
 * 20-50 s, a 1 GB heap; {@code -Dcassandra.tests.skip} leaves it out): the server, in a JVM of its
 * own as a user starts it, creates its keyspace and serves a PutItem and a GetItem through the
 * AWS SDK.
 */
class CassandraServeTest {

  @TempDir Path dir;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void servesPutAndGetOnACassandraNode() throws Exception {
    try (CassandraNode node =
        CassandraNode.in(dir.resolve("node")).tiedToThisProcess().start(Duration.ofMinutes(3))) {
      Path errors = dir.resolve("server.err");
      String contactPoint = node.address() + ":" + node.nativePort();
      Process server =
          ChildJvm.start(Main.class, errors, "serve", "--port", "0", "--storage", "cassandra",
              "--contact-points", contactPoint, "--keyspace", "stator_serve");
      try {
        String listening = ChildServers.listeningLine(server, errors);
        assertThat(listening).contains("Cassandra at");
        int port = ChildServers.port(listening);
        try (DynamoDbClient dynamo = SdkProtocolTest.client(port)) {
          SdkProtocolTest.createTableKeyedByPk(dynamo, "people");
          dynamo.putItem(b -> b.tableName("people").item(
              Map.of("pk", AttributeValue.fromS("ada"), "born", AttributeValue.fromN("1815"))));
          Map<String, AttributeValue> item =
              dynamo.getItem(b -> b.tableName("people")
                  .key(Map.of("pk", AttributeValue.fromS("ada"))).consistentRead(true)).item();
          assertThat(item).containsEntry("born", AttributeValue.fromN("1815"));
        }
      } finally {
        server.destroy();
        server.waitFor(30, TimeUnit.SECONDS);
        server.destroyForcibly();
      }
    }
  }
}
