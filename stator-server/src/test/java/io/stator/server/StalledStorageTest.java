package io.stator.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.schema.Catalog;
import io.stator.server.HttpProtocolTest.RawResponse;
import io.stator.storage.FaultyStorage;
import io.stator.storage.memory.MemoryStorage;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A storage that stalls (a Cassandra node that stops answering) holds up only the requests that
 * wait on it when the calls run on workers, as {@code serve --storage cassandra} runs them: on
 * one event loop, a PutItem held inside the storage leaves another connection's GetItem and the
 * server's own endpoints answering, and when the storage answers again the held PutItem is
 * answered and the next one is served. With the calls on that one event loop, the same stall
 * holds up the other connection too, which is why the Cassandra storage does not run there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StalledStorageTest {
  private static final String CREATE_TABLE =
      "{\"TableName\":\"stalls\",\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
          + "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}";
  private static final String PUT = "{\"TableName\":\"stalls\",\"Item\":{\"k\":{\"S\":\"held\"}}}";
  private static final String GET =
      "{\"TableName\":\"stalls\",\"Key\":{\"k\":{\"S\":\"held\"}},\"ConsistentRead\":true}";
  private static final String HEALTH = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  private static final String CONNECTIONS = "GET /stator/connections HTTP/1.1\r\nHost: x\r\n\r\n";

  @Test
  void cassandraIsServedOnWorkersAndTheLocalStoragesOnTheEventLoops() {
    assertThat(Main.Serve.callsOnEventLoops("cassandra")).isFalse();
    assertThat(Main.Serve.callsOnEventLoops("rocksdb")).isTrue();
    assertThat(Main.Serve.callsOnEventLoops("memory")).isTrue();
  }

  @Test
  void onWorkersAHeldCommitHoldsUpOnlyItsOwnConnectionAndRecovers() throws Exception {
    FaultyStorage storage = new FaultyStorage(new MemoryStorage());
    try (StatorServer server = start(storage, false);
        Socket writer = connect(server);
        Socket other = connect(server)) {
      CountDownLatch released = putHeldInTheStorage(storage, writer);

      long start = System.nanoTime();
      RawResponse read = post(other, "GetItem", GET);
      RawResponse connections = exchange(other, CONNECTIONS);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.body()).doesNotContain("held"); // the held PutItem is not applied yet
      assertThat(connections.status()).isEqualTo(200);
      assertThat(connections.body()).contains("\"Open\":2");
      System.out.println("other connection answered in " + millis + " ms during the stall");

      released.countDown();
      assertThat(RawResponse.read(writer.getInputStream()).status()).isEqualTo(200);
      storage.holdCommits(new CountDownLatch(1), null);
      assertThat(post(writer, "PutItem", PUT.replace("held", "after")).status()).isEqualTo(200);
      assertThat(post(other, "GetItem", GET).body()).contains("\"held\"");
    }
  }

  @Test
  void onTheEventLoopAHeldCommitHoldsUpTheOtherConnectionsOfTheLoop() throws Exception {
    FaultyStorage storage = new FaultyStorage(new MemoryStorage());
    try (StatorServer server = start(storage, true);
        Socket writer = connect(server);
        Socket other = connect(server)) {
      CountDownLatch released = putHeldInTheStorage(storage, writer);
      send(other, HttpProtocolTest.rawPost("GetItem", GET));
      other.setSoTimeout(1_000);
      assertThatThrownBy(() -> RawResponse.read(other.getInputStream()))
          .isInstanceOf(SocketTimeoutException.class);

      released.countDown();
      assertThat(RawResponse.read(writer.getInputStream()).status()).isEqualTo(200);
    }
  }

  /**
   * Calls that wait on the storage wait side by side, one per connection up to {@link
   * StatorServer#WORKERS}: sixteen connections' GetItems are all inside the storage at once.
   * With twice the cores of workers (4 on two), only four were, and Stator on Cassandra kept a
   * quarter of its sixteen clients' requests in flight (docs/performance.md, "On Cassandra").
   */
  @Test
  void sixteenConnectionsWaitOnTheStorageSideBySide() throws Exception {
    FaultyStorage storage = new FaultyStorage(new MemoryStorage());
    CountDownLatch entered = new CountDownLatch(16);
    CountDownLatch released = new CountDownLatch(1);
    List<Socket> clients = new ArrayList<>();
    // Released before the server closes, whose workers wait for the held reads.
    try (StatorServer server = start(storage, false);
        Closeable release = released::countDown) {
      for (int i = 0; i < 16; i++) {
        clients.add(connect(server));
      }
      assertThat(post(clients.get(0), "CreateTable", CREATE_TABLE).status()).isEqualTo(200);
      assertThat(post(clients.get(0), "GetItem", GET).status()).isEqualTo(200); // cached table
      storage.holdReads(space -> space.startsWith("table."), entered, released);

      for (Socket client : clients) {
        send(client, HttpProtocolTest.rawPost("GetItem", GET));
      }
      assertThat(entered.await(30, TimeUnit.SECONDS))
          .as("GetItems waiting inside the storage at once: %d of 16", 16 - entered.getCount())
          .isTrue();
      released.countDown();
      for (Socket client : clients) {
        assertThat(RawResponse.read(client.getInputStream()).status()).isEqualTo(200);
      }
    } finally {
      for (Socket client : clients) {
        client.close();
      }
    }
  }

  /**
   * A read that timed out is answered at once with DynamoDB's 500, without the catalog check
   * that tells a table deleted under the request apart: on a stalled storage that check waits as
   * long again (a Cassandra GetItem answered after twice the driver's timeout). Here the catalog
   * is held for as long as the test runs, so the answer arrives only if it is never read.
   */
  @Test
  void aTimedOutReadIsAnsweredWithoutWaitingOnTheCatalog() throws Exception {
    FaultyStorage storage = new FaultyStorage(new MemoryStorage());
    CountDownLatch released = new CountDownLatch(1);
    try (StatorServer server = start(storage, false);
        Socket client = connect(server)) {
      assertThat(post(client, "CreateTable", CREATE_TABLE).status()).isEqualTo(200);
      assertThat(post(client, "GetItem", GET).status()).isEqualTo(200); // the definition cached
      storage.onlyReads(space -> space.startsWith("table.")).timeOutReads(1);
      storage.holdReads(Catalog.SPACE::equals, new CountDownLatch(1), released);

      RawResponse read = post(client, "GetItem", GET);
      assertThat(read.status()).isEqualTo(500);
      assertThat(read.body()).contains("InternalServerError");
      assertThat(storage.injected()).isEqualTo(1);
    } finally {
      released.countDown();
    }
  }

  /**
   * The health check reads the catalog: while that read is held it answers 503 within its bound
   * (rather than waiting on the storage as long as the storage waits), and once the storage
   * answers again, 200.
   */
  @Test
  void theHealthCheckAnswers503WhileTheStorageStallsAnd200After() throws Exception {
    FaultyStorage storage = new FaultyStorage(new MemoryStorage());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch released = new CountDownLatch(1);
    try (StatorServer server = start(storage, false);
        Socket client = connect(server)) {
      assertThat(exchange(client, HEALTH).status()).isEqualTo(200);
      storage.holdReads(Catalog.SPACE::equals, entered, released);

      RawResponse stalled = exchange(client, HEALTH);
      // The 503 comes after the check's own bound, whether or not its thread has yet reached
      // the storage on a busy machine: wait for it to arrive there rather than assume it has.
      assertThat(entered.await(30, TimeUnit.SECONDS)).as("the check reached the storage").isTrue();
      assertThat(stalled.status()).isEqualTo(503);
      assertThat(stalled.body()).contains("the storage has not answered");
      assertThat(exchange(client, HEALTH).status()).isEqualTo(503); // the same check, still held

      released.countDown();
      assertThat(exchange(client, HEALTH).status()).isEqualTo(200);
    } finally {
      released.countDown();
    }
  }

  /**
   * Closing a server on workers with a connection open prints nothing: the connection's teardown
   * passes between its event loop and its worker, and when the loops stopped first Netty printed
   * a RejectedExecutionException ("event executor terminated") for each such connection.
   */
  @Test
  void closingOnWorkersWithAConnectionOpenPrintsNoRefusedTask() throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, UTF_8));
    // Many connections, on many workers, each torn down while the server stops
    List<Socket> clients = new ArrayList<>();
    StatorServer server = start(new FaultyStorage(new MemoryStorage()), false);
    try {
      try (server) {
        for (int i = 0; i < 40; i++) {
          Socket client = connect(server);
          clients.add(client);
          // answered without the storage, unlike the health check and its 1 s bound
          assertThat(exchange(client, CONNECTIONS).status()).isEqualTo(200);
        }
      }
      for (Socket client : clients) {
        assertThat(client.getInputStream().read()).as("the connection was closed").isEqualTo(-1);
        client.close();
      }
    } finally {
      System.setErr(err);
    }
    assertThat(printed.toString(UTF_8)).doesNotContain("RejectedExecutionException");
  }

  /**
   * Creates the table through {@code writer}, then sends a PutItem the storage holds inside its
   * commit; counting the latch down lets it go on.
   */
  private static CountDownLatch putHeldInTheStorage(FaultyStorage storage, Socket writer)
      throws Exception {
    assertThat(post(writer, "CreateTable", CREATE_TABLE).status()).isEqualTo(200);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch released = new CountDownLatch(1);
    storage.onlyCommits(space -> space.startsWith("table.")).holdCommits(entered, released);
    send(writer, HttpProtocolTest.rawPost("PutItem", PUT));
    assertThat(entered.await(30, TimeUnit.SECONDS)).as("the PutItem reached the storage").isTrue();
    return released;
  }

  private static StatorServer start(FaultyStorage storage, boolean callsOnEventLoops) {
    return StatorServer.start(
        "127.0.0.1", 0, Stator.open(storage), "us-east-1", callsOnEventLoops, 1,
        ServerLimits.defaults());
  }

  private static Socket connect(StatorServer server) throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static void send(Socket socket, byte[] request) throws IOException {
    socket.getOutputStream().write(request);
    socket.getOutputStream().flush();
  }

  private static RawResponse post(Socket socket, String operation, String body)
      throws IOException {
    send(socket, HttpProtocolTest.rawPost(operation, body));
    return RawResponse.read(socket.getInputStream());
  }

  private static RawResponse exchange(Socket socket, String request) throws IOException {
    send(socket, request.getBytes(US_ASCII));
    return RawResponse.read(socket.getInputStream());
  }
}
