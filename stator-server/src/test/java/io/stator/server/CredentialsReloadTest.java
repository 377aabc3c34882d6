package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * The --credentials file of a server in a child JVM is read again when it changes (and on {@code
 * kill -HUP}, which a process started under nohup never receives, so the test relies on the
 * change): a key added is accepted, a key removed refused, and a file that no longer reads keeps
 * the keys in use.
 */
class CredentialsReloadTest {
  @TempDir Path dir;

  private static DynamoDbClient client(int port, String key, String secret) {
    return DynamoDbClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret)))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private static boolean accepted(DynamoDbClient dynamo) {
    DynamoDbException e = catchThrowableOfType(dynamo::listTables, DynamoDbException.class);
    if (e != null) {
      assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnrecognizedClientException");
    }
    return e == null;
  }

  /** Writes {@code keys}, then waits until the server's stderr says the file was read again. */
  private static void change(Path file, String keys, Path errors, String expected)
      throws Exception {
    long before = Files.readString(errors).lines().filter(l -> l.contains(expected)).count();
    // Replaced whole, by a rename: written in place, the file is empty for a moment between its
    // truncation and its write, and a look at it then (once a second, at any time) reads no keys.
    Path next = Files.writeString(file.resolveSibling(file.getFileName() + ".next"), keys);
    Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (Files.readString(errors).lines().filter(l -> l.contains(expected)).count() == before) {
      assertThat(System.nanoTime()).as("the server's reload").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aChangedFileReloadsTheKeys() throws Exception {
    Path keys = Files.writeString(dir.resolve("keys.txt"), "AKIDFIRST first-secret\n");
    Path errors = dir.resolve("server.err");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "serve", "--in-memory", "--port", "0", "--auth", "sigv4",
        "--credentials", keys.toString()));
    Process server = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    try {
      int port = ChildServers.port(server, errors);
      try (DynamoDbClient first = client(port, "AKIDFIRST", "first-secret");
          DynamoDbClient second = client(port, "AKIDSECOND", "second-secret")) {
        assertThat(accepted(first)).isTrue();
        assertThat(accepted(second)).isFalse();

        change(keys, "# the first key revoked\nAKIDSECOND second-secret\n", errors,
            "stator: reloaded 1 keys from " + keys);
        assertThat(accepted(second)).isTrue();
        assertThat(accepted(first)).isFalse();

        change(keys, "AKIDBROKEN\n", errors, "stator: kept the keys in use: cannot read " + keys);
        assertThat(accepted(second)).isTrue();
      }
    } finally {
      server.destroyForcibly();
      server.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
