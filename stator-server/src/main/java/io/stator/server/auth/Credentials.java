package io.stator.server.auth;

import io.stator.engine.EngineOptions;
import io.stator.server.access.UsersFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys a server accepts, by access key id: from a file, either one key a line ({@code
 * ACCESS_KEY_ID SECRET [SESSION_TOKEN]}, blank lines and {@code #} comments ignored) or users with
 * their keys and policies in JSON ({@link UsersFile}), or given one by one (the command line,
 * the environment).
 */
public final class Credentials {
  /** The account of the users' ARNs: the one the server's table ARNs name. */
  private static final String ACCOUNT = EngineOptions.DEFAULT_ACCOUNT_ID;

  private final Map<String, Credential> byAccessKeyId;

  private Credentials(Map<String, Credential> byAccessKeyId) {
    this.byAccessKeyId = Map.copyOf(byAccessKeyId);
  }

  public static Credentials of(List<Credential> credentials) {
    Map<String, Credential> map = new LinkedHashMap<>();
    for (Credential c : credentials) {
      if (map.put(c.accessKeyId(), c) != null) {
        throw new IllegalArgumentException("the access key id " + c.accessKeyId()
            + " is given twice");
      }
    }
    return new Credentials(map);
  }

  /**
   * The keys of {@code file}; IllegalArgumentException naming what is wrong. A file whose first
   * character (after blanks) is <code>{</code> holds users with policies ({@link UsersFile});
   * otherwise one key a line, each allowed everything.
   */
  public static Credentials read(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    if (text.strip().startsWith("{")) {
      List<Credential> credentials = new java.util.ArrayList<>();
      for (UsersFile.Key k : UsersFile.parse(text, ACCOUNT)) {
        credentials.add(
            new Credential(k.accessKeyId(), k.secretAccessKey(), k.sessionToken(), k.principal()));
      }
      return of(credentials);
    }
    List<String> lines = text.lines().toList();
    List<Credential> credentials = new java.util.ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split("\\s+");
      if (fields.length < 2 || fields.length > 3) {
        throw new IllegalArgumentException(file + " line " + (i + 1)
            + ": expected ACCESS_KEY_ID SECRET [SESSION_TOKEN]");
      }
      credentials.add(new Credential(fields[0], fields[1], fields.length == 3 ? fields[2] : null));
    }
    return of(credentials);
  }

  /** The key of {@code accessKeyId}, or null. */
  Credential find(String accessKeyId) {
    return byAccessKeyId.get(accessKeyId);
  }

  public java.util.Collection<Credential> all() {
    return byAccessKeyId.values();
  }

  public int size() {
    return byAccessKeyId.size();
  }
}
