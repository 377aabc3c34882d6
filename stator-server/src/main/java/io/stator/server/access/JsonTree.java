package io.stator.server.access;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON document as maps, lists, strings, numbers, booleans and nulls: the credentials file
 * and its policies are small, read once, and want their shape checked by hand with messages
 * that name the member at fault.
 */
final class JsonTree {
  private static final JsonFactory JSON = new JsonFactory();

  private JsonTree() {}

  static Object read(String text) throws IOException {
    try (JsonParser parser = JSON.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new IOException("no JSON value");
      }
      Object value = value(parser, first);
      if (parser.nextToken() != null) {
        throw new IOException("text after the JSON value, line "
            + parser.currentLocation().getLineNr());
      }
      return value;
    }
  }

  private static Object value(JsonParser parser, JsonToken token) throws IOException {
    switch (token) {
      case START_OBJECT: {
        Map<String, Object> map = new LinkedHashMap<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
          String name = parser.currentName();
          if (map.containsKey(name)) {
            throw new IOException("\"" + name + "\" is given twice");
          }
          map.put(name, value(parser, parser.nextToken()));
        }
        return map;
      }
      case START_ARRAY: {
        List<Object> list = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
          list.add(value(parser, t));
        }
        return list;
      }
      case VALUE_STRING:
        return parser.getText();
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return parser.getDecimalValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new IOException("unexpected " + token);
    }
  }
}
