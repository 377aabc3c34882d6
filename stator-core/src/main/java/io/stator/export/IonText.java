package io.stator.export;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.Bytes;
import io.stator.value.InvalidValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One item a line in DynamoDB's export format {@code ION}, Amazon Ion text: {@code
 * {Item:{pk:"a",n:12.5,b:{{AAE=}},ok:true,none:null,l:[1.,"x"],m:{k:"v"},
 * ss:$dynamodb_SS::["a","b"]}}}. DynamoDB maps its types onto Ion's: S a string, N a decimal
 * (written with a {@code .} or a {@code d} exponent, so that it reads as a decimal, not an int or
 * a float), B a blob, BOOL a bool, NULL null, L a list, M a struct, and the sets lists annotated
 * {@code $dynamodb_SS}, {@code $dynamodb_NS} and {@code $dynamodb_BS}. Field names are written as
 * quoted symbols, which any name can be.
 *
 * <p>The reader takes that subset of Ion text, on one line, whatever DynamoDB or this writer put
 * there: the {@code $ion_1_0} version marker, symbols bare or quoted, strings with Ion's escapes,
 * ints and decimals (an Ion int is a number too), blobs, annotations on sets, comments not. A
 * line it cannot read is a ValidationException naming the place, which an import counts as an
 * error of that line. Stator's own codec rather than a library: the engine depends on the JDK
 * only, and this subset is small.
 */
final class IonText {
  static final String VERSION_MARKER = "$ion_1_0";
  private static final int MAX_DEPTH = 40;

  private IonText() {}

  static String line(Map<String, AttributeValue> item) {
    StringBuilder out = new StringBuilder(128).append("{Item:");
    struct(out, item);
    return out.append('}').toString();
  }

  /** An incremental export's line, as {@link DynamoDbJson#changeLine} in Ion. */
  static String changeLine(long writeMicros, Map<String, AttributeValue> keys,
      Map<String, AttributeValue> newImage, Map<String, AttributeValue> oldImage) {
    StringBuilder out = new StringBuilder(256).append("{Metadata:{WriteTimestampMicros:")
        .append(writeMicros).append(".},Keys:");
    struct(out, keys);
    if (newImage != null) {
      out.append(",NewImage:");
      struct(out, newImage);
    }
    if (oldImage != null) {
      out.append(",OldImage:");
      struct(out, oldImage);
    }
    return out.append('}').toString();
  }

  private static void struct(StringBuilder out, Map<String, AttributeValue> m) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, AttributeValue> e : m.entrySet()) {
      out.append(first ? "" : ",");
      first = false;
      quoted(out, e.getKey(), '\'');
      out.append(':');
      value(out, e.getValue());
    }
    out.append('}');
  }

  private static void value(StringBuilder out, AttributeValue v) {
    if (v instanceof AttributeValue.S s) {
      quoted(out, s.value(), '"');
    } else if (v instanceof AttributeValue.N n) {
      out.append(decimal(n.value()));
    } else if (v instanceof AttributeValue.B b) {
      out.append("{{").append(b.value().toBase64()).append("}}");
    } else if (v instanceof AttributeValue.Bool b) {
      out.append(b.value());
    } else if (v instanceof AttributeValue.Null) {
      out.append("null");
    } else if (v instanceof AttributeValue.M m) {
      struct(out, m.value());
    } else if (v instanceof AttributeValue.L l) {
      out.append('[');
      for (int i = 0; i < l.value().size(); i++) {
        out.append(i == 0 ? "" : ",");
        value(out, l.value().get(i));
      }
      out.append(']');
    } else if (v instanceof AttributeValue.SS ss) {
      out.append("$dynamodb_SS::[");
      join(out, ss.value(), s -> quoted(out, s, '"'));
      out.append(']');
    } else if (v instanceof AttributeValue.NS ns) {
      out.append("$dynamodb_NS::[");
      join(out, ns.value(), s -> out.append(decimal(s)));
      out.append(']');
    } else if (v instanceof AttributeValue.BS bs) {
      out.append("$dynamodb_BS::[");
      join(out, bs.value(), b -> out.append("{{").append(b.toBase64()).append("}}"));
      out.append(']');
    }
  }

  private static <T> void join(StringBuilder out, Iterable<T> values,
      java.util.function.Consumer<T> each) {
    boolean first = true;
    for (T v : values) {
      out.append(first ? "" : ",");
      first = false;
      each.accept(v);
    }
  }

  /** A DynamoDB number as an Ion decimal: its exponent with {@code d}, else a {@code .}. */
  static String decimal(String number) {
    int e = Math.max(number.indexOf('e'), number.indexOf('E'));
    if (e >= 0) {
      return number.substring(0, e) + "d" + number.substring(e + 1);
    }
    return number.indexOf('.') >= 0 ? number : number + ".";
  }

  private static void quoted(StringBuilder out, String s, char quote) {
    out.append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == quote || c == '\\') {
        out.append('\\').append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\x%02x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append(quote);
  }

  /** The item of a line {@code {Item:{...}}} (after a version marker, if any). */
  static Map<String, AttributeValue> item(String line) {
    Reader in = new Reader(line);
    in.space();
    if (line.startsWith(VERSION_MARKER, in.at)) {
      in.at += VERSION_MARKER.length();
      in.space();
    }
    Object top = in.value(0);
    in.space();
    if (in.at != line.length()) {
      throw in.error("unexpected text after the item");
    }
    if (!(top instanceof Struct s) || s.fields.size() != 1
        || !(s.fields.get("Item") instanceof Struct item)) {
      throw DynamoDbException.validation("Not an item line: expected {Item:{...}}");
    }
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    item.fields.forEach((name, v) -> out.put(name, attribute(v)));
    return out;
  }

  /** A struct read, its fields in order. */
  private record Struct(Map<String, Object> fields) {}

  /** A list read, and its annotation (null for none). */
  private record IonList(String annotation, List<Object> values) {}

  /** A decimal or int read, as its DynamoDB number text. */
  private record Decimal(String text) {}

  private static AttributeValue attribute(Object v) {
    try {
      if (v instanceof String s) {
        return new AttributeValue.S(s);
      } else if (v instanceof Decimal d) {
        return AttributeValue.n(d.text());
      } else if (v instanceof Bytes b) {
        return new AttributeValue.B(b);
      } else if (v instanceof Boolean b) {
        return AttributeValue.bool(b);
      } else if (v == null) {
        return AttributeValue.NULL;
      } else if (v instanceof Struct s) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        s.fields.forEach((name, f) -> m.put(name, attribute(f)));
        return new AttributeValue.M(m);
      }
      IonList l = (IonList) v;
      if (l.annotation == null) {
        List<AttributeValue> out = new ArrayList<>();
        l.values.forEach(e -> out.add(attribute(e)));
        return new AttributeValue.L(out);
      }
      return switch (l.annotation) {
        case "$dynamodb_SS" -> AttributeValue.ss(members(l, String.class, "strings"));
        case "$dynamodb_NS" -> AttributeValue.ns(members(l, Decimal.class, "decimals").stream()
            .map(Decimal::text).toList());
        case "$dynamodb_BS" -> AttributeValue.bs(members(l, Bytes.class, "blobs"));
        default -> throw DynamoDbException.validation("Unknown annotation " + l.annotation
            + ": DynamoDB's Ion annotates sets only ($dynamodb_SS, $dynamodb_NS, $dynamodb_BS)");
      };
    } catch (InvalidValueException e) {
      throw DynamoDbException.validation(e.getMessage());
    }
  }

  private static <T> List<T> members(IonList l, Class<T> type, String what) {
    List<T> out = new ArrayList<>();
    for (Object v : l.values) {
      if (!type.isInstance(v)) {
        throw DynamoDbException.validation(l.annotation + " holds " + what + " only");
      }
      out.add(type.cast(v));
    }
    return out;
  }

  /** Reads one Ion text value at a time from a line. */
  private static final class Reader {
    private final String text;
    private int at;

    Reader(String text) {
      this.text = text;
    }

    DynamoDbException error(String what) {
      return DynamoDbException.validation("Invalid Ion at character " + (at + 1) + ": " + what);
    }

    void space() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
        at++;
      }
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) {
        throw DynamoDbException.validation("Nesting Levels have exceeded supported limits");
      }
      space();
      if (at >= text.length()) {
        throw error("a value is missing");
      }
      String annotation = null;
      int start = at;
      if (text.charAt(at) == '$' || Character.isLetter(text.charAt(at))
          || text.charAt(at) == '_' || text.charAt(at) == '\'') {
        String symbol = symbol();
        space();
        if (text.startsWith("::", at)) {
          at += 2;
          annotation = symbol;
          space();
        } else {
          at = start;
        }
      }
      char c = text.charAt(at);
      Object v;
      if (c == '{' && text.startsWith("{{", at)) {
        v = blob();
      } else if (c == '{') {
        v = struct(depth);
      } else if (c == '[') {
        v = list(depth);
      } else if (c == '"') {
        at++;
        v = string('"');
      } else if (c == '-' || Character.isDigit(c)) {
        v = number();
      } else {
        v = keyword();
      }
      if (annotation != null && !(v instanceof List<?>)) {
        throw error("annotation " + annotation + " on a value other than a list");
      }
      return v instanceof List<?> l ? new IonList(annotation, castList(l)) : v;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(List<?> l) {
      return (List<Object>) l;
    }

    private Object keyword() {
      String word = symbol();
      return switch (word) {
        case "true" -> Boolean.TRUE;
        case "false" -> Boolean.FALSE;
        case "null", "null.null" -> null;
        default -> throw error("unexpected " + word);
      };
    }

    /** A symbol: bare ({@code Item}, {@code $dynamodb_SS}, {@code null.null}) or quoted. */
    private String symbol() {
      if (text.charAt(at) == '\'') {
        at++;
        return string('\'');
      }
      int start = at;
      while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at))
          || text.charAt(at) == '_' || text.charAt(at) == '$' || text.charAt(at) == '.')) {
        at++;
      }
      if (start == at) {
        throw error("a symbol is missing");
      }
      return text.substring(start, at);
    }

    private Struct struct(int depth) {
      at++; // {
      Map<String, Object> fields = new LinkedHashMap<>();
      space();
      while (at < text.length() && text.charAt(at) != '}') {
        space();
        String name = text.charAt(at) == '"' ? stringAfterQuote() : symbol();
        space();
        expect(':');
        if (fields.containsKey(name)) {
          throw error("the field " + name + " twice");
        }
        fields.put(name, value(depth + 1));
        if (!nextElement()) {
          break;
        }
      }
      expect('}');
      return new Struct(fields);
    }

    /** After a struct's field or a list's value: past the comma and true if another follows. */
    private boolean nextElement() {
      space();
      if (at < text.length() && text.charAt(at) == ',') {
        at++;
        space();
        return true;
      }
      return false;
    }

    private String stringAfterQuote() {
      at++;
      return string('"');
    }

    private List<Object> list(int depth) {
      at++; // [
      List<Object> values = new ArrayList<>();
      space();
      while (at < text.length() && text.charAt(at) != ']') {
        values.add(value(depth + 1));
        if (!nextElement()) {
          break;
        }
      }
      expect(']');
      return values;
    }

    private void expect(char c) {
      space();
      if (at >= text.length() || text.charAt(at) != c) {
        throw error("expected " + c);
      }
      at++;
    }

    private Bytes blob() {
      int end = text.indexOf("}}", at + 2);
      if (end < 0) {
        throw error("an unterminated blob");
      }
      String base64 = text.substring(at + 2, end).replaceAll("\\s", "");
      at = end + 2;
      return DynamoDbJson.base64(base64);
    }

    /** An int or a decimal ({@code 12}, {@code 12.}, {@code 1.25}, {@code 6d2}, {@code -5d-1}). */
    private Decimal number() {
      int start = at;
      while (at < text.length() && "0123456789+-.dDeE_".indexOf(text.charAt(at)) >= 0) {
        at++;
      }
      String raw = text.substring(start, at).replace("_", "");
      if (raw.indexOf('e') >= 0 || raw.indexOf('E') >= 0) {
        throw error(raw + " is an Ion float; DynamoDB's numbers are decimals");
      }
      String number = raw.replace('d', 'E').replace('D', 'E');
      if (number.endsWith(".")) {
        number = number.substring(0, number.length() - 1);
      }
      try {
        new java.math.BigDecimal(number);
      } catch (NumberFormatException e) {
        throw error(raw + " is no number");
      }
      return new Decimal(number.replace(".E", "E"));
    }

    /** The rest of a string whose opening quote was read. */
    private String string(char quote) {
      StringBuilder out = new StringBuilder();
      while (true) {
        if (at >= text.length()) {
          throw error("an unterminated string");
        }
        char c = text.charAt(at++);
        if (c == quote) {
          return out.toString();
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (at >= text.length()) {
          throw error("an unterminated escape");
        }
        char e = text.charAt(at++);
        switch (e) {
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case '0' -> out.append('\0');
          case 'a' -> out.append('\u0007');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'v' -> out.append('\u000b');
          case 'x' -> out.append((char) hex(2));
          case 'u' -> out.append((char) hex(4));
          case 'U' -> out.appendCodePoint(hex(8));
          case '"', '\'', '\\', '/', '?' -> out.append(e);
          default -> throw error("an unknown escape \\" + e);
        }
      }
    }

    private int hex(int digits) {
      if (at + digits > text.length()) {
        throw error("a short escape");
      }
      try {
        int v = Integer.parseInt(text.substring(at, at + digits), 16);
        at += digits;
        return v;
      } catch (NumberFormatException e) {
        throw error("a bad escape");
      }
    }
  }
}
