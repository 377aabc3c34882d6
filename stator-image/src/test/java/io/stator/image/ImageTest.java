package io.stator.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The image tarball the build writes (OCI layout): its settings, its layers, and — where the
 * test runs as root with {@code unshare} and {@code chroot}, as a container runtime would run
 * it — the server started from the image's own files alone, as user 1000, serving the SDK with
 * RocksDB in its {@code /data} volume. No container runtime is needed.
 */
class ImageTest {
  private static final Pattern LISTENING = Pattern.compile("listening on http://[^:]+:(\\d+)");
  private static final Path IMAGE = Path.of(System.getProperty("stator.image.tar",
      "target/stator-image.tar"));
  private static final Pattern DIGEST = Pattern.compile("\"digest\":\"sha256:([0-9a-f]{64})\"");
  private static final Pattern SIZE = Pattern.compile("\"size\":(\\d+)");

  @TempDir static Path unpacked;
  static Path root;
  static String config;
  static List<Long> layerSizes = new ArrayList<>();

  @BeforeAll
  static void unpack() throws Exception {
    assertThat(IMAGE).as("the image tarball").exists();
    Path layout = unpacked.resolve("layout");
    Files.createDirectories(layout);
    run(List.of("tar", "-xf", IMAGE.toString(), "-C", layout.toString()));
    Path blobs = layout.resolve("blobs/sha256");
    List<String> manifests = digests(Files.readString(layout.resolve("index.json")));
    assertThat(manifests).hasSize(1);
    String manifest = Files.readString(blobs.resolve(manifests.get(0)));
    List<String> digests = digests(manifest);
    config = Files.readString(blobs.resolve(digests.get(0)));
    Matcher sizes = SIZE.matcher(manifest.substring(manifest.indexOf("\"layers\"")));
    while (sizes.find()) {
      layerSizes.add(Long.parseLong(sizes.group(1)));
    }
    root = unpacked.resolve("root");
    Files.createDirectories(root);
    for (String layer : digests.subList(1, digests.size())) {
      run(List.of("tar", "--warning=no-unknown-keyword", "-xzf",
          blobs.resolve(layer).toString(), "-C", root.toString()));
    }
  }

  @Test
  void theImageRunsTheServerAsAnUnprivilegedUserWithItsDataInAVolume() {
    assertThat(config)
        .contains("\"Entrypoint\":[\"/opt/java/bin/java\"")
        .contains("\"Cmd\":[\"serve\",\"--host\",\"0.0.0.0\",\"--port\",\"8000\",\"--data-dir\","
            + "\"/data\"]")
        .contains("\"ExposedPorts\":{\"8000/tcp\":{}}")
        .contains("\"Volumes\":{\"/data\":{}}")
        .contains("\"User\":\"1000:1000\"");
  }

  @Test
  void theLayersHoldARuntimeTheLibrariesItLoadsAndTheServer() throws IOException {
    assertThat(Files.isExecutable(root.resolve("opt/java/bin/java"))).isTrue();
    assertThat(Files.isExecutable(root.resolve("lib64/ld-linux-x86-64.so.2"))).isTrue();
    assertThat(root.resolve("lib/x86_64-linux-gnu/libc.so.6")).exists();
    // RocksDB's JNI library is C++
    assertThat(root.resolve("lib/x86_64-linux-gnu/libstdc++.so.6")).exists();
    assertThat(root.resolve("app/LICENSE")).exists();
    // RocksDB's library, loaded from the library path rather than copied out of its jar
    try (Stream<Path> natives = Files.list(root.resolve("opt/stator/native"))) {
      assertThat(natives.map(p -> p.getFileName().toString()))
          .anyMatch(name -> name.startsWith("librocksdbjni"));
    }
    assertThat(root.resolve("opt/java/lib/server/classes.jsa")).exists();
    try (Stream<Path> jars = Files.list(root.resolve("app/libs"))) {
      assertThat(jars.map(p -> p.getFileName().toString()))
          .anyMatch(name -> name.startsWith("stator-server-"))
          .anyMatch(name -> name.startsWith("rocksdbjni-"))
          .anyMatch(name -> name.startsWith("slf4j-simple-"));
    }
    assertThat(Files.readString(root.resolve("app/jib-classpath-file"))).contains("/app/libs/");
    // Stator's own jars are a layer of their own, small beside the third-party jars
    assertThat(layerSizes).hasSizeGreaterThanOrEqualTo(3);
    assertThat(layerSizes).anyMatch(size -> size < 5_000_000);
  }

  @Test
  void theServerStartsFromTheImagesOwnFiles() throws Exception {
    assumeTrue(runsAsRoot() && onPath("unshare") && onPath("chroot"),
        "needs root, unshare and chroot to run the image without a container runtime");
    List<String> entrypoint = strings("Entrypoint");
    String command = "mount -t proc proc " + root.resolve("proc")
        + " && mount --rbind /dev " + root.resolve("dev")
        + " && exec chroot --userspec=1000:1000 " + root + " "
        + String.join(" ", entrypoint)
        + " serve --host 127.0.0.1 --port 0 --data-dir /data";
    long started = System.nanoTime();
    Process server = new ProcessBuilder("unshare", "--mount", "sh", "-c", command)
        .redirectErrorStream(true).start();
    try {
      String listening = awaitLine(server, "listening on");
      long millis = (System.nanoTime() - started) / 1_000_000;
      System.out.println("the image's server answered its first line after " + millis + " ms: "
          + listening);
      assertThat(listening).contains("RocksDB at /data");
      // The port the server chose itself: one found free here and passed to it could be taken
      // by another process's connection before the server bound it.
      Matcher chosen = LISTENING.matcher(listening);
      assertThat(chosen.find()).as(listening).isTrue();
      int port = Integer.parseInt(chosen.group(1));
      try (DynamoDbClient dynamo = DynamoDbClient.builder()
          .endpointOverride(URI.create("http://127.0.0.1:" + port))
          .region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(
              AwsBasicCredentials.create("local", "local")))
          .httpClient(UrlConnectionHttpClient.create())
          .build()) {
        dynamo.createTable(b -> b.tableName("Boxed")
            .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
            .keySchema(k -> k.attributeName("id").keyType("HASH"))
            .billingMode("PAY_PER_REQUEST"));
        dynamo.putItem(b -> b.tableName("Boxed").item(Map.of(
            "id", AttributeValue.fromS("a"), "v", AttributeValue.fromN("1"))));
        assertThat(dynamo.getItem(b -> b.tableName("Boxed")
            .key(Map.of("id", AttributeValue.fromS("a")))).item().get("v").n()).isEqualTo("1");
      }
      assertThat(root.resolve("data/CURRENT")).exists();
      try (Stream<Path> tmp = Files.list(root.resolve("tmp"))) {
        assertThat(tmp.map(p -> p.getFileName().toString()))
            .as("RocksDB loaded its library from the image's library path")
            .noneMatch(name -> name.contains("rocksdbjni"));
      }
    } finally {
      server.destroy();
      assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("the server stopped").isTrue();
    }
  }

  @Test
  void theClassDataArchiveMapsOnTheImagesOwnRuntimeAndJars() throws Exception {
    assumeTrue(runsAsRoot() && onPath("unshare") && onPath("chroot"),
        "needs root, unshare and chroot to run the image without a container runtime");
    assertThat(root.resolve("opt/stator/stator.jsa")).as("recorded as root").exists();
    assertThat(strings("Entrypoint")).contains("-XX:SharedArchiveFile=/opt/stator/stator.jsa");
    // -Xshare:on makes an archive the JVM cannot use (other jars, another runtime) fatal
    run(List.of("unshare", "--mount", "sh", "-c", "mount -t proc proc " + root.resolve("proc")
        + " && exec chroot --userspec=1000:1000 " + root + " /opt/java/bin/java -Xshare:on"
        + " -XX:SharedArchiveFile=/opt/stator/stator.jsa -cp @/app/jib-classpath-file"
        + " io.stator.server.Main --version"));
  }

  /** Reads the process's output until a line containing {@code text}; fails if it ends first. */
  private static String awaitLine(Process process, String text) throws IOException {
    BufferedReader lines = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (line.contains(text)) {
        Thread drain = new Thread(() -> {
          try {
            while (lines.readLine() != null) {
              // keep the pipe from filling
            }
          } catch (IOException closed) {
            // the process ended
          }
        });
        drain.setDaemon(true);
        drain.start();
        return line;
      }
      seen.append(line).append('\n');
    }
    throw new AssertionError("the server ended before \"" + text + "\":\n" + seen);
  }

  /** The strings of a JSON array member of the image's config. */
  private static List<String> strings(String member) {
    Matcher array = Pattern.compile("\"" + member + "\":\\[([^\\]]*)\\]").matcher(config);
    assertThat(array.find()).as(member).isTrue();
    List<String> out = new ArrayList<>();
    Matcher string = Pattern.compile("\"([^\"]*)\"").matcher(array.group(1));
    while (string.find()) {
      out.add(string.group(1));
    }
    return out;
  }

  private static List<String> digests(String json) {
    List<String> out = new ArrayList<>();
    Matcher m = DIGEST.matcher(json);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static boolean runsAsRoot() {
    try {
      Process id = new ProcessBuilder("id", "-u").start();
      String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return id.waitFor() == 0 && uid.equals("0");
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  private static void run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(String.join(" ", command) + "\n" + out).isZero();
  }
}
