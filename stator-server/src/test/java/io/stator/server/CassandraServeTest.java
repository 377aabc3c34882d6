package io.stator.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.ChildJvm;
import io.stator.storage.cassandra.CassandraNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  private static final Pattern LISTENING = Pattern.compile("listening on http://[^:]+:(\\d+)");

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
        int port = port(server, errors);
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

  /** The port the server says it listens on, from the line that says so. */
  private static int port(Process server, Path errors) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), UTF_8));
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        assertThat(line).contains("Cassandra at");
        return Integer.parseInt(m.group(1));
      }
    }
    throw new AssertionError(
        "the server never said where it listens; stderr: " + Files.readString(errors));
  }
}
