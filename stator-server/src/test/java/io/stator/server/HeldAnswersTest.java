package io.stator.server;

import static io.stator.server.HttpProtocolTest.rawPost;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.engine.InterceptingStorage;
import io.stator.server.HttpProtocolTest.RawResponse;
import io.stator.storage.Commit;
import io.stator.storage.StorageException;
import io.stator.storage.memory.MemoryStorage;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server's side of group commit: an answer leaves only once the storage says the commits
 * before it are durable, and never when it cannot say so. The storage here is the in-memory one,
 * with a gate in front of {@code awaitDurable} that the test opens or breaks; the real
 * durability is RocksDB's, tested by killing a server in {@code ServerCrashTest}.
 */
class HeldAnswersTest {
  private static final String CREATE =
      "{\"TableName\":\"held\",\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
          + "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}";
  private static final String PUT = "{\"TableName\":\"held\",\"Item\":{\"k\":{\"S\":\"a\"}}}";
  private static final String GET =
      "{\"TableName\":\"held\",\"Key\":{\"k\":{\"S\":\"a\"}},\"ConsistentRead\":true}";

  @ParameterizedTest(name = "calls on the event loops: {0}")
  @ValueSource(booleans = {true, false})
  void anAnswerLeavesOnlyOnceTheWritesBeforeItAreDurable(boolean onEventLoops) throws Exception {
    GatedStorage storage = new GatedStorage();
    try (StatorServer server =
            StatorServer.start("127.0.0.1", 0, Stator.open(storage), "us-east-1", onEventLoops);
        Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      storage.openGate();
      socket.getOutputStream().write(rawPost("CreateTable", CREATE));
      assertThat(RawResponse.read(socket.getInputStream()).status()).isEqualTo(200);

      storage.shutGate();
      socket.getOutputStream().write(rawPost("PutItem", PUT));
      InputStream in = socket.getInputStream();
      awaitWaiting(storage);
      assertNothingArrives(socket);

      storage.openGate();
      assertThat(RawResponse.read(in).status()).isEqualTo(200);
      assertThat(storage.deferredCommits.get())
          .as("commits made by a thread that deferred their durability")
          .isPositive();
    }
  }

  /** A flush that is not the handler's, a {@code 100 Continue}, waits as well. */
  @ParameterizedTest(name = "calls on the event loops: {0}")
  @ValueSource(booleans = {true, false})
  void anInterimAnswerAfterAWriteWaitsForItToo(boolean onEventLoops) throws Exception {
    GatedStorage storage = new GatedStorage();
    storage.openGate();
    try (StatorServer server =
            StatorServer.start("127.0.0.1", 0, Stator.open(storage), "us-east-1", onEventLoops);
        Socket socket = socket(server)) {
      socket.getOutputStream().write(rawPost("CreateTable", CREATE));
      InputStream in = socket.getInputStream();
      assertThat(RawResponse.read(in).status()).isEqualTo(200);

      storage.shutGate();
      byte[] put = rawPost("PutItem", PUT);
      String expecting = new String(rawPost("GetItem", GET), US_ASCII)
          .replace("\r\n\r\n", "\r\nExpect: 100-continue\r\n\r\n");
      byte[] head = expecting.substring(0, expecting.indexOf("\r\n\r\n") + 4).getBytes(US_ASCII);
      // In one write, so the server reads the second request's head while the first is still
      // being answered; the body only after "100 Continue".
      byte[] both = new byte[put.length + head.length];
      System.arraycopy(put, 0, both, 0, put.length);
      System.arraycopy(head, 0, both, put.length, head.length);
      socket.getOutputStream().write(both);
      awaitWaiting(storage);
      assertNothingArrives(socket);

      storage.openGate();
      assertThat(RawResponse.read(in).status()).as("the PutItem").isEqualTo(200);
      assertThat(RawResponse.read(in).status()).as("the interim answer").isEqualTo(100);
      socket.getOutputStream().write(expecting.substring(head.length).getBytes(US_ASCII));
      RawResponse get = RawResponse.read(in);
      assertThat(get.status()).isEqualTo(200);
      assertThat(get.body()).contains("\"k\":{\"S\":\"a\"}");
    }
  }

  @ParameterizedTest(name = "calls on the event loops: {0}")
  @ValueSource(booleans = {true, false})
  void whenWritesCannotBeMadeDurableTheConnectionClosesWithoutAnAnswer(boolean onEventLoops)
      throws Exception {
    GatedStorage storage = new GatedStorage();
    storage.openGate();
    try (StatorServer server =
        StatorServer.start("127.0.0.1", 0, Stator.open(storage), "us-east-1", onEventLoops)) {
      try (Socket socket = socket(server)) {
        socket.getOutputStream().write(rawPost("CreateTable", CREATE));
        assertThat(RawResponse.read(socket.getInputStream()).status()).isEqualTo(200);
        storage.failNext.set(true);
        socket.getOutputStream().write(rawPost("PutItem", PUT));
        assertThat(socket.getInputStream().read()).as("end of stream, no answer").isEqualTo(-1);
      }
      // The next answers leave as before.
      try (Socket socket = socket(server)) {
        socket.getOutputStream().write(rawPost("PutItem", PUT));
        assertThat(RawResponse.read(socket.getInputStream()).status()).isEqualTo(200);
      }
    }
  }

  private static void awaitWaiting(GatedStorage storage) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (storage.waiting.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(storage.waiting.get()).as("answers waiting for durability").isPositive();
  }

  private static void assertNothingArrives(Socket socket) throws IOException {
    socket.setSoTimeout(200);
    try {
      assertThatThrownBy(socket.getInputStream()::read).isInstanceOf(SocketTimeoutException.class);
    } finally {
      socket.setSoTimeout(10_000);
    }
  }

  private static Socket socket(StatorServer server) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  /**
   * The in-memory storage behind a gate: {@link #awaitDurable} waits while the gate is closed, or
   * fails once when told to; commits count those whose thread deferred durability.
   */
  private static final class GatedStorage extends InterceptingStorage {
    private final ThreadLocal<Boolean> deferring = ThreadLocal.withInitial(() -> false);
    private volatile CountDownLatch gate = new CountDownLatch(1);
    final AtomicInteger waiting = new AtomicInteger();
    final AtomicInteger deferredCommits = new AtomicInteger();
    final AtomicBoolean failNext = new AtomicBoolean();

    GatedStorage() {
      super(new MemoryStorage());
    }

    void openGate() {
      gate.countDown();
    }

    void shutGate() {
      gate = new CountDownLatch(1);
    }

    @Override
    public void close() {
      openGate();
      super.close();
    }

    @Override
    public void deferDurabilityOnThisThread() {
      deferring.set(true);
    }

    @Override
    public void awaitDurable() {
      if (failNext.getAndSet(false)) {
        throw new StorageException("the log cannot be written (raised on purpose by a test)");
      }
      waiting.incrementAndGet();
      try {
        assertThat(gate.await(30, TimeUnit.SECONDS)).isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        waiting.decrementAndGet();
      }
    }

    @Override
    protected void beforeCommit(Commit commit) {
      if (deferring.get()) {
        deferredCommits.incrementAndGet();
      }
    }
  }
}
