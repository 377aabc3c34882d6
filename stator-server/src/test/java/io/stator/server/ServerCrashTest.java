package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.storage.ChildJvm;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Kills a server on RocksDB with SIGKILL while several SDK clients write to it, and checks that
 * every write the server acknowledged is there after a restart: the server holds its answers
 * until the group commit has written the WAL ({@link HeldAnswers}).
 */
class ServerCrashTest {
  private static final int WRITERS = 4;
  private static final int ACKS_BEFORE_KILL = 1500;

  @TempDir Path dir;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void everyAcknowledgedWriteSurvivesKillNine() throws Exception {
    Path store = dir.resolve("store");
    Path errors = dir.resolve("server.err");
    Process server =
        ChildJvm.start(Main.class, errors, "serve", "--port", "0", "--data-dir", store.toString());
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    List<Thread> writers = new ArrayList<>();
    AtomicBoolean killed = new AtomicBoolean();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    try {
      int port = ChildServers.port(server, errors);
      try (DynamoDbClient dynamo = SdkProtocolTest.client(port)) {
        SdkProtocolTest.createTableKeyedByPk(dynamo, "crash");
        acknowledged.add("table");
        for (int w = 0; w < WRITERS; w++) {
          String prefix = "w" + w + "-";
          Thread writer =
              new Thread(
                  () -> {
                    for (int i = 0; !killed.get(); i++) {
                      String key = prefix + i;
                      try {
                        dynamo.putItem(
                            b ->
                                b.tableName("crash")
                                    .item(Map.of("pk", AttributeValue.fromS(key))));
                      } catch (RuntimeException e) {
                        // The server is gone (or failed): this write was never acknowledged.
                        failure.compareAndSet(null, e);
                        return;
                      }
                      acknowledged.add(key);
                    }
                  });
          writer.start();
          writers.add(writer);
        }
        while (acknowledged.size() < ACKS_BEFORE_KILL
            && server.isAlive()
            && writers.stream().anyMatch(Thread::isAlive)) {
          Thread.sleep(1);
        }
        killed.set(true);
        server.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook, no close
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        for (Thread writer : writers) {
          writer.join(30_000);
        }
      }
    } finally {
      killed.set(true);
      server.destroyForcibly();
    }
    assertThat(acknowledged.size())
        .as("acknowledged writes; first failed write: %s; server stderr: %s",
            failure.get(), Files.readString(errors))
        .isGreaterThanOrEqualTo(ACKS_BEFORE_KILL);

    try (StatorServer restarted =
            StatorServer.start("127.0.0.1", 0, Stator.open(RocksDbStorage.open(store)));
        DynamoDbClient dynamo = SdkProtocolTest.client(restarted)) {
      assertThat(dynamo.listTables().tableNames()).as("the acknowledged table").contains("crash");
      Set<String> stored =
          dynamo.scanPaginator(b -> b.tableName("crash").consistentRead(true)).items().stream()
              .map(item -> item.get("pk").s())
              .collect(Collectors.toSet());
      Set<String> lost =
          acknowledged.stream()
              .filter(key -> !key.equals("table") && !stored.contains(key))
              .collect(Collectors.toSet());
      assertThat(lost).as("acknowledged, then lost (of %d)", acknowledged.size()).isEmpty();
    }
  }
}
