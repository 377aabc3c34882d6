package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
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
        .contains("--port", "--host", "--data-dir", "--in-memory", "--region");
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
