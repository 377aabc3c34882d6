package io.stator.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The RocksDB directories the benchmarks create, and their removal afterwards. */
final class TemporaryDirectory {
  private TemporaryDirectory() {}

  static Path create(String prefix) throws IOException {
    return Files.createTempDirectory(prefix);
  }

  /** Deletes {@code directory} and everything in it. */
  static void delete(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(TemporaryDirectory::deleteOne);
    }
  }

  private static void deleteOne(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
