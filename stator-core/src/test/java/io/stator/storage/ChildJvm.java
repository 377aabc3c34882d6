package io.stator.storage;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Java process on the test run's own class path: for the tests that kill a writer (SIGKILL)
 * in the middle of its work and then check what it acknowledged, and for those that need a JVM
 * started with flags of their own.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** Starts {@code main} with {@code args} and a 256 MB heap; its stderr goes to {@code stderr}. */
  public static Process start(Class<?> main, Path stderr, String... args) throws IOException {
    return start(List.of(), main, stderr, args);
  }

  /**
   * As {@link #start(Class, Path, String...)}, with {@code jvmFlags} before the class path.
   *
   * <p>The child's temporary files go to {@code stderr}'s directory (a test's own temporary
   * directory) unless {@code jvmFlags} say otherwise: RocksDB copies its 15 MB native library
   * into a temporary file at every start, and a child killed with SIGKILL never deletes it.
   */
  public static Process start(List<String> jvmFlags, Class<?> main, Path stderr, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-Djava.io.tmpdir=" + stderr.toAbsolutePath().getParent());
    command.addAll(jvmFlags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(stderr.toFile()).start();
  }
}
