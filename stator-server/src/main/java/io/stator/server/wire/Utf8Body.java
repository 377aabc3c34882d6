package io.stator.server.wire;

import io.stator.api.DynamoDbException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body read as strict UTF-8: its bytes pass through unchanged, and the first one that
 * cannot be part of UTF-8 JSON text ends the read with a SerializationException.
 *
 * <p>A string DynamoDB stores is valid UTF-8, and Stator compares keys by their UTF-8 bytes, so
 * bytes that are no UTF-8 can only be given a meaning by inventing characters, and two different
 * bodies then name the same key. Jackson, left to itself, does just that: it reads the overlong
 * {@code C0 80} as NUL and {@code F4 90 80 80} (beyond U+10FFFF) as two lone surrogates, which
 * the item codec then writes as {@code ?} (issue 29). Refused here:
 *
 * <ul>
 *   <li>a byte that starts no UTF-8 sequence (a bare continuation byte {@code 80..BF}, {@code
 *       C0}, {@code C1}, {@code F5..FF}), a sequence cut short (by another byte or by the end of
 *       the body), an overlong form, an encoded surrogate ({@code ED A0 80} ...), a code point
 *       beyond U+10FFFF: what Java's UTF-8 decoder reports as malformed;
 *   <li>NUL, which JSON text never holds (inside a string a control character must be escaped,
 *       outside one it is no whitespace). Refusing it here is what refuses UTF-16 and UTF-32
 *       bodies, whose ASCII characters carry NUL bytes, before Jackson detects their encoding
 *       from the first four bytes and decodes them;
 *   <li>a byte order mark at the start, which RFC 8259 (section 8.1) forbids a sender to add and
 *       Jackson would skip.
 * </ul>
 *
 * <p>The bytes are checked as the parser reads them, one buffer at a time before the parser sees
 * it, so the body is read once and never copied; ASCII, nearly every byte of a request, takes a
 * one-comparison loop. A sequence may straddle two reads: the state of the character being read
 * carries over.
 */
final class Utf8Body extends InputStream {
  private static final String NOT_UTF8 = "Request body is not valid UTF-8: ";
  private static final String NOT_UTF16 = "a body in UTF-16 or UTF-32 is not accepted";

  private final InputStream in;
  /** Offset in the body of the first byte of the next read. */
  private long position;
  /** Continuation bytes the current character still needs; 0 between characters. */
  private int pending;
  /** The bits of the current character read so far. */
  private int codePoint;
  /** The smallest code point the current character's length may encode (else it is overlong). */
  private int minimum;
  /** Offset in the body of the current character's first byte. */
  private long start;

  Utf8Body(InputStream in) {
    this.in = in;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b < 0) {
      end();
    } else {
      check(b, position++);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(buffer, offset, length);
    if (n < 0) {
      end();
      return n;
    }
    int i = offset;
    int end = offset + n;
    while (i < end) {
      if (pending == 0) {
        // ASCII other than NUL, as a signed byte 1..127.
        while (i < end && buffer[i] > 0) {
          i++;
        }
        if (i == end) {
          break;
        }
      }
      check(buffer[i] & 0xFF, position + (i - offset));
      i++;
    }
    position += n;
    return n;
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private void end() {
    if (pending > 0) {
      throw DynamoDbException.serialization(
          NOT_UTF8 + "the character at offset " + start + " is cut short by the end of the body");
    }
  }

  private void check(int b, long at) {
    if (pending == 0) {
      if (b == 0) {
        throw DynamoDbException.serialization(
            NOT_UTF8 + "NUL byte at offset " + at + " (JSON text holds none; " + NOT_UTF16 + ")");
      } else if (b < 0x80) {
        return;
      } else if (b >= 0xC2 && b <= 0xDF) {
        begin(b & 0x1F, 1, 0x80, at);
      } else if (b >= 0xE0 && b <= 0xEF) {
        begin(b & 0x0F, 2, 0x800, at);
      } else if (b >= 0xF0 && b <= 0xF4) {
        begin(b & 0x07, 3, 0x10000, at);
      } else {
        // FE FF and FF FE begin the byte order marks of UTF-16 and UTF-32.
        String hint = at == 0 && b >= 0xFE ? " (" + NOT_UTF16 + ")" : "";
        throw DynamoDbException.serialization(
            NOT_UTF8 + "byte " + hex(b) + " at offset " + at + " starts no character" + hint);
      }
      return;
    }
    if ((b & 0xC0) != 0x80) {
      throw DynamoDbException.serialization(
          NOT_UTF8 + "the character at offset " + start + " is cut short by byte " + hex(b));
    }
    codePoint = codePoint << 6 | b & 0x3F;
    if (--pending > 0) {
      return;
    }
    if (codePoint < minimum) {
      throw DynamoDbException.serialization(
          NOT_UTF8 + "the character at offset " + start + " is an overlong encoding");
    }
    if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
      throw DynamoDbException.serialization(
          NOT_UTF8 + "the bytes at offset " + start + " encode the surrogate "
              + String.format("U+%04X", codePoint) + ", which is no character");
    }
    if (codePoint > Character.MAX_CODE_POINT) {
      throw DynamoDbException.serialization(
          NOT_UTF8 + "the bytes at offset " + start + " encode no character (beyond U+10FFFF)");
    }
    if (codePoint == 0xFEFF && start == 0) {
      throw DynamoDbException.serialization(
          "Request body starts with a byte order mark, which JSON text must not");
    }
  }

  private void begin(int bits, int continuations, int smallest, long at) {
    codePoint = bits;
    pending = continuations;
    minimum = smallest;
    start = at;
  }

  private static String hex(int b) {
    return String.format("0x%02X", b);
  }
}
