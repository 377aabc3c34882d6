package io.stator.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The console's files, served at {@link #PATH}: one page, its script and its style, read from
 * the jar once. The page talks to the server only through DynamoDB's API and Stator's
 * documented endpoints (the partition report), as any client could; nothing is fetched from
 * elsewhere and nothing needs building.
 */
final class Console {
  static final String PATH = "/stator/console";

  /** A file: its content type and bytes. */
  record File(String contentType, byte[] body) {}

  private static final Map<String, File> FILES = Map.of(
      PATH, read("index.html", "text/html; charset=utf-8"),
      PATH + "/", read("index.html", "text/html; charset=utf-8"),
      PATH + "/console.js", read("console.js", "text/javascript; charset=utf-8"),
      PATH + "/console.css", read("console.css", "text/css; charset=utf-8"));

  private Console() {}

  /** The file at {@code path} (the request's path, without its query), or null. */
  static File file(String path) {
    return FILES.get(path);
  }

  private static File read(String name, String contentType) {
    try (InputStream in = Console.class.getResourceAsStream("console/" + name)) {
      if (in == null) {
        throw new IllegalStateException("the console's " + name + " is missing from the jar");
      }
      return new File(contentType, in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
