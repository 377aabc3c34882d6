package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./stator} launcher refuses a Java too old to run the server with a sentence that
 * says so, instead of the JVM's UnsupportedClassVersionError, and uses JAVA_HOME's Java as
 * {@code ./mvnw} does.
 */
class LauncherTest {
  private static final Path LAUNCHER = Path.of("..", "stator").toAbsolutePath().normalize();

  private record Run(int status, String err) {}

  private static Run launch(Path javaHome) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("bash", LAUNCHER.toString(), "--version");
    builder.environment().put("JAVA_HOME", javaHome.toString());
    builder.environment().put("STATOR_SKIP_BUILD", "1");
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), err);
  }

  private static Path fakeJavaHome(Path dir, String versionLine) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path java = bin.resolve("java");
    // Answers -version like a JDK; any other run only reports its arguments.
    Files.writeString(java, "#!/bin/sh\n"
        + "if [ \"$1\" = -version ]; then echo '" + versionLine + "' >&2;\n"
        + "else echo \"ran $*\" >&2; fi\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir;
  }

  @Test
  void anOldJavaIsRefusedWithItsVersion(@TempDir Path dir) throws Exception {
    Run run = launch(fakeJavaHome(dir, "java version \"1.8.0_292\""));
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).contains("needs Java 17 or newer").contains("1.8.0_292");

    Run eleven = launch(fakeJavaHome(dir, "openjdk version \"11.0.2\" 2019-01-15"));
    assertThat(eleven.status()).isEqualTo(1);
    assertThat(eleven.err()).contains("needs Java 17 or newer").contains("11.0.2");
  }

  @Test
  void aJavaHomeWithoutJavaIsExplained(@TempDir Path dir) throws Exception {
    Run run = launch(dir);
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).contains("JAVA_HOME is " + dir).contains("has no bin/java");
  }

  @Test
  void aRecentJavaFromJavaHomeIsTheOneThatRuns(@TempDir Path dir) throws Exception {
    // The fake Java passes the version check and is then what the launcher runs the jar with.
    Run run = launch(fakeJavaHome(dir, "openjdk version \"21.0.1\" 2023-10-17"));
    assertThat(run.status()).isZero();
    assertThat(run.err()).doesNotContain("needs Java").contains("ran ").contains("-jar ")
        .contains("stator.jar --version");
  }
}
