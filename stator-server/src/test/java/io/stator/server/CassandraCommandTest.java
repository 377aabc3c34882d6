package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stator cassandra}'s arguments and checks, none of which starts a node. */
class CassandraCommandTest {
  private final CommandRun cli = new CommandRun();

  private int run(String... args) {
    return cli.run(args);
  }

  @Test
  void helpListsStartAndStopAndTheirOptions() {
    assertThat(run("--help")).isZero();
    assertThat(cli.out()).contains("cassandra");
    assertThat(run("cassandra", "start", "--help")).isZero();
    assertThat(cli.out()).contains("--nodes", "--node", "--dir", "--native-port", "--heap");
    assertThat(run("cassandra", "stop", "--help")).isZero();
    assertThat(cli.out()).contains("--dir");
  }

  @Test
  void noSubcommandIsAUsageError() {
    assertThat(run("cassandra")).isEqualTo(2);
    assertThat(cli.err()).contains("cassandra start").contains("--help");
  }

  @Test
  void nodesMustBeBetweenOneAndNine(@TempDir Path dir) {
    assertThat(run("cassandra", "start", "--nodes", "0", "--dir", dir.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("--nodes must be between 1 and 9, not 0");
    assertThat(run("cassandra", "start", "--nodes", "10", "--dir", dir.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("not 10");
    assertThat(run("cassandra", "start", "--nodes", "two")).isEqualTo(2);
    assertThat(cli.err()).contains("--nodes");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void theNodeToStartAloneMustBeOneOfTheNodes(@TempDir Path dir) {
    assertThat(run("cassandra", "start", "--nodes", "3", "--node", "4", "--dir", dir.toString()))
        .isEqualTo(2);
    assertThat(cli.err()).contains("--node must be between 1 and --nodes (3), not 4");
    assertThat(run("cassandra", "start", "--node", "0", "--dir", dir.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("not 0");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void aWrongHeapIsAUsageError(@TempDir Path dir) {
    assertThat(run("cassandra", "start", "--heap", "lots", "--dir", dir.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("--heap must be a size in m or g").contains("'lots'");
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void aPortInUseIsRefusedBeforeAnyNodeStarts(@TempDir Path dir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertThat(run("cassandra", "start", "--dir", dir.toString(),
          "--native-port", String.valueOf(port))).isEqualTo(1);
      assertThat(cli.err()).contains("cannot listen on 127.0.0.1:" + port);
      assertThat(dir).isEmptyDirectory();
    }
  }

  @Test
  void theLoopbackAliasesOfAThreeNodeClusterWorkHere() throws Exception {
    // Linux routes all of 127/8 to the loopback interface; the three-node cluster needs .2, .3.
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    for (int i = 1; i <= 3; i++) {
      assertThat(CassandraCommand.cannotListenOn(CassandraCommand.address(i), port)).isEmpty();
    }
  }

  @Test
  void tokensAreEvenlySpacedOverTheWholeRing() {
    BigInteger min = BigInteger.ONE.shiftLeft(63).negate();
    assertThat(CassandraCommand.token(0, 1)).isEqualTo(min);
    assertThat(CassandraCommand.token(0, 3)).isEqualTo(min);
    assertThat(CassandraCommand.token(1, 3)).isEqualTo(new BigInteger("-3074457345618258603"));
    assertThat(CassandraCommand.token(2, 3)).isEqualTo(new BigInteger("3074457345618258602"));
    assertThat(CassandraCommand.token(1, 2)).isEqualTo(BigInteger.ZERO);
  }

  @Test
  void stopWithNothingRunningSaysSo(@TempDir Path dir) throws Exception {
    assertThat(run("cassandra", "stop", "--dir", dir.toString())).isZero();
    assertThat(cli.out()).contains("no Cassandra node runs in " + dir);
    // A pid file left by a node that is gone (this pid is no Cassandra) is cleaned up.
    Path node = Files.createDirectories(dir.resolve("node-1"));
    Files.writeString(node.resolve(CassandraCommand.PID_FILE), ProcessHandle.current().pid() + "\n");
    assertThat(run("cassandra", "stop", "--dir", dir.toString())).isZero();
    assertThat(cli.out()).contains("no Cassandra node runs");
    assertThat(node.resolve(CassandraCommand.PID_FILE)).doesNotExist();
  }
}
