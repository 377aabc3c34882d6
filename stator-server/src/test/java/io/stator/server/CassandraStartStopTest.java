package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stator cassandra start --nodes 1} and {@code stop} for real: one node (about 30-60 s, a
 * 1 GB heap; {@code -Dcassandra.tests.skip} leaves it out) that runs on after the command
 * returns, has the first token of the ring, and is gone after {@code stop}.
 */
class CassandraStartStopTest {
  @TempDir Path dir;

  private final CommandRun cli = new CommandRun();

  private int run(String... args) {
    return cli.run(args);
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void startsOneNodeInTheBackgroundAndStopsIt() throws Exception {
    int[] ports = freePorts();
    String nativePort = String.valueOf(ports[0]);
    String storagePort = String.valueOf(ports[1]);
    Path node = dir.resolve("node-1");
    long pid = -1;
    try {
      int status = run("cassandra", "start", "--nodes", "1", "--dir", dir.toString(),
          "--native-port", nativePort, "--storage-port", storagePort);
      assertThat(status).as(cli.err()).isZero();
      assertThat(cli.out())
          .contains("./stator serve --storage cassandra --contact-points 127.0.0.1:" + nativePort
              + " --replication \"{'class': 'SimpleStrategy', 'replication_factor': 1}\"")
          .contains("./stator cassandra stop --dir " + dir);
      pid = Long.parseLong(Files.readString(node.resolve(CassandraCommand.PID_FILE)).strip());
      assertThat(ProcessHandle.of(pid)).hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());
      assertThat(node.resolve("system.log")).isRegularFile();

      try (CqlSession session = CqlSession.builder()
          .addContactPoint(new InetSocketAddress("127.0.0.1", Integer.parseInt(nativePort)))
          .withLocalDatacenter("datacenter1")
          .build()) {
        Row local = session.execute("SELECT tokens FROM system.local").one();
        assertThat(local.getSet("tokens", String.class))
            .containsExactly(String.valueOf(Long.MIN_VALUE));
      }

      // A second start on the same directory is refused while the node runs.
      assertThat(run("cassandra", "start", "--dir", dir.toString(), "--native-port",
          String.valueOf(freePort()), "--storage-port", String.valueOf(freePort()))).isEqualTo(1);
      assertThat(cli.err()).contains("a node already runs in " + node);

      assertThat(run("cassandra", "stop", "--dir", dir.toString())).isZero();
      assertThat(cli.out())
          .contains("stopped the Cassandra node in " + node + " (pid " + pid + ")");
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      assertThat(node.resolve(CassandraCommand.PID_FILE)).doesNotExist();
    } finally {
      if (pid > 0) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  private static int freePort() throws Exception {
    return freePorts()[0];
  }

  /**
   * Two free ports, found while both are held: one found and closed before the other was looked
   * for could be found again, and the node would be given one port for both.
   */
  private static int[] freePorts() throws Exception {
    try (ServerSocket first = new ServerSocket(0);
        ServerSocket second = new ServerSocket(0)) {
      return new int[] {first.getLocalPort(), second.getLocalPort()};
    }
  }
}
