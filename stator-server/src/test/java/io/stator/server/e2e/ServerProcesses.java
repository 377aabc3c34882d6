package io.stator.server.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.stator.server.Main;
import io.stator.storage.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Stator servers as an operator runs them, each {@code stator serve --storage cassandra} in a
 * JVM of its own (on the test run's class path), all on one keyspace of a cluster, each on a port
 * of its own that it keeps across a restart: what {@link ClusterFaultsCheck} kills with SIGKILL,
 * pauses with SIGSTOP and starts again.
 */
final class ServerProcesses implements AutoCloseable {
  /** How long a client waits for one answer: longer than the driver's 12 s request timeout. */
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(20);

  private final List<String> serveArguments;
  private final Path logs;
  private final List<Integer> ports = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();

  /** Servers on the nodes {@code contactPoints} (host:port,...), in a keyspace of their own. */
  ServerProcesses(String contactPoints, String keyspace, int replicationFactor, Path logs) {
    this.serveArguments = List.of("serve", "--storage", "cassandra",
        "--contact-points", contactPoints, "--keyspace", keyspace,
        "--replication", "{'class': 'SimpleStrategy', 'replication_factor': "
            + replicationFactor + "}");
    this.logs = logs;
  }

  /** Starts one more server and returns its index once it listens. */
  int start() {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ports.add(port);
    processes.add(null);
    int index = ports.size() - 1;
    restart(index);
    return index;
  }

  /** Starts server {@code i} (again, after a kill) on its port, and waits until it listens. */
  void restart(int i) {
    List<String> args = new ArrayList<>(serveArguments);
    args.addAll(List.of("--port", Integer.toString(ports.get(i))));
    Path errors = logs.resolve("server-" + i + ".err");
    try {
      Files.createDirectories(logs);
      Process server = ChildJvm.start(Main.class, errors, args.toArray(String[]::new));
      processes.set(i, server);
      BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), UTF_8));
      for (String line = out.readLine(); ; line = out.readLine()) {
        if (line == null) {
          throw new IllegalStateException("server " + i + " exited before listening; stderr: "
              + Files.readString(errors));
        }
        if (line.contains(" listening on ")) {
          break;
        }
      }
      // What it prints later goes nowhere, so that it never waits on a full pipe.
      Thread drain = new Thread(() -> {
        try {
          out.transferTo(java.io.Writer.nullWriter());
        } catch (IOException e) {
          // the server exited
        }
      });
      drain.setDaemon(true);
      drain.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int size() {
    return ports.size();
  }

  URI uri(int i) {
    return URI.create("http://127.0.0.1:" + ports.get(i));
  }

  long pid(int i) {
    return processes.get(i).pid();
  }

  /** SIGKILL: the server stops where it is, mid-request, and gives no lease up. */
  void kill(int i) throws InterruptedException {
    processes.get(i).destroyForcibly();
    processes.get(i).waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGSTOP: the server holds still, connections and leases as they are, until {@link #resume}. */
  void pause(int i) throws IOException, InterruptedException {
    signal("-STOP", processes.get(i).pid());
  }

  /** SIGCONT of a server {@link #pause}d. */
  void resume(int i) throws IOException, InterruptedException {
    signal("-CONT", processes.get(i).pid());
  }

  static void signal(String signal, long pid) throws IOException, InterruptedException {
    int status = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start()
        .waitFor();
    if (status != 0) {
      throw new IllegalStateException("kill " + signal + " " + pid + " exited with " + status);
    }
  }

  /** An AWS SDK client of server {@code i} that does not retry: each error is seen once. */
  DynamoDbClient client(int i) {
    return DynamoDbClient.builder()
        .endpointOverride(uri(i))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
        .httpClient(UrlConnectionHttpClient.builder()
            .connectionTimeout(Duration.ofSeconds(2))
            .socketTimeout(ANSWER_TIMEOUT)
            .build())
        .overrideConfiguration(c -> c.retryPolicy(RetryPolicy.none()))
        .build();
  }

  /** A Streams client of server {@code i}, retrying as the SDK does by default. */
  DynamoDbStreamsClient streamsClient(int i) {
    return DynamoDbStreamsClient.builder()
        .endpointOverride(uri(i))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().socketTimeout(ANSWER_TIMEOUT).build())
        .build();
  }

  @Override
  public void close() {
    for (Process server : processes) {
      if (server != null && server.isAlive()) {
        try {
          resume(processes.indexOf(server)); // a paused server would not hear SIGTERM
        } catch (IOException | InterruptedException | RuntimeException e) {
          // it ends below either way
        }
        server.destroy();
      }
    }
    for (Process server : processes) {
      try {
        if (server != null && !server.waitFor(30, TimeUnit.SECONDS)) {
          server.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
