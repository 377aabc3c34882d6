package io.stator.server;

import io.netty.util.AsciiString;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header every answer carries, as DynamoDB sends it (RFC 1123, GMT), formatted
 * once a second rather than once an answer.
 */
final class HttpDate {
  private static final DateTimeFormatter RFC_1123 =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
          .withZone(ZoneOffset.UTC);

  private record Formatted(long second, AsciiString text) {}

  private static volatile Formatted last = new Formatted(Long.MIN_VALUE, AsciiString.EMPTY_STRING);

  private HttpDate() {}

  /** Now, as a {@code Date} header's value; a race only formats the same second twice. */
  static AsciiString now() {
    long second = System.currentTimeMillis() / 1000;
    Formatted f = last;
    if (f.second() != second) {
      f = new Formatted(second, new AsciiString(RFC_1123.format(Instant.ofEpochSecond(second))));
      last = f;
    }
    return f.text();
  }
}
