package io.stator.storage.rocksdb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.rocksdb.util.Environment;

/**
 * RocksDB's native library for this platform, as a file a JVM can load from its library path.
 *
 * <p>RocksDB's Java binding looks for its library on {@code java.library.path} first, and only
 * when it is not there copies the 15 MB library out of its jar into a temporary file, on every
 * start of every process (55-233 ms of a server's start on RocksDB, measured in
 * docs/performance.md). {@link #extractTo} makes that copy once, into a directory that later
 * starts name with {@code -Djava.library.path}; the launcher does so once per build.
 */
public final class NativeLibrary {
  private NativeLibrary() {}

  /** The library's file name for this platform, as RocksDB looks for it on the library path. */
  public static String fileName() {
    return Environment.getJniLibraryFileName("rocksdb");
  }

  /**
   * Copies the library out of the classpath into {@code dir} (created if missing), through a
   * temporary file renamed into place, so that a concurrent reader never sees half of it. The
   * temporary file's name does not begin with the library's, so no reader takes it for one.
   *
   * @return the library's path
   * @throws IOException if the classpath has no library for this platform, or it cannot be
   *     written
   */
  public static Path extractTo(Path dir) throws IOException {
    String name = fileName();
    Files.createDirectories(dir);
    Path target = dir.resolve(name);
    try (InputStream in = RocksDbStorage.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException(
            "no RocksDB library for this platform (" + name + ") on the classpath");
      }
      Path partial = Files.createTempFile(dir, "copying-", ".tmp");
      try {
        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(partial);
      }
    }
    return target;
  }
}
