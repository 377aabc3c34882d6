package io.stator.server;

import io.stator.storage.cassandra.CassandraNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stator cassandra start|stop}: a local Apache Cassandra cluster for trying Stator on
 * Cassandra, from the server's jars the build resolved (as the tests' {@link CassandraNode}).
 * Node {@code i} (from 1) listens on 127.0.0.{@code i}, every node on the same ports, each with
 * one token of {@code N} evenly spaced over the ring, so a table's rows spread evenly; each
 * node's data, logs and pid file are in {@code D/node-i}. The nodes run on in the background
 * until {@code stop}; {@code start --node i} starts node {@code i} alone, as after a crash.
 */
@Command(
    name = "cassandra",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Start or stop a local Apache Cassandra cluster to serve Stator from.",
    subcommands = {CassandraCommand.Start.class, CassandraCommand.Stop.class})
final class CassandraCommand implements Runnable {
  static final String PID_FILE = "cassandra.pid";
  static final int MAX_NODES = 9;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "Missing command: 'stator cassandra start' or 'stator cassandra stop'");
  }

  @Command(
      name = "start",
      mixinStandardHelpOptions = true,
      versionProvider = Main.Version.class,
      description =
          "Start N Cassandra nodes on 127.0.0.1 ... 127.0.0.N in the background and print the"
              + " 'stator serve' command for them.")
  static final class Start implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--nodes",
        defaultValue = "1",
        description = "Number of nodes, 1 to " + MAX_NODES + " (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(
        names = "--node",
        paramLabel = "I",
        description =
            "Start only node I of the N (1 to N) and leave the others as they are: restarts a node"
                + " that stopped or was killed, with its data, to join the nodes still running.")
    Integer node;

    @Option(
        names = "--dir",
        defaultValue = "stator-cassandra",
        description = "Directory of the nodes' data and logs (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(
        names = "--native-port",
        defaultValue = "9042",
        description = "Every node's CQL port, on its own address (default: ${DEFAULT-VALUE}).")
    int nativePort;

    @Option(
        names = "--storage-port",
        defaultValue = "7000",
        description =
            "Every node's port for the other nodes, on its own address (default:"
                + " ${DEFAULT-VALUE}).")
    int storagePort;

    @Option(
        names = "--heap",
        defaultValue = "1g",
        description = "Each node's Java heap (default: ${DEFAULT-VALUE}).")
    String heap;

    @Option(
        names = "--timeout",
        defaultValue = "3m",
        converter = Main.DurationConverter.class,
        description = "How long to wait for each node to accept connections (default: 3m).")
    Duration timeout;

    @Override
    public Integer call() {
      CommandLine cli = spec.commandLine();
      if (nodes < 1 || nodes > MAX_NODES) {
        throw new CommandLine.ParameterException(
            cli, "--nodes must be between 1 and " + MAX_NODES + ", not " + nodes);
      }
      if (!heap.matches("\\d+[mMgG]")) {
        throw new CommandLine.ParameterException(
            cli, "--heap must be a size in m or g (examples: 512m, 1g), not '" + heap + "'");
      }
      if (node != null && (node < 1 || node > nodes)) {
        throw new CommandLine.ParameterException(
            cli, "--node must be between 1 and --nodes (" + nodes + "), not " + node);
      }
      int first = node == null ? 1 : node;
      int last = node == null ? nodes : node;
      PrintWriter out = cli.getOut();
      PrintWriter err = cli.getErr();
      List<String> contactPoints = new ArrayList<>();
      for (int i = 1; i <= nodes; i++) {
        contactPoints.add(address(i) + ":" + nativePort);
      }
      for (int i = first; i <= last; i++) {
        String address = address(i);
        Optional<String> problem = cannotListenOn(address, nativePort, storagePort);
        if (problem.isPresent()) {
          err.println("stator: " + problem.get());
          err.flush();
          return 1;
        }
        Path nodeDir = dir.resolve("node-" + i);
        Optional<Long> running = runningPid(nodeDir);
        if (running.isPresent()) {
          err.println("stator: a node already runs in " + nodeDir + " (pid " + running.get()
              + "); 'stator cassandra stop --dir " + dir + "' stops it");
          err.flush();
          return 1;
        }
      }
      String seed = address(1) + ":" + storagePort;
      for (int i = first; i <= last; i++) {
        Path nodeDir = dir.resolve("node-" + i);
        out.println("stator: starting Cassandra node " + i + " of " + nodes + " on " + address(i)
            + " (log: " + nodeDir.resolve("system.log") + ") ...");
        out.flush();
        CassandraNode node =
            CassandraNode.in(nodeDir, address(i), nativePort, storagePort, heap)
                .withInitialToken(token(i - 1, nodes).toString())
                .withSeed(seed);
        try {
          // One at a time: a node joins the ring through the ones already up.
          node.start(timeout);
          Files.writeString(nodeDir.resolve(PID_FILE), node.pid() + "\n");
        } catch (IllegalStateException | IOException e) {
          err.println("stator: node " + i + " did not start: " + e.getMessage());
          err.println("stator: 'stator cassandra stop --dir " + dir + "' stops the nodes that did");
          err.flush();
          node.stop();
          return 1;
        }
      }
      int replication = Math.min(nodes, 3);
      out.println("stator: " + nodes + (nodes == 1 ? " node runs" : " nodes run") + " in "
          + dir + "; serve Stator from " + (nodes == 1 ? "it" : "them") + " with:");
      out.println();
      out.println("  ./stator serve --storage cassandra --contact-points "
          + String.join(",", contactPoints)
          + " --replication \"{'class': 'SimpleStrategy', 'replication_factor': "
          + replication + "}\"");
      out.println();
      out.println("stator: and stop " + (nodes == 1 ? "it" : "them")
          + " with: ./stator cassandra stop --dir " + dir);
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "stop",
      mixinStandardHelpOptions = true,
      versionProvider = Main.Version.class,
      description = "Stop the nodes 'stator cassandra start' started in the directory.")
  static final class Stop implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--dir",
        defaultValue = "stator-cassandra",
        description = "Directory the nodes were started in (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      List<Path> nodeDirs;
      if (!Files.isDirectory(dir)) {
        nodeDirs = List.of();
      } else {
        try (Stream<Path> list = Files.list(dir)) {
          nodeDirs =
              list.filter(p -> Files.isRegularFile(p.resolve(PID_FILE))).sorted().toList();
        }
      }
      // Every node told to stop first, then each waited for: they shut down side by side.
      List<Path> stopping = new ArrayList<>();
      List<ProcessHandle> nodes = new ArrayList<>();
      for (Path nodeDir : nodeDirs) {
        Optional<ProcessHandle> node = runningPid(nodeDir).flatMap(ProcessHandle::of);
        if (node.isPresent()) {
          node.get().destroy();
          stopping.add(nodeDir);
          nodes.add(node.get());
        } else {
          Files.deleteIfExists(nodeDir.resolve(PID_FILE));
        }
      }
      for (int i = 0; i < nodes.size(); i++) {
        awaitExit(nodes.get(i));
        out.println("stator: stopped the Cassandra node in " + stopping.get(i) + " (pid "
            + nodes.get(i).pid() + ")");
        out.flush();
        Files.deleteIfExists(stopping.get(i).resolve(PID_FILE));
      }
      if (nodes.isEmpty()) {
        out.println("stator: no Cassandra node runs in " + dir);
      }
      out.flush();
      return 0;
    }

    /** Waits for a node told to stop (SIGTERM: Cassandra flushes and exits); SIGKILL after 60 s. */
    private static void awaitExit(ProcessHandle node) {
      try {
        node.onExit().get(60, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        node.destroyForcibly();
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Node {@code i}'s address (from 1): loopback addresses, one per node. */
  static String address(int i) {
    return "127.0.0." + i;
  }

  /**
   * The {@code i}th (from 0) of {@code n} tokens evenly spaced over Murmur3's ring, [-2^63,
   * 2^63).
   */
  static BigInteger token(int i, int n) {
    BigInteger ring = BigInteger.ONE.shiftLeft(64);
    return BigInteger.ONE.shiftLeft(63).negate()
        .add(ring.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(n)));
  }

  /**
   * Why a node could not listen on the address and ports, if it could not: most often a missing
   * loopback alias (macOS has only 127.0.0.1 until one is added) or a node already there.
   */
  static Optional<String> cannotListenOn(String address, int... ports) {
    for (int port : ports) {
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(InetAddress.getByName(address), port));
      } catch (java.net.BindException e) {
        return Optional.of("cannot listen on " + address + ":" + port + " (" + e.getMessage()
            + "): another process holds the port, or the address is not this machine's (on"
            + " macOS, add it with 'sudo ifconfig lo0 alias " + address + " up')");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Optional.empty();
  }

  /**
   * The pid in the node directory's pid file when that process still runs and is a Cassandra
   * node: a pid left by a node that exited may since belong to another process.
   */
  static Optional<Long> runningPid(Path nodeDir) {
    Path file = nodeDir.resolve(PID_FILE);
    long pid;
    try {
      if (!Files.isRegularFile(file)) {
        return Optional.empty();
      }
      pid = Long.parseLong(Files.readString(file).strip());
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        // CassandraNode names the node's cassandra.yaml on its command line.
        .filter(p -> p.info().commandLine().map(c -> c.contains("-Dcassandra.config=")).orElse(true))
        .map(ProcessHandle::pid);
  }
}
