package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void versionComesFromTheBuild() {
    assertThat(run("--version")).isZero();
    assertThat(out.toString().trim()).matches("Stator \\d+\\.\\d+\\.\\d+.*");
    assertThat(out.toString()).doesNotContain("${");
  }

  @Test
  void helpListsServeAndItsOptions() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("serve");
    assertThat(run("serve", "--help")).isZero();
    assertThat(out.toString())
        .contains("--port", "--host", "--data-dir", "--in-memory", "--region",
            "--ttl-sweep-interval");
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
    assertThat(err.toString()).contains("'soon' is not a duration");
    assertThat(run("serve", "--in-memory", "--ttl-sweep-interval", "-1s")).isEqualTo(2);
  }

  @Test
  void dataDirAndInMemoryExcludeEachOther() {
    assertThat(run("serve", "--in-memory", "--data-dir", "x")).isEqualTo(2);
    assertThat(err.toString()).contains("cannot be used together");
  }

  @Test
  void noCommandIsAUsageError() {
    assertThat(run()).isEqualTo(2);
    assertThat(err.toString()).contains("stator serve");
  }
}
