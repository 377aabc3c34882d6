package io.stator.export;

import io.stator.api.DynamoDbException;
import io.stator.value.AttributeValue;
import io.stator.value.InvalidValueException;
import io.stator.value.Bytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One item a line in DynamoDB's export format {@code DYNAMODB_JSON}: {@code {"Item":{"pk":{"S":
 * "a"},...}}}, each value in the typed form of DynamoDB's API (binary as base64). The reader
 * accepts what the writer writes and any JSON of that shape; anything else is a
 * ValidationException naming what is wrong, which an import counts as an error of its line.
 *
 * <p>A reader of its own, not the server's JSON codec: the engine, which runs exports and
 * imports, depends on the JDK only, and a line is small and of one fixed shape.
 */
final class DynamoDbJson {
  private static final int MAX_DEPTH = 40;

  private DynamoDbJson() {}

  static String line(Map<String, AttributeValue> item) {
    StringBuilder out = new StringBuilder(128).append("{\"Item\":");
    map(out, item);
    return out.append('}').toString();
  }

  /**
   * An incremental export's line: {@code {"Metadata":{"WriteTimestampMicros":{"N":...}},
   * "Keys":{...},"NewImage":{...},"OldImage":{...}}}, each image left out when null.
   */
  static String changeLine(long writeMicros, Map<String, AttributeValue> keys,
      Map<String, AttributeValue> newImage, Map<String, AttributeValue> oldImage) {
    StringBuilder out = new StringBuilder(256)
        .append("{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"").append(writeMicros)
        .append("\"}},\"Keys\":");
    map(out, keys);
    if (newImage != null) {
      out.append(",\"NewImage\":");
      map(out, newImage);
    }
    if (oldImage != null) {
      out.append(",\"OldImage\":");
      map(out, oldImage);
    }
    return out.append('}').toString();
  }

  private static void map(StringBuilder out, Map<String, AttributeValue> m) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, AttributeValue> e : m.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      string(out, e.getKey());
      out.append(':');
      value(out, e.getValue());
    }
    out.append('}');
  }

  private static void value(StringBuilder out, AttributeValue v) {
    out.append("{\"").append(v.type()).append("\":");
    if (v instanceof AttributeValue.S s) {
      string(out, s.value());
    } else if (v instanceof AttributeValue.N n) {
      string(out, n.value());
    } else if (v instanceof AttributeValue.B b) {
      string(out, b.value().toBase64());
    } else if (v instanceof AttributeValue.Bool b) {
      out.append(b.value());
    } else if (v instanceof AttributeValue.Null) {
      out.append("true");
    } else if (v instanceof AttributeValue.M m) {
      map(out, m.value());
    } else if (v instanceof AttributeValue.L l) {
      out.append('[');
      for (int i = 0; i < l.value().size(); i++) {
        out.append(i == 0 ? "" : ",");
        value(out, l.value().get(i));
      }
      out.append(']');
    } else if (v instanceof AttributeValue.SS ss) {
      strings(out, ss.value());
    } else if (v instanceof AttributeValue.NS ns) {
      strings(out, ns.value());
    } else if (v instanceof AttributeValue.BS bs) {
      strings(out, bs.value().stream().map(Bytes::toBase64).toList());
    }
    out.append('}');
  }

  private static void strings(StringBuilder out, Iterable<String> values) {
    out.append('[');
    boolean first = true;
    for (String s : values) {
      out.append(first ? "" : ",");
      first = false;
      string(out, s);
    }
    out.append(']');
  }

  static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** The item of a line {@code {"Item":{...}}}; a ValidationException when it is not one. */
  static Map<String, AttributeValue> item(String line) {
    Json.Reader in = new Json.Reader(line);
    Object parsed = in.document();
    if (!(parsed instanceof Map<?, ?> top) || !(top.get("Item") instanceof Map<?, ?> item)
        || top.size() != 1) {
      throw DynamoDbException.validation("Not an item line: expected {\"Item\":{...}}");
    }
    return attributes(item, 0);
  }

  private static Map<String, AttributeValue> attributes(Map<?, ?> m, int depth) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      out.put((String) e.getKey(), attribute(e.getValue(), depth + 1));
    }
    return out;
  }

  private static AttributeValue attribute(Object json, int depth) {
    if (depth > MAX_DEPTH) {
      throw DynamoDbException.validation("Nesting Levels have exceeded supported limits");
    }
    if (!(json instanceof Map<?, ?> typed) || typed.size() != 1) {
      throw DynamoDbException.validation("An attribute value must be an object with exactly one"
          + " type, such as {\"S\":\"text\"}");
    }
    Map.Entry<?, ?> e = typed.entrySet().iterator().next();
    try {
      return attribute((String) e.getKey(), e.getValue(), depth);
    } catch (InvalidValueException invalid) {
      throw DynamoDbException.validation(invalid.getMessage());
    }
  }

  private static AttributeValue attribute(String type, Object v, int depth) {
    return switch (type) {
      case "S" -> new AttributeValue.S(text(v));
      case "N" -> AttributeValue.n(text(v));
      case "B" -> new AttributeValue.B(base64(text(v)));
      case "BOOL" -> AttributeValue.bool(bool(v));
      case "NULL" -> {
        if (!bool(v)) {
          throw DynamoDbException.validation("Null attribute value types must have the value"
              + " of true");
        }
        yield AttributeValue.NULL;
      }
      case "M" -> new AttributeValue.M(attributes(object(v), depth));
      case "L" -> {
        List<AttributeValue> l = new ArrayList<>();
        for (Object element : array(v)) {
          l.add(attribute(element, depth + 1));
        }
        yield new AttributeValue.L(l);
      }
      case "SS" -> AttributeValue.ss(texts(v));
      case "NS" -> AttributeValue.ns(texts(v));
      case "BS" -> AttributeValue.bs(texts(v).stream().map(DynamoDbJson::base64).toList());
      default -> throw DynamoDbException.validation("Unknown attribute type " + type);
    };
  }

  static Bytes base64(String text) {
    try {
      return Bytes.fromBase64(text);
    } catch (IllegalArgumentException e) {
      throw DynamoDbException.validation("Invalid base64 for a binary value: " + e.getMessage());
    }
  }

  private static String text(Object v) {
    if (v instanceof String s) {
      return s;
    }
    throw DynamoDbException.validation("Expected a string, found " + v);
  }

  private static boolean bool(Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    throw DynamoDbException.validation("Expected true or false, found " + v);
  }

  private static Map<?, ?> object(Object v) {
    if (v instanceof Map<?, ?> m) {
      return m;
    }
    throw DynamoDbException.validation("Expected an object, found " + v);
  }

  private static List<?> array(Object v) {
    if (v instanceof List<?> l) {
      return l;
    }
    throw DynamoDbException.validation("Expected an array, found " + v);
  }

  private static List<String> texts(Object v) {
    List<String> out = new ArrayList<>();
    for (Object o : array(v)) {
      out.add(text(o));
    }
    return out;
  }
}
