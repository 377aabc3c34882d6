package io.stator.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class NativeLibraryTest {
  @TempDir Path dir;

  @Test
  void extractsThisPlatformsLibraryFromTheClasspath() throws IOException {
    Path library = NativeLibrary.extractTo(dir.resolve("native"));

    assertThat(library.getFileName().toString()).isEqualTo(NativeLibrary.fileName());
    try (InputStream original =
        getClass().getClassLoader().getResourceAsStream(NativeLibrary.fileName())) {
      assertThat(Files.readAllBytes(library)).isEqualTo(original.readAllBytes());
    }
    try (Stream<Path> files = Files.list(dir.resolve("native"))) {
      assertThat(files).containsExactly(library); // no partial copy left behind
    }
  }

  /**
   * Durable storage on every laptop: the classpath carries RocksDB's library for Linux (x86_64,
   * aarch64), macOS (x86_64, arm64) and Windows (x86_64), under the names RocksDB loads them by.
   * Only Linux x86_64 runs here; the others are checked to be present, not run.
   */
  @Test
  void theClasspathCarriesTheLibraryOfEveryLaptopPlatform() {
    for (String name : List.of(
        "librocksdbjni-linux64.so", "librocksdbjni-linux-aarch64.so",
        "librocksdbjni-osx-x86_64.jnilib", "librocksdbjni-osx-arm64.jnilib",
        "librocksdbjni-win64.dll")) {
      assertThat(getClass().getClassLoader().getResource(name)).as(name).isNotNull();
    }
    assertThat(getClass().getClassLoader().getResource(NativeLibrary.fileName())).isNotNull();
  }

  @Test
  void aStoreOpenedWithTheLibraryOnTheLibraryPathCopiesNoLibraryOfItsOwn() throws Exception {
    Path library = NativeLibrary.extractTo(dir.resolve("native"));

    assertThat(libraryCopiesOfAChild(List.of("-Djava.library.path=" + library.getParent())))
        .isEmpty();
    // Without it, RocksDB copies the library into the temporary directory: the check can tell.
    assertThat(libraryCopiesOfAChild(List.of())).hasSize(1);
  }

  /**
   * The library files a child process finds in its temporary directory (a fresh one, where
   * {@link ChildJvm} puts its stderr) once a store is open.
   */
  private List<String> libraryCopiesOfAChild(List<String> flags) throws Exception {
    Path stderr = Files.createTempDirectory(dir, "tmp").resolve("stderr.txt");
    Path store = Files.createTempDirectory(dir, "store");
    Process child = ChildJvm.start(flags, OpenStore.class, stderr, store.toString());
    try {
      // The child prints a line or two and exits, so its output fits in the pipe until then.
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as(Files.readString(stderr)).isZero();
      String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return out.lines().filter(line -> !line.isEmpty()).toList();
    } finally {
      child.destroyForcibly();
    }
  }

  /** Opens a store in args[0] and prints the RocksDB libraries in its temporary directory. */
  public static final class OpenStore {
    public static void main(String[] args) throws IOException {
      try (RocksDbStorage storage = RocksDbStorage.open(Path.of(args[0]))) {
        storage.createSpace("t");
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
          files.map(p -> p.getFileName().toString())
              .filter(name -> name.startsWith("librocksdbjni"))
              .forEach(System.out::println);
        }
      }
    }
  }
}
