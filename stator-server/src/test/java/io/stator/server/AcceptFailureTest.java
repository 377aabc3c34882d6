package io.stator.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.server.HttpProtocolTest.RawResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose accepts fail for want of descriptors serves again once the connections are
 * gone. The server runs in a child JVM under {@code ulimit -n 256}, with a connection limit far
 * above it so that the kernel, not the limit, refuses: the probe's server never accepted again
 * (its listening socket's event loop died logging the failure), and its health check kept
 * answering 200.
 */
class AcceptFailureTest {
  private static final int DESCRIPTORS = 256;
  private static final int FLOOD = 600;
  private static final Pattern FAILURES = Pattern.compile("\"AcceptFailures\":(\\d+)");

  @TempDir Path dir;

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void anEventLoopSurvivesAcceptFailuresAndTheServerServesAgainOnceTheFloodIsGone()
      throws Exception {
    Path errors = dir.resolve("server.err");
    Process server = startUnderDescriptorLimit(errors,
        "serve", "--port", "0", "--in-memory", "--max-connections", "100000");
    List<Socket> flood = new ArrayList<>();
    try {
      int port = ChildServers.port(server, errors);
      try (Socket health = connect(port, 10_000)) {
        // Healthy to begin with: the first storage check of a new JVM on a busy machine can
        // outlast the health check's 1 s bound, so the check is asked until it answers 200.
        long healthyBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (get(health, "/").status() != 200) {
          assertThat(System.nanoTime() - healthyBy).as("healthy before the flood").isNegative();
          Thread.sleep(50);
        }

        for (int i = 0; i < FLOOD; i++) {
          try {
            flood.add(connect(port, 2_000));
          } catch (IOException backlogFull) {
            break;
          }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (acceptFailures(health) == 0) {
          assertThat(System.nanoTime() - deadline)
              .as("accept failures after %d connections", flood.size()).isNegative();
          Thread.sleep(50);
        }
        // Accepts keep failing while the backlog holds connections: the health check says so.
        RawResponse unhealthy = get(health, "/");
        assertThat(unhealthy.status()).isEqualTo(503);
        assertThat(unhealthy.body()).startsWith("unhealthy: cannot accept connections");

        for (Socket socket : flood) {
          socket.close();
        }
        flood.clear();

        // A new connection is served, and the health check passes again, on it and on the old.
        RawResponse fresh = null;
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (fresh == null || fresh.status() != 200) {
          assertThat(System.nanoTime() - deadline)
              .as("a served connection after the flood; last answer %s", fresh).isNegative();
          Thread.sleep(200);
          try (Socket socket = connect(port, 2_000)) {
            socket.setSoTimeout(2_000);
            fresh = get(socket, "/");
          } catch (IOException notYet) {
            // accepted later, or refused while the flood's connections close
          }
        }
        assertThat(fresh.body()).startsWith("healthy: ");
        assertThat(get(health, "/").status()).isEqualTo(200);
      }
      assertThat(server.isAlive()).isTrue();
    } finally {
      for (Socket socket : flood) {
        socket.close();
      }
      server.destroyForcibly();
      server.waitFor(30, TimeUnit.SECONDS);
    }
    String stderr = Files.readString(errors);
    assertThat(stderr).doesNotContain("Exception in thread").contains("Too many open files");
    // One line a second at most, not one per failed accept.
    assertThat(stderr.lines().filter(l -> l.contains("cannot accept")).count()).isLessThan(60);
  }

  /** The server's main in a JVM whose open-file limit is {@value #DESCRIPTORS}. */
  private Process startUnderDescriptorLimit(Path errors, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        "bash", "-c", "ulimit -n " + DESCRIPTORS + " && exec \"$@\"", "bash",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        "-Djava.io.tmpdir=" + dir.toAbsolutePath(),
        "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(errors.toFile()).start();
  }

  private static Socket connect(int port, int timeoutMillis) throws IOException {
    Socket socket = new Socket();
    try {
      socket.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
      socket.setSoTimeout(10_000);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }

  private static RawResponse get(Socket socket, String path) throws IOException {
    socket.getOutputStream().write(
        ("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(US_ASCII));
    socket.getOutputStream().flush();
    return RawResponse.read(socket.getInputStream());
  }

  private static long acceptFailures(Socket health) throws IOException {
    Matcher m = FAILURES.matcher(get(health, "/stator/connections").body());
    assertThat(m.find()).isTrue();
    return Long.parseLong(m.group(1));
  }
}
