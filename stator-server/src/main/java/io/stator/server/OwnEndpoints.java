package io.stator.server;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.NetUtil;

/**
 * Who may call Stator's own endpoints ({@code /stator/...}), which DynamoDB's clients never
 * call: never a web page of another origin (a page the user visits must not sweep their items
 * or read their hot keys through the browser), and, for the endpoints that change data or show
 * keys, only a client that addressed the server by an IP address or as {@code localhost} (a page
 * whose name was rebound to the server's address sends its own name as Host).
 */
final class OwnEndpoints {
  private OwnEndpoints() {}

  /** Why a call to one of Stator's own endpoints is refused, or null. */
  static String refusal(HttpHeaders headers, boolean changesOrShowsKeys) {
    if (headers.contains(HttpHeaderNames.ORIGIN)
        || "cross-site".equalsIgnoreCase(headers.get("Sec-Fetch-Site"))) {
      return "Stator's own endpoints do not answer web pages";
    }
    if (changesOrShowsKeys) {
      String host = headers.get(HttpHeaderNames.HOST);
      if (host != null && !addressedDirectly(host)) {
        return "Stator's own endpoints that change data or show keys answer requests addressed"
            + " to an IP address or localhost, not to " + host;
      }
    }
    return null;
  }

  /** Whether a Host header names an IP address or localhost (with or without a port). */
  static boolean addressedDirectly(String host) {
    String name = host;
    if (name.startsWith("[")) {
      int end = name.indexOf(']');
      return end > 0 && NetUtil.isValidIpV6Address(name.substring(1, end));
    }
    int colon = name.lastIndexOf(':');
    if (colon >= 0 && name.indexOf(':') == colon) {
      name = name.substring(0, colon);
    }
    return name.equalsIgnoreCase("localhost") || NetUtil.isValidIpV4Address(name)
        || NetUtil.isValidIpV6Address(name);
  }
}
