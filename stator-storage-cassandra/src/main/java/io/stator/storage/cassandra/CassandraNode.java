package io.stator.storage.cassandra;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Apache Cassandra node, run as a child JVM from the jars Maven resolved for the module
 * {@code stator-cassandra-server}: for tests, benchmarks and for trying Stator on Cassandra.
 *
 * <p>{@link #start} writes a {@code cassandra.yaml} with Accord enabled into the node's directory
 * (its data, commit log, Accord journal and {@code system.log} live there too), starts {@code
 * org.apache.cassandra.service.CassandraDaemon} with the JVM flags of Cassandra's own {@code
 * jvm17-server.options}, and returns once the node accepts CQL connections. The server needs Java
 * 17 to 21 (it fails on 25): it runs on the JVM named by the system property {@code
 * stator.cassandra.java} or the environment variable {@code STATOR_CASSANDRA_JAVA} when set, else
 * on this process's own.
 *
 * <p>A directory that already holds a node's data restarts that node with its data, on the ports
 * given (a fresh directory, on free ones by default).
 */
public final class CassandraNode implements AutoCloseable {
  private static final String CLASSPATH_RESOURCE = "server.classpath";

  /**
   * The add-exports and add-opens of Cassandra's {@code conf/jvm17-server.options}: the server
   * reaches into JDK internals (direct buffers, attach, JMX) and fails without them.
   */
  private static final List<String> JPMS_FLAGS =
      List.of(
          "-Djdk.attach.allowAttachSelf=true",
          "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
          "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
          "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
          "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
          "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
          "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
          "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
          "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
          "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
          "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
          "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
          "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens", "java.base/java.io=ALL-UNNAMED",
          "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
          "--add-opens", "java.base/java.lang=ALL-UNNAMED",
          "--add-opens", "java.base/java.util=ALL-UNNAMED",
          "--add-opens", "java.base/java.nio=ALL-UNNAMED",
          "-Dio.netty.tryReflectionSetAccessible=true",
          "-Dio.netty.allocator.useCacheForAllThreads=true",
          "-Dio.netty.allocator.maxOrder=11");

  private final Path dir;
  private final String address;
  private final int nativePort;
  private final int storagePort;
  private final String heap;
  private boolean tiedToThisProcess;
  private String initialToken;
  private String seed;
  private Process process;

  private CassandraNode(Path dir, String address, int nativePort, int storagePort, String heap) {
    this.dir = dir;
    this.address = address;
    this.nativePort = nativePort;
    this.storagePort = storagePort;
    this.heap = heap;
  }

  /**
   * Makes the node exit when this process does, however it ends (a test JVM killed by its
   * runner included), instead of outliving it as a node started for a user does.
   */
  public CassandraNode tiedToThisProcess() {
    this.tiedToThisProcess = true;
    return this;
  }

  /**
   * Gives the node this one token of the Murmur3 ring instead of a random one: the nodes of a
   * local cluster get evenly spaced tokens, so each holds about the same share of the rows.
   */
  public CassandraNode withInitialToken(String token) {
    this.initialToken = token;
    return this;
  }

  /**
   * Joins the cluster whose seed node listens at {@code address:storagePort}, instead of being
   * its own seed (a cluster of one).
   */
  public CassandraNode withSeed(String addressAndStoragePort) {
    this.seed = addressAndStoragePort;
    return this;
  }

  /**
   * A node in {@code dir} on 127.0.0.1, on free ports, with a 1 GB heap. Both ports are found
   * while both are held, so they differ (two lookups one after the other could each be given
   * the port the other had just let go).
   */
  public static CassandraNode in(Path dir) {
    try (ServerSocket nativePort = new ServerSocket(0);
        ServerSocket storagePort = new ServerSocket(0)) {
      return new CassandraNode(
          dir, "127.0.0.1", nativePort.getLocalPort(), storagePort.getLocalPort(), "1g");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A node in {@code dir} on the given address and ports (9042 and 7000 are Cassandra's). */
  public static CassandraNode in(
      Path dir, String address, int nativePort, int storagePort, String heap) {
    return new CassandraNode(dir, address, nativePort, storagePort, heap);
  }

  public String address() {
    return address;
  }

  /** The port of CQL's native protocol, for the driver. */
  public int nativePort() {
    return nativePort;
  }

  public InetSocketAddress contactPoint() {
    return new InetSocketAddress(address, nativePort);
  }

  public Path directory() {
    return dir;
  }

  /**
   * Starts the node and waits until it accepts CQL connections.
   *
   * @throws IllegalStateException when the node exits or is not ready within {@code timeout}; the
   *     end of its log is in the message
   */
  public synchronized CassandraNode start(Duration timeout) {
    if (process != null) {
      throw new IllegalStateException("already started");
    }
    try {
      Files.createDirectories(dir.resolve("data"));
      Path yaml = dir.resolve("cassandra.yaml");
      Files.writeString(yaml, yaml());
      Path logback = dir.resolve("logback.xml");
      Files.writeString(logback, logback());
      List<String> command = new ArrayList<>();
      command.add(javaExecutable());
      command.add("-Xms" + heap);
      command.add("-Xmx" + heap);
      command.add("-XX:+UseG1GC");
      command.add("-XX:+ParallelRefProcEnabled");
      command.add("-XX:MaxTenuringThreshold=1");
      command.add("-Xss256k");
      command.addAll(JPMS_FLAGS);
      command.add("-Dcassandra.config=" + yaml.toUri());
      command.add("-Dcassandra.storagedir=" + dir.resolve("data"));
      command.add("-Dlogback.configurationFile=" + logback);
      command.add("-Dcassandra-foreground=yes");
      // No JMX server: nothing here uses nodetool, and it would need a port of its own.
      command.add("-cp");
      if (tiedToThisProcess) {
        command.add(serverClasspath() + File.pathSeparator + ownLocation());
        command.add("-Dstator.cassandra.parent=" + ProcessHandle.current().pid());
        command.add(NodeMain.class.getName());
      } else {
        command.add(serverClasspath());
        command.add("org.apache.cassandra.service.CassandraDaemon");
      }
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("stdout.log").toFile())
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start Cassandra in " + dir, e);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!acceptsConnections()) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Cassandra exited with " + process.exitValue() + " before it was ready:\n" + logTail());
      }
      if (System.nanoTime() > deadline) {
        stop();
        throw new IllegalStateException(
            "Cassandra was not ready within " + timeout + ":\n" + logTail());
      }
      sleep(200);
    }
    return this;
  }

  /** Stops the node (SIGTERM, then SIGKILL after 30 s); its data stays in its directory. */
  public synchronized void stop() {
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  /** The node's process id, once started: a node left running is stopped by it later. */
  public synchronized long pid() {
    if (process == null) {
      throw new IllegalStateException("not started");
    }
    return process.pid();
  }

  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * The smallest configuration of one node that Stator needs: Accord on (every table Stator
   * creates is {@code transactional_mode = 'full'}) with ephemeral reads off (they can see a
   * commit half applied: {@code CassandraStorage.refuseEphemeralReads}), one token, no bootstrap, small caches. The
   * data directories default to {@code cassandra.storagedir}, set to {@code dir/data}.
   *
   * <p>A node that ended without a clean shutdown (SIGKILL, a crash) finds no stop marker in its
   * Accord journal after its last start marker, so it cannot know its journal holds every vote
   * it gave; Cassandra's default then refuses to start ("Stop marker is older than start
   * marker"). {@code REBOOTSTRAP} starts it and has it rebuild its Accord state from its peers,
   * which is what a node killed and started again needs; the unsafe policies would trust the
   * journal as it is. Before it opens its CQL port a starting node also catches up with its peers'
   * Accord state, and waits for that up to 15 minutes by default before it starts anyway; seen
   * waiting on two loaded cores for minutes after a kill, it starts anyway after 60 s here, still
   * catching up in the background as Accord does.
   */
  private String yaml() {
    return String.join(
        "\n",
        "cluster_name: stator",
        "num_tokens: 1",
        initialToken == null ? "" : "initial_token: " + initialToken,
        "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
        "auto_bootstrap: false",
        "commitlog_sync: periodic",
        "commitlog_sync_period: 10000ms",
        "seed_provider:",
        "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
        "    parameters:",
        "      - seeds: \"" + (seed != null ? seed : address + ":" + storagePort) + "\"",
        "listen_address: " + address,
        "rpc_address: " + address,
        "storage_port: " + storagePort,
        "native_transport_port: " + nativePort,
        "start_native_transport: true",
        "endpoint_snitch: SimpleSnitch",
        "concurrent_reads: 8",
        "concurrent_writes: 8",
        "concurrent_compactors: 1",
        "key_cache_size: 8MiB",
        "file_cache_size: 64MiB",
        "memtable_heap_space: 128MiB",
        "accord:",
        "  enabled: true",
        "  ephemeral_reads: false",
        "  catchup_on_start_fail_latency: 60s",
        "  journal:",
        "    stop_marker_failure_policy: REBOOTSTRAP",
        "");
  }

  private String logback() {
    return """
        <configuration>
          <appender name="FILE" class="ch.qos.logback.core.FileAppender">
            <file>%s</file>
            <encoder><pattern>%%-5level [%%thread] %%date{ISO8601} %%F:%%L - %%msg%%n</pattern></encoder>
          </appender>
          <root level="INFO"><appender-ref ref="FILE"/></root>
        </configuration>
        """
        .formatted(dir.resolve("system.log"));
  }

  private boolean acceptsConnections() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, nativePort), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private String logTail() {
    for (String name : List.of("system.log", "stdout.log")) {
      Path log = dir.resolve(name);
      try {
        if (Files.exists(log)) {
          List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
          if (!lines.isEmpty()) {
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
          }
        }
      } catch (IOException e) {
        // fall through to the next log
      }
    }
    return "(no log)";
  }

  /**
   * The given JVM, else this process's when it is one Cassandra runs on (17 to 24), else the
   * first JDK 17 or 21 under /usr/lib/jvm.
   */
  static String javaExecutable() {
    String java = System.getProperty("stator.cassandra.java", System.getenv("STATOR_CASSANDRA_JAVA"));
    if (java != null && !java.isBlank()) {
      Path path = Path.of(java);
      return Files.isDirectory(path) ? path.resolve("bin").resolve("java").toString() : java;
    }
    Path own = Path.of(System.getProperty("java.home"), "bin", "java");
    if (Runtime.version().feature() < 25) {
      return own.toString();
    }
    for (String jdk : List.of("java-17-openjdk-amd64", "openjdk-17", "java-21-openjdk-amd64")) {
      Path candidate = Path.of("/usr/lib/jvm", jdk, "bin", "java");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException(
        "Cassandra needs Java 17 to 21, this is Java " + Runtime.version().feature()
            + ": set STATOR_CASSANDRA_JAVA (or -Dstator.cassandra.java) to a JDK 17");
  }

  /** This module's classes (a jar, or target/classes), for NodeMain. */
  private static String ownLocation() {
    try {
      return Path.of(CassandraNode.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The jar paths that the module stator-cassandra-server resolved, one classpath string. */
  static String serverClasspath() {
    try (InputStream in = CassandraNode.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "no " + CLASSPATH_RESOURCE + " beside CassandraNode: build stator-cassandra-server");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Cassandra", e);
    }
  }
}
