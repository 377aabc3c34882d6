package io.stator.server;

import io.stator.storage.rocksdb.NativeLibrary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Extracts RocksDB's native library into a directory, which later starts pass as {@code
 * -Djava.library.path} so that RocksDB loads the library from there instead of copying it out
 * of the jar at every start (see {@link NativeLibrary}). The launcher runs it once per build;
 * it is hidden from the help because a user has no reason to call it.
 */
@Command(name = "native-library", hidden = true)
final class NativeLibraryCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "Where to put the library.")
  Path dir;

  @Override
  public Integer call() throws IOException {
    NativeLibrary.extractTo(dir);
    return 0;
  }
}
