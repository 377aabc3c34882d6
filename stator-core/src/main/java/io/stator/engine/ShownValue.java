package io.stator.engine;

import io.stator.api.KeysAndAttributes;
import io.stator.api.WriteRequest;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * How a constraint message ("Value '...' at 'requestItems' failed to satisfy constraint: ...")
 * shows a request member that is a collection of structures. DynamoDB prints its Java model
 * objects: a structure as its shape and identity ({@code
 * com.amazonaws.dynamodb.v20120810.WriteRequest@5d1e2f4c}), never its contents, so a message
 * stays short however large the items are; a key, which is a map of attribute values, shows
 * each value as {@code {S: k0,}}.
 */
final class ShownValue {
  private static final String SHAPE_PREFIX = "com.amazonaws.dynamodb.v20120810.";

  private ShownValue() {}

  /** BatchWriteItem's RequestItems: {@code {table=[...WriteRequest@1a2b, ...]}}. */
  static String writeRequests(Map<String, List<WriteRequest>> requestItems) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, List<WriteRequest>> e : requestItems.entrySet()) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      sb.append(e.getKey()).append('=');
      if (e.getValue() == null) {
        sb.append("null");
        continue;
      }
      sb.append('[');
      for (int i = 0; i < e.getValue().size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        structure(sb, e.getValue().get(i), "WriteRequest");
      }
      sb.append(']');
    }
    return sb.append('}').toString();
  }

  /** BatchGetItem's RequestItems: {@code {table=...KeysAndAttributes@1a2b}}. */
  static String keysAndAttributes(Map<String, KeysAndAttributes> requestItems) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, KeysAndAttributes> e : requestItems.entrySet()) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      sb.append(e.getKey()).append('=');
      structure(sb, e.getValue(), "KeysAndAttributes");
    }
    return sb.append('}').toString();
  }

  /** A list of keys: {@code [{id={S: k0,}}, {id={S: k1,}}]}. */
  static String keys(List<Map<String, AttributeValue>> keys) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < keys.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append('{');
      boolean first = true;
      for (Map.Entry<String, AttributeValue> a : keys.get(i).entrySet()) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        sb.append(a.getKey()).append('=');
        value(sb, a.getValue());
      }
      sb.append('}');
    }
    return sb.append(']').toString();
  }

  private static void structure(StringBuilder sb, Object value, String shape) {
    if (value == null) {
      sb.append("null");
      return;
    }
    sb.append(SHAPE_PREFIX).append(shape).append('@')
        .append(Integer.toHexString(System.identityHashCode(value)));
  }

  /** A key attribute's value; a value no key can have shows only its type. */
  private static void value(StringBuilder sb, AttributeValue v) {
    if (v instanceof AttributeValue.S s) {
      sb.append("{S: ").append(s.value()).append(",}");
    } else if (v instanceof AttributeValue.N n) {
      sb.append("{N: ").append(n.value()).append(",}");
    } else if (v instanceof AttributeValue.B b) {
      sb.append("{B: ").append(b.value()).append(",}");
    } else {
      sb.append('{').append(v == null ? "null" : v.getClass().getSimpleName()).append(": ...,}");
    }
  }
}
