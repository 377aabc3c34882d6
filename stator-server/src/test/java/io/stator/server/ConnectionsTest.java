package io.stator.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.server.HttpProtocolTest.RawResponse;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a connection may hold of the server, over real sockets: the connection limit, the idle,
 * header and body timeouts, the answer owed to a client that half-closed, and the health check
 * of a server whose storage fails.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectionsTest {
  private static final String CREATE_TABLE =
      "{\"TableName\":\"halves\",\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
          + "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}";
  /**
   * A request answered without the storage: the health check ({@code GET /}) answers 503 when its
   * storage check takes over 1 s, as it can on a busy machine, and these tests are about
   * connections, not health.
   */
  private static final String GET = "GET /stator/connections HTTP/1.1\r\nHost: x\r\n\r\n";
  private static final String HEALTH = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

  private static StatorServer start(ServerLimits limits) {
    return start(limits, true);
  }

  private static StatorServer start(ServerLimits limits, boolean callsOnEventLoops) {
    return StatorServer.start(
        "127.0.0.1", 0, Stator.inMemory(), "us-east-1", callsOnEventLoops, 1, limits);
  }

  private static Socket connect(StatorServer server) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static RawResponse exchange(Socket socket, String request) throws IOException {
    socket.getOutputStream().write(request.getBytes(US_ASCII));
    socket.getOutputStream().flush();
    return RawResponse.read(socket.getInputStream());
  }

  /** Reads until the server closes the connection; returns the time it took, in ms. */
  private static long millisUntilClosed(Socket socket) throws IOException {
    return millisUntilClosed(socket, System.nanoTime());
  }

  /**
   * Reads until the server closes the connection; returns the ms from {@code start}
   * (System.nanoTime) to the close.
   */
  private static long millisUntilClosed(Socket socket, long start) throws IOException {
    InputStream in = socket.getInputStream();
    try {
      while (in.read() >= 0) {
        // what the server sent before closing
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server did not close the connection", e);
    } catch (IOException reset) {
      // closed with a reset: closed all the same
    }
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  private static String connections(StatorServer server) throws IOException {
    try (Socket socket = connect(server)) {
      return exchange(socket, GET).body();
    }
  }

  @Test
  void aConnectionOverTheLimitIsAnswered503AndClosedAndTheNextAfterACloseIsServed()
      throws Exception {
    try (StatorServer server = start(ServerLimits.defaults().withMaxConnections(3))) {
      List<Socket> served = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          Socket socket = connect(server);
          served.add(socket);
          assertThat(exchange(socket, GET).status()).isEqualTo(200);
        }
        try (Socket over = connect(server)) {
          RawResponse refusal = RawResponse.read(over.getInputStream());
          assertThat(refusal.status()).isEqualTo(503);
          assertThat(refusal.headers()).containsEntry("connection", "close")
              .containsKeys("date", "x-amzn-requestid", "x-amz-crc32");
          assertThat(refusal.body())
              .contains("com.amazonaws.dynamodb.v20120810#ServiceUnavailable")
              .contains("at most 3 connections");
          assertThat(millisUntilClosed(over)).isLessThan(5_000);
        }
        // The served ones are still served.
        for (Socket socket : served) {
          assertThat(exchange(socket, GET).status()).isEqualTo(200);
        }
      } finally {
        for (Socket socket : served) {
          socket.close();
        }
      }
      // Their closes free their places (the server sees a close a little later, later still on
      // a busy machine).
      RawResponse answer = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while ((answer == null || answer.status() != 200) && System.nanoTime() - deadline < 0) {
        Thread.sleep(50);
        try (Socket socket = connect(server)) {
          answer = exchange(socket, GET);
        }
      }
      assertThat(answer.status()).isEqualTo(200);
      String figures = connections(server);
      assertThat(figures).contains("\"MaxConnections\":3");
      assertThat(Long.parseLong(figures.replaceAll(".*\"Refused\":(\\d+).*", "$1")))
          .isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  void anIdleConnectionIsClosedAfterTheIdleTimeoutAndNotBefore() throws Exception {
    long idle = 1_000;
    try (StatorServer server =
        start(ServerLimits.defaults().withIdleTimeout(Duration.ofMillis(idle)))) {
      // Requests 200 ms apart keep a connection for longer than the timeout (a client that a busy
      // machine kept from running for 800 ms would lose it).
      try (Socket busy = connect(server)) {
        long lastSent = 0;
        for (int i = 0; i < 8; i++) {
          Thread.sleep(200);
          lastSent = System.nanoTime();
          assertThat(exchange(busy, GET).status()).isEqualTo(200);
        }
        // The timeout counts from the last answer, which left after the last request was sent:
        // measured from the sending, the close comes no sooner than the timeout.
        assertThat(millisUntilClosed(busy, lastSent)).isBetween(idle, idle + 2_500);
      }
      // One that never sends a byte is closed too, the timeout counted from its opening.
      long opening = System.nanoTime();
      try (Socket silent = connect(server)) {
        assertThat(millisUntilClosed(silent, opening)).isBetween(idle, idle + 2_500);
      }
      assertThat(connections(server)).contains("\"ClosedIdle\":2");
    }
  }

  /** Slowloris: headers sent a byte at a time; the bytes do not push the deadline back. */
  @Test
  void headersThatTakeLongerThanTheHeaderTimeoutAre408AndClosed() throws Exception {
    try (StatorServer server =
            start(ServerLimits.defaults().withHeaderTimeout(Duration.ofMillis(800)));
        Socket socket = connect(server)) {
      OutputStream out = socket.getOutputStream();
      long start = System.nanoTime();
      out.write("POST / HTTP/1.1\r\n".getBytes(US_ASCII));
      out.flush();
      try {
        for (byte b : ("Host: x\r\nX-Slow: " + "a".repeat(40)).getBytes(US_ASCII)) {
          if (socket.getInputStream().available() > 0) {
            break; // answered
          }
          Thread.sleep(100);
          out.write(b);
          out.flush();
        }
      } catch (IOException closedOnUs) {
        // the server closed the connection while we were still dripping
      }
      RawResponse response = RawResponse.read(socket.getInputStream());
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(response.status()).isEqualTo(408);
      // From before the first byte: no sooner than the timeout; the latest is loose for a busy
      // machine, and still sooner than the dripping would have ended.
      assertThat(elapsed).isBetween(800L, 5_000L);
      millisUntilClosed(socket);
    }
  }

  @Test
  void aBodyThatTakesLongerThanTheBodyTimeoutIs408AndClosed() throws Exception {
    try (StatorServer server =
            start(ServerLimits.defaults().withBodyTimeout(Duration.ofMillis(800)));
        Socket socket = connect(server)) {
      byte[] request = HttpProtocolTest.rawPost("ListTables", "{" + " ".repeat(100) + "}");
      int body = new String(request, US_ASCII).indexOf("\r\n\r\n") + 4;
      OutputStream out = socket.getOutputStream();
      long start = System.nanoTime(); // before the headers, whose end starts the body's timeout
      out.write(request, 0, body);
      out.flush();
      try {
        for (int i = body; i < request.length; i++) {
          if (socket.getInputStream().available() > 0) {
            break; // answered
          }
          Thread.sleep(100); // one byte every 100 ms: 10 s for the whole body
          out.write(request[i]);
          out.flush();
        }
      } catch (IOException closedOnUs) {
        // the server closed the connection while we were still dripping
      }
      RawResponse response = RawResponse.read(socket.getInputStream());
      long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(response.status()).isEqualTo(408);
      // From before the headers: no sooner than the timeout; the latest is loose for a busy
      // machine, and still sooner than the dripping would have ended.
      assertThat(elapsed).isBetween(800L, 5_000L);
      millisUntilClosed(socket);
      assertThat(connections(server)).contains("\"ClosedSlowRequests\":1");
    }
  }

  /** The deadlines close only what is late: a request split across reads in time is served. */
  @Test
  void aRequestSplitAcrossReadsWithinTheTimeoutsIsServed() throws Exception {
    ServerLimits limits =
        ServerLimits.defaults()
            .withIdleTimeout(Duration.ofMillis(3_000))
            .withHeaderTimeout(Duration.ofMillis(3_000))
            .withBodyTimeout(Duration.ofMillis(3_000));
    try (StatorServer server = start(limits);
        Socket socket = connect(server)) {
      byte[] request = HttpProtocolTest.rawPost("ListTables", "{}");
      int body = new String(request, US_ASCII).indexOf("\r\n\r\n") + 4;
      OutputStream out = socket.getOutputStream();
      for (int round = 0; round < 3; round++) {
        out.write(request, 0, 10);
        out.flush();
        Thread.sleep(400);
        out.write(request, 10, body - 10);
        out.flush();
        Thread.sleep(400);
        out.write(request, body, request.length - body);
        out.flush();
        RawResponse response = RawResponse.read(socket.getInputStream());
        assertThat(response.status()).as("round %d", round).isEqualTo(200);
        assertThat(response.body()).contains("TableNames");
      }
    }
  }

  /**
   * A PutItem followed by the client's shutdownOutput: applied and answered, then closed (it was
   * applied and never answered), with the calls on the event loops and on workers.
   */
  @Test
  void aRequestFollowedByAHalfCloseIsAnsweredThenClosed() throws Exception {
    for (boolean onEventLoops : new boolean[] {true, false}) {
      try (StatorServer server = start(ServerLimits.defaults(), onEventLoops)) {
        try (Socket socket = connect(server)) {
          socket.getOutputStream().write(HttpProtocolTest.rawPost("CreateTable", CREATE_TABLE));
          assertThat(RawResponse.read(socket.getInputStream()).status()).isEqualTo(200);
        }
        try (Socket socket = connect(server)) {
          socket.getOutputStream().write(HttpProtocolTest.rawPost("PutItem",
              "{\"TableName\":\"halves\",\"Item\":{\"k\":{\"S\":\"half\"}}}"));
          socket.getOutputStream().write(HttpProtocolTest.rawPost("GetItem",
              "{\"TableName\":\"halves\",\"Key\":{\"k\":{\"S\":\"half\"}},\"ConsistentRead\":true}"));
          socket.shutdownOutput();
          RawResponse put = RawResponse.read(socket.getInputStream());
          assertThat(put.status()).as("on event loops: %s", onEventLoops).isEqualTo(200);
          RawResponse get = RawResponse.read(socket.getInputStream());
          assertThat(get.body()).contains("\"half\"");
          assertThat(millisUntilClosed(socket)).isLessThan(5_000);
        }
      }
    }
  }

  @Test
  void theHealthCheckFailsWhileTheStorageIsClosed(@TempDir Path dir) throws Exception {
    RocksDbStorage storage = RocksDbStorage.open(dir.resolve("store"));
    try (StatorServer server =
            StatorServer.start("127.0.0.1", 0, Stator.open(storage), "us-east-1", true, 1,
                ServerLimits.defaults());
        Socket socket = connect(server)) {
      assertThat(exchange(socket, HEALTH).status()).isEqualTo(200);
      storage.close();
      RawResponse unhealthy = exchange(socket, HEALTH);
      assertThat(unhealthy.status()).isEqualTo(503);
      assertThat(unhealthy.body()).startsWith("unhealthy: the storage fails");
    }
  }

  @Test
  void theDefaultConnectionLimitLeavesAQuarterOfTheDescriptorsToTheRest() {
    assertThat(ServerLimits.maxConnectionsFor(20_000)).isEqualTo(15_000);
    assertThat(ServerLimits.maxConnectionsFor(1_024)).isEqualTo(768);
    assertThat(ServerLimits.maxConnectionsFor(200)).isEqualTo(136);
    assertThat(ServerLimits.maxConnectionsFor(10)).isEqualTo(1);
    assertThat(ServerLimits.defaultMaxConnections())
        .isEqualTo(ServerLimits.maxConnectionsFor(ServerLimits.descriptorLimit()));
  }
}
