package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.memory.MemoryStorage;
import io.stator.storage.rocksdb.NativeLibrary;
import io.stator.storage.rocksdb.RocksDbStorage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
  private final CommandRun command = new CommandRun();

  private int run(String... args) {
    return command.run(args);
  }

  @Test
  void versionComesFromTheBuild() {
    assertThat(run("--version")).isZero();
    assertThat(command.out().trim()).matches("Stator \\d+\\.\\d+\\.\\d+.*");
    assertThat(command.out()).doesNotContain("${");
  }

  @Test
  void classDataTrainingServesAFirstSessionOnBothStoragesAndStaysOutOfTheHelp() {
    assertThat(run("class-data-training")).isZero();
    assertThat(command.err()).isEmpty();
    assertThat(run("--help")).isZero();
    assertThat(command.out()).doesNotContain("class-data-training");
  }

  @Test
  void nativeLibraryPutsRocksDbsLibraryInTheDirectoryAndStaysOutOfTheHelp(@TempDir Path dir) {
    assertThat(run("native-library", dir.resolve("native").toString())).isZero();
    assertThat(dir.resolve("native").resolve(NativeLibrary.fileName())).isRegularFile();
    assertThat(run("--help")).isZero();
    assertThat(command.out()).contains("serve").doesNotContain("native-library");
  }

  @Test
  void classDataTrainingAnswersEveryCallOfTheSession() throws Exception {
    // The exit status alone would hold for a command that trains nothing: the calls must have
    // been served, the item written, read back and the table listed.
    List<String> bodies = ClassDataTraining.train(new MemoryStorage());
    assertThat(bodies).hasSize(5);
    assertThat(bodies.get(0)).contains("\"TableName\":\"training\"");
    assertThat(bodies.get(2)).contains("\"v\":{\"S\":\"x\"}");
    assertThat(bodies.get(3)).contains("\"Count\":1");
    assertThat(bodies.get(4)).isEqualTo("{\"TableNames\":[\"training\"]}");
  }

  @Test
  void helpListsServeAndItsOptions() {
    assertThat(run("--help")).isZero();
    assertThat(command.out()).contains("serve");
    assertThat(run("serve", "--help")).isZero();
    assertThat(command.out())
        .contains("--port", "--host", "--data-dir", "--in-memory", "--region",
            "--ttl-sweep-interval", "--cache-size", "--event-loops", "--max-connections",
            "--idle-timeout", "--header-timeout", "--body-timeout");
  }

  @Test
  void maxConnectionsMustBeAtLeastOneAndTimeoutsAreDurations() {
    assertThat(run("serve", "--in-memory", "--max-connections", "0")).isEqualTo(2);
    assertThat(command.err()).contains("--max-connections must be at least 1, not 0");
    assertThat(run("serve", "--in-memory", "--idle-timeout", "forever")).isEqualTo(2);
    assertThat(command.err()).contains("'forever' is not a duration");
    assertThat(run("serve", "--in-memory", "--body-timeout", "-1s")).isEqualTo(2);
    assertThat(command.err()).contains("'-1s' is not a duration");
  }

  @Test
  void ttlSweepIntervalTakesShortDurations() {
    Main.DurationConverter durations = new Main.DurationConverter();
    assertThat(durations.convert("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(durations.convert("1s")).isEqualTo(Duration.ofSeconds(1));
    assertThat(durations.convert("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(durations.convert("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(durations.convert("0")).isEqualTo(Duration.ZERO);
    assertThat(durations.convert("PT0.5S")).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void aWrongTtlSweepIntervalIsAUsageError() {
    assertThat(run("serve", "--in-memory", "--ttl-sweep-interval", "soon")).isEqualTo(2);
    assertThat(command.err()).contains("'soon' is not a duration");
    assertThat(run("serve", "--in-memory", "--ttl-sweep-interval", "-1s")).isEqualTo(2);
  }

  @Test
  void cacheSizeTakesBytesAndBinaryUnits() {
    Main.SizeConverter sizes = new Main.SizeConverter();
    assertThat(sizes.convert("1048576")).isEqualTo(1L << 20);
    assertThat(sizes.convert("512k")).isEqualTo(512L << 10);
    assertThat(sizes.convert("256m")).isEqualTo(256L << 20);
    assertThat(sizes.convert("4G")).isEqualTo(4L << 30);
  }

  @Test
  void aWrongCacheSizeIsAUsageError() {
    assertThat(run("serve", "--cache-size", "lots")).isEqualTo(2);
    assertThat(command.err()).contains("'lots' is not a size");
    assertThat(run("serve", "--cache-size", "99999999999g")).isEqualTo(2);
    assertThat(run("serve", "--cache-size", "1m")).isEqualTo(2);
    assertThat(command.err()).contains("--cache-size must be at least 64m");
    assertThat(run("serve", "--in-memory", "--cache-size", "1g")).isEqualTo(2);
    assertThat(command.err()).contains("--cache-size is for the RocksDB store");
  }

  @Test
  void eventLoopsMustBeAtLeastOne() {
    assertThat(run("serve", "--in-memory", "--event-loops", "0")).isEqualTo(2);
    assertThat(command.err()).contains("--event-loops must be at least 1, not 0");
  }

  @Test
  void dataDirAndInMemoryExcludeEachOther() {
    assertThat(run("serve", "--in-memory", "--data-dir", "x")).isEqualTo(2);
    assertThat(command.err()).contains("cannot be used together");
  }

  @Test
  void cassandraOptionsAreCheckedBeforeConnecting() {
    assertThat(run("serve", "--storage", "cassandra")).isEqualTo(2);
    assertThat(command.err()).contains("--storage cassandra needs --contact-points");
    assertThat(run("serve", "--storage", "cassandra", "--contact-points", "localhost")).isEqualTo(2);
    assertThat(command.err()).contains("--contact-points takes host:port, not localhost");
    assertThat(run("serve", "--storage", "cassandra", "--contact-points", "h:9042",
        "--data-dir", "x")).isEqualTo(2);
    assertThat(command.err()).contains("are for the RocksDB store, not --storage cassandra");
    assertThat(run("serve", "--keyspace", "k")).isEqualTo(2);
    assertThat(command.err()).contains("are for --storage cassandra");
    assertThat(run("serve", "--in-memory", "--storage", "cassandra")).isEqualTo(2);
    assertThat(command.err()).contains("cannot be used together");
    assertThat(run("serve", "--storage", "sqlite")).isEqualTo(2);
    assertThat(command.err()).contains("--storage must be rocksdb, memory or cassandra");
  }

  @Test
  void authOptionsAreChecked(@TempDir Path dir) throws IOException {
    assertThat(run("serve", "--in-memory", "--auth", "iam")).isEqualTo(2);
    assertThat(command.err()).contains("--auth must be none or sigv4, not iam");
    assertThat(run("serve", "--in-memory", "--credentials", "keys.txt")).isEqualTo(2);
    assertThat(command.err()).contains("--credentials is for --auth sigv4");
    Path keys = Files.writeString(dir.resolve("keys.txt"), "# keys\nAKID1 secret\nAKID2\n");
    assertThat(run("serve", "--in-memory", "--auth", "sigv4", "--credentials", keys.toString()))
        .isEqualTo(2);
    assertThat(command.err()).contains("cannot read --credentials " + keys)
        .contains("line 3: expected ACCESS_KEY_ID SECRET [SESSION_TOKEN]");
    if (System.getenv("STATOR_ACCESS_KEY_ID") == null) {
      assertThat(run("serve", "--in-memory", "--auth", "sigv4")).isEqualTo(2);
      assertThat(command.err()).contains("--auth sigv4 needs keys");
    }
  }

  @Test
  void tlsOptionsGoTogetherAndMustBeReadable(@TempDir Path dir) throws IOException {
    assertThat(run("serve", "--in-memory", "--tls-cert", "cert.pem")).isEqualTo(2);
    assertThat(command.err()).contains("--tls-cert and --tls-key go together");
    Path junk = Files.writeString(dir.resolve("junk.pem"), "junk");
    assertThat(run("serve", "--in-memory", "--tls-cert", junk.toString(), "--tls-key",
        junk.toString())).isEqualTo(2);
    assertThat(command.err()).contains("cannot use --tls-cert " + junk);
  }

  @Test
  void noCommandIsAUsageError() {
    assertThat(run()).isEqualTo(2);
    assertThat(command.err()).contains("stator serve");
  }

  @Test
  void aUsageErrorIsOneReasonAndAPointerToTheHelpNotTheWholeHelp() {
    assertThat(run("serve", "--prot", "8001")).isEqualTo(2);
    assertThat(command.err())
        .startsWith("stator: Unknown options: '--prot'")
        .contains("Try 'stator serve --help' for more information.")
        .doesNotContain("Usage:");
  }

  @Test
  void aMistypedCommandSuggestsTheRightOne() {
    assertThat(run("serv")).isEqualTo(2);
    assertThat(command.err()).contains("serve").contains("Try 'stator --help'");
  }

  @Test
  @Timeout(60) // a regression would start the server, which then waits for a signal
  void aDataDirectoryHeldByAnotherServerIsExplained(@TempDir Path dir) {
    try (RocksDbStorage held = RocksDbStorage.open(dir)) {
      assertThat(run("serve", "--port", "0", "--data-dir", dir.toString())).isEqualTo(1);
    }
    assertThat(command.err())
        .contains("cannot open the data directory " + dir)
        .contains("another Stator server is using it");
  }

  @Test
  @Timeout(60) // a regression would start the server, which then waits for a signal
  void aFileWhereTheDataDirectoryShouldBeIsExplained(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("data"), "not a directory");
    assertThat(run("serve", "--port", "0", "--data-dir", file.toString())).isEqualTo(1);
    assertThat(command.err()).contains(file + ": it is not a directory");
  }

  @Test
  @Timeout(60) // a regression would start the server, which then waits for a signal
  void aTakenPortIsExplained() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = String.valueOf(taken.getLocalPort());
      assertThat(run("serve", "--in-memory", "--port", port)).isEqualTo(1);
    }
    assertThat(command.err())
        .contains("the address is already in use")
        .contains("--port");
  }

  @Test
  @Timeout(60) // a regression would start the server, which then waits for a signal
  void aHostThatIsNoAddressOfThisMachineIsExplained() {
    assertThat(run("serve", "--in-memory", "--host", "999.1.1.1", "--port", "0")).isEqualTo(1);
    assertThat(command.err())
        .contains("cannot listen on 999.1.1.1:0: the host is not a name or an address this"
            + " machine can resolve")
        .doesNotContain("null");
    assertThat(run("serve", "--in-memory", "--host", "192.0.2.1", "--port", "0")).isEqualTo(1);
    assertThat(command.err())
        .contains("cannot listen on 192.0.2.1:0: no network interface of this machine has that"
            + " address");
  }

  @Test
  @Timeout(60) // a regression would start the server, which then waits for a signal
  void aDataDirectoryThatCannotBeMadeIsExplained() {
    assertThat(run("serve", "--port", "0", "--data-dir", "/proc/nope/data")).isEqualTo(1);
    assertThat(command.err())
        .contains("cannot open the data directory /proc/nope/data: cannot create /proc/nope"
            + " (no such file or directory)");
  }

  @Test
  void hotKeysWithNoServerSaysNothingAnswers() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    assertThat(run("hot-keys", "--table", "T", "--endpoint", "http://127.0.0.1:" + port))
        .isEqualTo(1);
    assertThat(command.err())
        .contains("cannot reach http://127.0.0.1:" + port + ": nothing answers there")
        .doesNotContain("null");
  }

  @Test
  void hotKeysShowsTheServersMessageRatherThanItsJson() {
    assertThat(HotKeysCommand.errorMessage(
            "{\"__type\":\"ResourceNotFoundException\",\"message\":\"Table not found: T\"}"))
        .isEqualTo("Table not found: T");
    assertThat(HotKeysCommand.errorMessage("Not Found")).isEqualTo("Not Found");
  }
}
