package io.stator.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the tests that run the server in a child JVM read from it. */
final class ChildServers {
  private static final Pattern LISTENING = Pattern.compile("listening on http://[^:]+:(\\d+)");

  private ChildServers() {}

  /** The line where the server says where it listens; its stderr, in the failure, if never. */
  static String listeningLine(Process server, Path errors) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), UTF_8));
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (LISTENING.matcher(line).find()) {
        return line;
      }
    }
    throw new AssertionError(
        "the server never said where it listens; stderr: " + Files.readString(errors));
  }

  /** The port the server says it listens on. */
  static int port(Process server, Path errors) throws Exception {
    return port(listeningLine(server, errors));
  }

  static int port(String listeningLine) {
    Matcher m = LISTENING.matcher(listeningLine);
    if (!m.find()) {
      throw new IllegalArgumentException(listeningLine);
    }
    return Integer.parseInt(m.group(1));
  }
}
