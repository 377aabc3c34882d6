package io.stator.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * An import's files: as S3 lists the objects whose keys start with a prefix, the regular files
 * under the bucket's directory whose path in it (with {@code /}) starts with the key prefix, in
 * key order, each read by {@link ImportReader}.
 */
final class ImportFiles {
  private ImportFiles() {}

  /** The files of {@code bucket} whose keys start with {@code prefix} (every file when null). */
  static List<Path> matching(Path bucket, String prefix) {
    if (!Files.isDirectory(bucket)) {
      return List.of();
    }
    String p = prefix == null ? "" : prefix;
    try (Stream<Path> files = Files.walk(bucket)) {
      return files.filter(Files::isRegularFile)
          .filter(f -> key(bucket, f).startsWith(p))
          .sorted((a, b) -> key(bucket, a).compareTo(key(bucket, b)))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String key(Path bucket, Path file) {
    return bucket.relativize(file).toString().replace('\\', '/');
  }
}
