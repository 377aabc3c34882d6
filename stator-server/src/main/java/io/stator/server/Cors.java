package io.stator.server;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;

/**
 * Cross-origin requests, so that a web page (a GUI, the JavaScript SDK in a browser) can call
 * Stator directly, as it can call DynamoDB: an answer to a request with an {@code Origin} allows
 * every origin and lets the page read DynamoDB's own headers; a preflight ({@code OPTIONS} with
 * {@code Origin} and {@code Access-Control-Request-Method}) is answered with an empty 200 that
 * allows the method and headers asked for, for two days.
 */
final class Cors {
  private static final AsciiString ANY = AsciiString.cached("*");
  private static final AsciiString EXPOSED =
      AsciiString.cached("x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date");
  private static final AsciiString TWO_DAYS = AsciiString.cached("172800");

  private Cors() {}

  static boolean isPreflight(HttpHeaders request) {
    return request.contains(HttpHeaderNames.ORIGIN)
        && request.contains(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
  }

  /** Adds the CORS headers to an answer to {@code request}, when it came from a web page. */
  static void addTo(HttpHeaders request, HttpHeaders response) {
    if (!request.contains(HttpHeaderNames.ORIGIN)) {
      return;
    }
    response.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, ANY);
    if (isPreflight(request)) {
      // Echoed only when made of token characters: the response's headers are not validated.
      String method = request.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_METHOD);
      if (tokens(method)) {
        response.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, method);
      }
      String headers = request.get(HttpHeaderNames.ACCESS_CONTROL_REQUEST_HEADERS);
      if (headers != null && tokens(headers)) {
        response.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, headers);
      }
      response.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, TWO_DAYS);
    } else {
      response.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
    }
  }

  /** Whether {@code value} is a comma-separated list of HTTP tokens (names of methods, headers). */
  private static boolean tokens(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '.' || c == ',' || c == ' ';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
