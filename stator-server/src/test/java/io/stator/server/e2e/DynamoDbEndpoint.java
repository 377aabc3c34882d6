package io.stator.server.e2e;

import io.stator.Stator;
import io.stator.api.Database;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.server.StatorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A DynamoDB endpoint for the tests: the real {@link StatorServer} on a free loopback port over a
 * storage engine, or an external endpoint; plus a {@link DynamoDbClient} of the AWS SDK for Java
 * v2 pointed at it.
 *
 * <p>The client does not retry, so a server error surfaces once, as it happened, and it records
 * the headers of the last HTTP response so the protocol tests can look at them.
 */
final class DynamoDbEndpoint implements AutoCloseable {
  private final Target target;
  private final Path dataDirectory;
  private final Path exportDirectory;
  private final Map<String, String> lastResponseHeaders = new ConcurrentHashMap<>();
  private StatorServer server;
  private Database database;
  private DynamoDbClient client;
  private DynamoDbStreamsClient streamsClient;
  private URI uri;

  private DynamoDbEndpoint(Target target, Path dataDirectory, Path exportDirectory) {
    this.target = target;
    this.dataDirectory = dataDirectory;
    this.exportDirectory = exportDirectory;
  }

  static DynamoDbEndpoint start(Target target) {
    Path dataDirectory = null;
    Path exportDirectory = null;
    try {
      if (target.isDurable()) {
        dataDirectory = Files.createTempDirectory("stator-e2e-");
      }
      if (target != Target.EXTERNAL) {
        exportDirectory = Files.createTempDirectory("stator-e2e-exports-");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DynamoDbEndpoint endpoint = new DynamoDbEndpoint(target, dataDirectory, exportDirectory);
    endpoint.open();
    return endpoint;
  }

  private void open() {
    if (target == Target.EXTERNAL) {
      uri = URI.create(Target.externalEndpoint());
    } else {
      database = Stator.open(Storages.open(target, dataDirectory),
          EngineOptions.defaults().withExportDirectory(exportDirectory));
      // As the command line serves both storages on two cores: calls on two event loops.
      server = StatorServer.start("127.0.0.1", 0, database, "us-east-1", true, 2);
      uri = uri(server);
    }
    client = client(uri, new HeaderRecorder());
    // DynamoDB Streams is served on the same endpoint.
    streamsClient = streamsClient(uri);
  }

  /** The endpoint of a server started on loopback by a test. */
  static URI uri(StatorServer server) {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  /** An AWS SDK DynamoDB client on the endpoint, with test credentials and no retries. */
  static DynamoDbClient client(URI uri, ExecutionInterceptor... interceptors) {
    return configure(DynamoDbClient.builder(), uri, interceptors).build();
  }

  /** An AWS SDK DynamoDB Streams client on the endpoint, with test credentials and no retries. */
  static DynamoDbStreamsClient streamsClient(URI uri) {
    return configure(DynamoDbStreamsClient.builder(), uri).build();
  }

  private static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
      B builder, URI uri, ExecutionInterceptor... interceptors) {
    return builder
        .endpointOverride(uri)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> {
          c.retryPolicy(RetryPolicy.none());
          for (ExecutionInterceptor interceptor : interceptors) {
            c.addExecutionInterceptor(interceptor);
          }
        });
  }

  /**
   * Waits until the global secondary indexes have caught up with every write so far. On the
   * real server this asks the engine; an external endpoint gets a generous pause instead.
   */
  void awaitIndexes() {
    try {
      if (database instanceof Engine engine) {
        if (!engine.awaitIndexes(Duration.ofSeconds(60))) {
          throw new AssertionError("indexes did not catch up within 60 s");
        }
      } else {
        Thread.sleep(2000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  Target target() {
    return target;
  }

  /** The directory the server's S3 buckets are in, or null for an external endpoint. */
  Path exportDirectory() {
    return exportDirectory;
  }

  /** The database behind the server, or null for an external endpoint. */
  Database database() {
    return database;
  }

  DynamoDbClient client() {
    return client;
  }

  /** The AWS SDK's DynamoDB Streams client, on the same endpoint. */
  DynamoDbStreamsClient streamsClient() {
    return streamsClient;
  }

  URI uri() {
    return uri;
  }

  /** Headers of the last HTTP response the client received, names in lower case. */
  Map<String, String> lastResponseHeaders() {
    return Map.copyOf(lastResponseHeaders);
  }

  /**
   * Stops the server, closing its database and storage, then opens the storage again on the same
   * data directory and starts a new server: what a user does with {@code stator serve} after a
   * restart. Only a durable target can do this.
   */
  void restart() {
    if (!target.isDurable()) {
      throw new IllegalStateException(target + " keeps nothing across a restart");
    }
    client.close();
    streamsClient.close();
    server.close();
    open();
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    if (streamsClient != null) {
      streamsClient.close();
    }
    if (server != null) {
      server.close();
    }
    if (dataDirectory != null) {
      deleteRecursively(dataDirectory);
    }
    if (exportDirectory != null) {
      deleteRecursively(exportDirectory);
    }
  }

  static void deleteRecursively(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final class HeaderRecorder implements ExecutionInterceptor {
    @Override
    public void afterTransmission(
        Context.AfterTransmission context, ExecutionAttributes executionAttributes) {
      lastResponseHeaders.clear();
      context.httpResponse().headers().forEach((name, values) ->
          lastResponseHeaders.put(name.toLowerCase(java.util.Locale.ROOT), String.join(",", values)));
    }
  }
}
