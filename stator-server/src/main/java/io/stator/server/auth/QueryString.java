package io.stator.server.auth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A query string decoded, and SigV4's encoding (RFC 3986: all but unreserved characters). */
final class QueryString {
  private QueryString() {}

  static Map<String, List<String>> parse(String query) {
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    if (query.isEmpty()) {
      return parameters;
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
    return parameters;
  }

  /** Percent-decodes; a malformed escape is kept as it is (the signature will not match). */
  private static String decode(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && isHex(text, i + 1) && isHex(text, i + 2)) {
        out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 2;
      } else if (c == '+') {
        out.write(' ');
      } else {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(String text, int i) {
    return i < text.length() && Character.digit(text.charAt(i), 16) >= 0;
  }

  static String encode(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '.' || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return out.toString();
  }
}
