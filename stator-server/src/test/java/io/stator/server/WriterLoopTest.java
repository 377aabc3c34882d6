package io.stator.server;

import static io.stator.server.HttpProtocolTest.rawPost;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.engine.InterceptingStorage;
import io.stator.server.HttpProtocolTest.RawResponse;
import io.stator.storage.Commit;
import io.stator.storage.memory.MemoryStorage;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link WriterLoop}: with it, every PutItem, UpdateItem and DeleteItem commits on one thread,
 * whichever loop read it; without it, on the connection's own loop. (That the answers keep their
 * order is {@code HttpProtocolTest}'s pipelining test.)
 */
class WriterLoopTest {
  private static final String CREATE =
      "{\"TableName\":\"writes\",\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
          + "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}";

  @ParameterizedTest(name = "writer loop: {0}")
  @ValueSource(booleans = {true, false})
  void singleItemWritesCommitOnOneThreadOnlyWithAWriterLoop(boolean writerLoop) throws Exception {
    Set<Thread> committers = ConcurrentHashMap.newKeySet();
    InterceptingStorage storage = new InterceptingStorage(new MemoryStorage()) {
      @Override
      protected void beforeCommit(Commit commit) {
        committers.add(Thread.currentThread());
      }
    };
    try (StatorServer server = StatorServer.start(
            "127.0.0.1", 0, Stator.open(storage), "us-east-1", true, 2, writerLoop);
        Socket first = new Socket("127.0.0.1", server.port());
        Socket second = new Socket("127.0.0.1", server.port())) {
      first.setSoTimeout(10_000);
      second.setSoTimeout(10_000);
      RawResponse created = call(first, "CreateTable", CREATE);
      assertThat(created.status()).as(created.body()).isEqualTo(200);
      committers.clear();
      for (Socket socket : List.of(first, second)) {
        String key = "{\"k\":{\"S\":\"" + (socket == first ? "a" : "b") + "\"}";
        for (int i = 0; i < 5; i++) {
          assertThat(call(socket, "PutItem", "{\"TableName\":\"writes\",\"Item\":" + key + "}}").status())
              .isEqualTo(200);
          assertThat(call(socket, "UpdateItem", "{\"TableName\":\"writes\",\"Key\":" + key
              + "},\"UpdateExpression\":\"SET n = :n\",\"ExpressionAttributeValues\":{\":n\":"
              + "{\"N\":\"" + i + "\"}}}").status()).isEqualTo(200);
          assertThat(call(socket, "DeleteItem", "{\"TableName\":\"writes\",\"Key\":" + key + "}}")
              .status()).isEqualTo(200);
        }
      }
    }
    // Without a writer loop each connection writes on its own loop: the two are different
    // threads, so one thread with a writer loop is the hand-over's doing.
    assertThat(committers).hasSize(writerLoop ? 1 : 2);
  }

  private static RawResponse call(Socket socket, String operation, String body) throws Exception {
    socket.getOutputStream().write(rawPost(operation, body));
    socket.getOutputStream().flush();
    return RawResponse.read(socket.getInputStream());
  }
}
