package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./stator} launcher refuses a Java too old to run the server with a sentence that
 * says so, instead of the JVM's UnsupportedClassVersionError, and uses JAVA_HOME's Java as
 * {@code ./mvnw} does; it copies RocksDB's library once per build and names the copy on the
 * library path. Each test runs a copy of the launcher, so the build's own output is untouched.
 */
class LauncherTest {
  private static final Path LAUNCHER = Path.of("..", "stator").toAbsolutePath().normalize();

  private record Run(int status, String err) {}

  /** Runs a copy of the launcher in {@code javaHome} (with no jar beside it) on its Java. */
  private static Run launch(Path javaHome) throws IOException, InterruptedException {
    Path launcher = javaHome.resolve("stator");
    Files.copy(LAUNCHER, launcher, StandardCopyOption.REPLACE_EXISTING);
    ProcessBuilder builder = new ProcessBuilder("bash", launcher.toString(), "--version");
    builder.environment().put("JAVA_HOME", javaHome.toString());
    builder.environment().put("STATOR_SKIP_BUILD", "1");
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Path err = javaHome.resolve("stderr.txt");
    builder.redirectError(err.toFile());
    Process process = builder.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), Files.readString(err));
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

  /**
   * A copy of the launcher in {@code dir} with a jar of {@code jarBytes} where a build puts it,
   * and a fake Java that logs every run to {@code dir/runs.log}; {@code native-library DIR} writes
   * a library into DIR when {@code extracts}, else fails.
   */
  private static Path launcherCopy(Path dir, String jarBytes, boolean extracts)
      throws IOException {
    return launcherCopy(dir, jarBytes, extracts, "");
  }

  /** As above; {@code onTraining} is what the fake Java does on the class-data training run. */
  private static Path launcherCopy(Path dir, String jarBytes, boolean extracts, String onTraining)
      throws IOException {
    Files.copy(LAUNCHER, dir.resolve("stator"));
    Path jar = Files.createDirectories(dir.resolve("stator-server/target")).resolve("stator.jar");
    Files.writeString(jar, jarBytes);
    Path bin = Files.createDirectories(dir.resolve("java/bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\n"
        + "if [ \"$1\" = -version ]; then echo 'openjdk version \"17.0.15\"' >&2; exit 0; fi\n"
        + "echo \"$*\" >> '" + dir.resolve("runs.log") + "'\n"
        + "case \"$*\" in *class-data-training*) " + onTraining + " ;; esac\n"
        + "if [ \"$3\" = native-library ]; then\n"
        + (extracts ? "  echo library > \"$4/librocksdbjni-linux64.so\"; exit 0\n" : "  exit 1\n")
        + "fi\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir;
  }

  /** Runs {@code ./stator serve} of the copy in {@code dir}; returns its exit status. */
  private static int runCopy(Path dir) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("bash", dir.resolve("stator").toString(), "serve");
    builder.environment().put("JAVA_HOME", dir.resolve("java").toString());
    builder.environment().put("STATOR_SKIP_BUILD", "1");
    builder.redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
    Process process = builder.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return process.exitValue();
  }

  /** Runs the copy, which must succeed; returns the fake Java's runs and clears their log. */
  private static List<String> launchCopy(Path dir) throws IOException, InterruptedException {
    assertThat(runCopy(dir)).as(Files.readString(dir.resolve("out.txt"))).isZero();
    List<String> runs = Files.readAllLines(dir.resolve("runs.log"));
    Files.delete(dir.resolve("runs.log"));
    return runs;
  }

  @Test
  void rocksDbsLibraryIsCopiedOncePerBuildAndNamedOnTheLibraryPath(@TempDir Path dir)
      throws Exception {
    launcherCopy(dir, "jar one", true);
    Path nativeRoot = dir.resolve("stator-server/target/native");

    List<String> first = launchCopy(dir);
    assertThat(first).anyMatch(run -> run.contains("native-library " + nativeRoot));
    String served = first.get(first.size() - 1);
    assertThat(served).contains("-Djava.library.path=" + nativeRoot + "/").endsWith("serve");

    // The next start finds the copy: no new one, the same path.
    List<String> second = launchCopy(dir);
    assertThat(second).noneMatch(run -> run.contains("native-library"));
    assertThat(second.get(second.size() - 1)).isEqualTo(served);

    // A new build gets a copy of its own, and the old one goes.
    Files.writeString(dir.resolve("stator-server/target/stator.jar"), "jar two, longer");
    List<String> third = launchCopy(dir);
    assertThat(third).anyMatch(run -> run.contains("native-library"));
    try (var copies = Files.list(nativeRoot)) {
      assertThat(copies).hasSize(1);
    }
    String servedThird = third.get(third.size() - 1);
    assertThat(servedThird)
        .contains("-Djava.library.path=" + nativeRoot + "/").isNotEqualTo(served);

    // A build of the same size, made later, is another build too.
    Path jar = dir.resolve("stator-server/target/stator.jar");
    Files.writeString(jar, "jar six, longer");
    Files.setLastModifiedTime(jar, FileTime.from(
        Files.getLastModifiedTime(jar).toInstant().plusSeconds(10)));
    List<String> fourth = launchCopy(dir);
    assertThat(fourth).anyMatch(run -> run.contains("native-library"));
    assertThat(fourth.get(fourth.size() - 1))
        .contains("-Djava.library.path=" + nativeRoot + "/").isNotEqualTo(servedThird);
  }

  @Test
  void aFailedCopyStartsTheServerAnywayAndIsNotRetriedForTheSameBuild(@TempDir Path dir)
      throws Exception {
    launcherCopy(dir, "jar", false);

    List<String> first = launchCopy(dir);
    assertThat(first).anyMatch(run -> run.contains("native-library"));
    assertThat(first.get(first.size() - 1)).doesNotContain("java.library.path").endsWith("serve");

    List<String> second = launchCopy(dir);
    assertThat(second).noneMatch(run -> run.contains("native-library"));
    assertThat(second.get(second.size() - 1)).doesNotContain("java.library.path");
  }

  @Test
  void anInterruptedFirstRunStopsTheLauncherInsteadOfStartingTheServer(@TempDir Path dir)
      throws Exception {
    // Ctrl-C during the class-data training, which had begun its archive: the JVM ends with
    // 128 + SIGINT.
    launcherCopy(dir, "jar", true, ": > \"${1#-XX:ArchiveClassesAtExit=}\"; exit 130");

    assertThat(runCopy(dir)).isEqualTo(130);
    assertThat(Files.readAllLines(dir.resolve("runs.log")))
        .noneMatch(run -> run.endsWith("serve"));
    try (var left = Files.list(dir.resolve("stator-server/target"))) {
      assertThat(left).noneMatch(p -> p.toString().endsWith(".tmp")); // nor half an archive
    }
  }

  @Test
  void aRecentJavaFromJavaHomeIsTheOneThatRuns(@TempDir Path dir) throws Exception {
    // The fake Java passes the version check and is then what the launcher runs the jar with.
    Run run = launch(fakeJavaHome(dir, "openjdk version \"21.0.1\" 2023-10-17"));
    assertThat(run.status()).isZero();
    assertThat(run.err()).doesNotContain("needs Java").contains("ran ").contains("-jar ")
        .contains("stator.jar --version");
  }

  /**
   * Runs {@code ./stator --version} of a copy in {@code dir} whose jar is missing, with a fake
   * {@code mvnw} that prints {@code mavenOutput} and exits with {@code mavenStatus} (writing the
   * jar when it succeeds); returns the launcher's status and what it printed.
   */
  private static Run build(Path dir, String mavenOutput, int mavenStatus) throws Exception {
    Files.copy(LAUNCHER, dir.resolve("stator"));
    Path mvnw = dir.resolve("mvnw");
    Files.writeString(mvnw, "#!/bin/sh\ncat <<'EOF'\n" + mavenOutput + "EOF\n"
        + (mavenStatus == 0
            ? "mkdir -p stator-server/target && echo jar > stator-server/target/stator.jar\n"
            : "")
        + "exit " + mavenStatus + "\n");
    Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
    fakeJavaHome(dir.resolve("java"), "openjdk version \"17.0.15\"");
    ProcessBuilder builder = new ProcessBuilder("bash", dir.resolve("stator").toString(),
        "--version");
    builder.environment().put("JAVA_HOME", dir.resolve("java").toString());
    builder.environment().put("TMPDIR", dir.toString());
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Path err = dir.resolve("stderr.txt");
    builder.redirectError(err.toFile());
    Process process = builder.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Run(process.exitValue(), Files.readString(err));
  }

  @Test
  void aBuildSaysWhichModuleItIsAt(@TempDir Path dir) throws Exception {
    Run run = build(dir, """
        [INFO] Scanning for projects...
        [INFO] Downloading from central: https://repo.maven.apache.org/maven2/a.pom
        [INFO] Downloading from central: https://repo.maven.apache.org/maven2/b.pom
        [INFO] ---------------------< io.stator:stator-core >----------------------
        [INFO] Building Stator core 0.1.0-SNAPSHOT                                [1/2]
        [INFO] Building Stator server 0.1.0-SNAPSHOT                              [2/2]
        [INFO] BUILD SUCCESS
        """, 0);
    assertThat(run.err())
        .contains("stator: building the server")
        .contains("stator:   downloading Maven and the dependencies (once) ...")
        .contains("stator:   1/2 Stator core 0.1.0-SNAPSHOT\n")
        .contains("stator:   2/2 Stator server 0.1.0-SNAPSHOT\n")
        .doesNotContain("Scanning for projects")
        .doesNotContain("BUILD SUCCESS");
    assertThat(run.err().split("downloading", -1)).hasSize(2);
    try (var logs = Files.list(dir)) {
      assertThat(logs.map(p -> p.getFileName().toString()))
          .noneMatch(name -> name.startsWith("stator-build"));
    }
  }

  @Test
  void aFailedBuildShowsMavensErrorsAndKeepsItsLog(@TempDir Path dir) throws Exception {
    Run run = build(dir, """
        [INFO] Building Stator core 0.1.0-SNAPSHOT                                [1/2]
        [ERROR] /src/Foo.java:[3,1] class, interface, enum, or record expected
        [INFO] BUILD FAILURE
        """, 1);
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err())
        .contains("[ERROR] /src/Foo.java:[3,1] class, interface, enum, or record expected")
        .contains("stator: the build failed; Maven's whole log is in " + dir + "/stator-build.");
    assertThat(Files.exists(dir.resolve("stator-server/target/stator.jar"))).isFalse();
  }
}
