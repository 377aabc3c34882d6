package io.stator.export;

import io.stator.api.DynamoDbException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of one JSON document (an import's line, a manifest) into maps, lists, strings,
 * numbers, booleans and null. Its errors are ValidationExceptions that say where the text went
 * wrong. Nesting is bounded, so no line can exhaust the stack.
 */
final class Json {
  private static final int MAX_NESTING = 64;

  private Json() {}

  static final class Reader {
    private final String text;
    private int at;

    Reader(String text) {
      this.text = text;
    }

    Object document() {
      Object v = value(0);
      space();
      if (at != text.length()) {
        throw error("unexpected text after the document");
      }
      return v;
    }

    private Object value(int depth) {
      if (depth > MAX_NESTING) {
        throw error("nested too deeply");
      }
      space();
      if (at >= text.length()) {
        throw error("unexpected end");
      }
      char c = text.charAt(at);
      switch (c) {
        case '{' -> {
          at++;
          Map<String, Object> m = new LinkedHashMap<>();
          space();
          if (peek('}')) {
            return m;
          }
          do {
            space();
            if (at >= text.length() || text.charAt(at) != '"') {
              throw error("expected a member name");
            }
            String name = string();
            space();
            expect(':');
            if (m.put(name, value(depth + 1)) != null) {
              throw error("member " + name + " given twice");
            }
            space();
          } while (peek(','));
          expect('}');
          return m;
        }
        case '[' -> {
          at++;
          List<Object> l = new ArrayList<>();
          space();
          if (peek(']')) {
            return l;
          }
          do {
            l.add(value(depth + 1));
            space();
          } while (peek(','));
          expect(']');
          return l;
        }
        case '"' -> {
          return string();
        }
        case 't' -> {
          word("true");
          return Boolean.TRUE;
        }
        case 'f' -> {
          word("false");
          return Boolean.FALSE;
        }
        case 'n' -> {
          word("null");
          return null;
        }
        default -> {
          int start = at;
          while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
          }
          try {
            return new BigDecimal(text.substring(start, at));
          } catch (NumberFormatException e) {
            at = start;
            throw error("unexpected character '" + c + "'");
          }
        }
      }
    }

    private String string() {
      at++; // the opening quote
      StringBuilder out = new StringBuilder();
      while (true) {
        if (at >= text.length()) {
          throw error("unterminated string");
        }
        char c = text.charAt(at++);
        if (c == '"') {
          return out.toString();
        }
        if (c < 0x20) {
          throw error("control character in a string");
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (at >= text.length()) {
          throw error("unterminated string");
        }
        char e = text.charAt(at++);
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            if (at + 4 > text.length()) {
              throw error("short \\u escape");
            }
            try {
              out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            } catch (NumberFormatException bad) {
              throw error("bad \\u escape");
            }
            at += 4;
          }
          default -> throw error("bad escape \\" + e);
        }
      }
    }

    private void word(String w) {
      if (!text.startsWith(w, at)) {
        throw error("unexpected character '" + text.charAt(at) + "'");
      }
      at += w.length();
    }

    private boolean peek(char c) {
      if (at < text.length() && text.charAt(at) == c) {
        at++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      space();
      if (!peek(c)) {
        throw error("expected '" + c + "'");
      }
    }

    private void space() {
      while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
        at++;
      }
    }

    private DynamoDbException error(String what) {
      return DynamoDbException.validation("Malformed JSON at character " + (at + 1) + ": "
          + what);
    }
  }
}
