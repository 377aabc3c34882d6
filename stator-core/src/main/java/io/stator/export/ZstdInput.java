package io.stator.export;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.util.Native;
import io.stator.api.DynamoDbException;
import java.io.IOException;
import java.io.InputStream;

/**
 * ImportTable's {@code InputCompressionType} ZSTD: Zstandard frames decompressed as they are
 * read, by zstd-jni. The library is an optional dependency of the engine (a JNI library, which
 * the server brings and an embedded engine may leave out): without it, or without a native build
 * for the platform, a ZSTD import is refused with a ValidationException that says so.
 */
final class ZstdInput {
  private ZstdInput() {}

  /** Refuses a ZSTD import when the library cannot be loaded here. */
  static void check() {
    try {
      Native.load();
    } catch (NoClassDefFoundError | UnsatisfiedLinkError e) {
      throw unavailable(e);
    }
  }

  static InputStream open(InputStream in) throws IOException {
    try {
      return new ZstdInputStream(in);
    } catch (NoClassDefFoundError | UnsatisfiedLinkError e) {
      throw unavailable(e);
    }
  }

  private static DynamoDbException unavailable(Throwable e) {
    return DynamoDbException.validation("InputCompressionType ZSTD needs the zstd-jni library"
        + " (com.github.luben:zstd-jni) on the classpath, with a native build for this"
        + " platform; it could not be loaded: " + e);
  }
}
