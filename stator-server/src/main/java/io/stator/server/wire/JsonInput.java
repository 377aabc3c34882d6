package io.stator.server.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.stator.api.DynamoDbException;
import io.stator.item.ItemNesting;
import io.stator.value.AttributeValue;
import io.stator.value.InvalidValueException;
import io.stator.value.Bytes;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed reads of an AWS JSON 1.0 request body from a streaming parser, with DynamoDB's errors.
 *
 * <p>DynamoDB checks a request in two passes: first every member must have the JSON type its
 * shape declares (a {@code SerializationException} such as "NUMBER_VALUE cannot be converted to
 * String"), then the values are validated (a {@code ValidationException}). One streaming pass
 * gives the same answer: type errors are thrown at once, while the first validation error of an
 * attribute value is remembered and thrown only after the whole body has been read, so a type
 * error later in the body still wins, as it does on DynamoDB.
 *
 * <p>Each read starts with the parser on the value's first token and leaves it on the value's
 * last token. JSON {@code null} reads as an absent member, as DynamoDB treats it.
 *
 * <p>Every string and member name of a request is read here, by {@link #string()} and {@link
 * #nextMember()}, and each is refused if it holds an unpaired surrogate: JSON lets a string
 * escape one (<code>"&#92;ud800"</code>), but it is no Unicode character and has no UTF-8 form,
 * so the item codec would store it as {@code ?} and the key would alias another (issue 29). Only
 * an escape can produce one, since {@link Utf8Body} has refused every byte sequence that is not
 * UTF-8; a valid pair, escaped (<code>"&#92;ud83d&#92;ude00"</code>) or in four raw bytes, is
 * kept. (Jackson's byte parser already refuses such a member name, see WireProtocol; the check
 * of names here keeps the rule whatever parser reads them.)
 */
final class JsonInput {
  /**
   * DynamoDB supports nested attributes up to 32 levels deep, the attribute itself being level
   * 1: a value of 31 nested maps or lists (its leaf at level 32) is the deepest it takes.
   */
  static final int MAX_NESTING = ItemNesting.MAX_LEVELS;

  /** DynamoDB's recorded words for a value nested deeper than {@link #MAX_NESTING}. */
  static final String TOO_DEEP = ItemNesting.TOO_DEEP;

  private static final String SHAPE_PREFIX = "com.amazonaws.dynamodb.v20120810.";

  private final JsonParser parser;
  private DynamoDbException deferred;

  JsonInput(JsonParser parser) {
    this.parser = parser;
  }

  /** Reads with a member reader that may throw IOException. */
  @FunctionalInterface
  interface Reader<T> {
    T read(JsonInput in) throws IOException;
  }

  /** Reads the whole body as one structure, then throws the first deferred validation error. */
  <T> T root(Reader<T> members) throws IOException {
    T value = rootDeferring(members);
    throwDeferred();
    return value;
  }

  /**
   * Reads the whole body as one structure; a validation error found on the way is kept for
   * {@link #throwDeferred}, since DynamoDB reports the model's constraints before it.
   */
  <T> T rootDeferring(Reader<T> members) throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      throw DynamoDbException.serialization(null);
    }
    T value;
    try {
      value = members.read(this);
    } catch (StreamConstraintsException e) {
      // Nesting far beyond DynamoDB's limit: report the limit, found long before Jackson's.
      if (deferred != null) {
        throw deferred;
      }
      throw e;
    }
    if (parser.nextToken() != null) {
      throw DynamoDbException.serialization(null);
    }
    return value;
  }

  /** Throws the first validation error found while reading, if any. */
  void throwDeferred() {
    if (deferred != null) {
      throw deferred;
    }
  }

  /**
   * Moves to the value of the next member of the current object and returns the member's name,
   * or null when the object ends.
   */
  String nextMember() throws IOException {
    if (parser.nextToken() != JsonToken.FIELD_NAME) {
      return null;
    }
    String name = parser.currentName();
    checkUnicode(name);
    parser.nextToken();
    return name;
  }

  /** Skips the value of a member DynamoDB does not know; unknown members are ignored. */
  void skip() throws IOException {
    parser.skipChildren();
  }

  // ---- scalars ------------------------------------------------------------------------------

  String string() throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_STRING) {
      return checkUnicode(parser.getText());
    }
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    throw scalarTypeError(token, "String");
  }

  /** Returns {@code text}, or throws a SerializationException if it is not valid UTF-16. */
  private static String checkUnicode(String text) {
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      if (c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE) {
        continue;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
        continue;
      }
      throw DynamoDbException.serialization(String.format(
          "Invalid string: \\u%04x at character %d is an unpaired surrogate, which is no "
              + "Unicode character (a string must be valid UTF-8)", (int) c, i));
    }
    return text;
  }

  Integer integer() throws IOException {
    Long value = number("Integer");
    if (value == null) {
      return null;
    }
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw DynamoDbException.serialization("NUMBER_VALUE cannot be converted to Integer");
    }
    return value.intValue();
  }

  Long longValue() throws IOException {
    return number("Long");
  }

  private Long number(String type) throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case VALUE_NULL:
        return null;
      case VALUE_NUMBER_INT:
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
          throw DynamoDbException.serialization("NUMBER_VALUE cannot be converted to " + type);
        }
        return parser.getLongValue();
      case VALUE_NUMBER_FLOAT:
        // DynamoDB truncates a decimal given for an integer member.
        double d = Math.floor(parser.getDoubleValue());
        if (d < Long.MIN_VALUE || d > Long.MAX_VALUE) {
          throw DynamoDbException.serialization("DECIMAL_VALUE cannot be converted to " + type);
        }
        return (long) d;
      default:
        throw scalarTypeError(token, type);
    }
  }

  /**
   * A timestamp member: epoch seconds, with a fraction or without, as the JSON protocol sends
   * them.
   */
  Instant timestamp() throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case VALUE_NULL:
        return null;
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT:
        BigDecimal seconds = parser.getDecimalValue();
        try {
          long whole = seconds.setScale(0, RoundingMode.FLOOR).longValueExact();
          int nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).intValue();
          return Instant.ofEpochSecond(whole, nanos);
        } catch (ArithmeticException | java.time.DateTimeException e) {
          throw DynamoDbException.serialization(
              "DECIMAL_VALUE cannot be converted to Timestamp");
        }
      default:
        throw scalarTypeError(token, "Timestamp");
    }
  }

  Boolean bool() throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case VALUE_NULL:
        return null;
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_STRING:
        // DynamoDB's deserializer converts a few spellings of a boolean given as a string.
        switch (parser.getText().toUpperCase(java.util.Locale.ROOT)) {
          case "TRUE", "1", "YES":
            return Boolean.TRUE;
          case "FALSE", "0", "NO":
            return Boolean.FALSE;
          default:
            throw DynamoDbException.serialization("Unexpected token received from parser");
        }
      default:
        throw scalarTypeError(token, "Boolean");
    }
  }

  /** A base64 blob, checked as DynamoDB checks it. */
  Bytes blob() throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case VALUE_NULL:
        return null;
      case VALUE_STRING:
        return Base64Text.decode(parser.getText());
      case START_OBJECT:
        throw DynamoDbException.serialization(
            "Start of structure or map found where not expected");
      case START_ARRAY:
        throw DynamoDbException.serialization(
            "Unrecognized collection type class java.nio.ByteBuffer");
      default:
        throw DynamoDbException.serialization(
            "only base-64-encoded strings are convertible to bytes");
    }
  }

  private static DynamoDbException scalarTypeError(JsonToken token, String type) {
    String message =
        switch (token) {
          case VALUE_NUMBER_INT -> "NUMBER_VALUE cannot be converted to " + type;
          case VALUE_NUMBER_FLOAT -> "DECIMAL_VALUE cannot be converted to " + type;
          case VALUE_TRUE -> "TRUE_VALUE cannot be converted to " + type;
          case VALUE_FALSE -> "FALSE_VALUE cannot be converted to " + type;
          case VALUE_STRING -> "STRING_VALUE cannot be converted to " + type;
          case START_OBJECT -> "Start of structure or map found where not expected";
          case START_ARRAY -> "Unrecognized collection type class java.lang." + type;
          default -> "Unexpected token received from parser";
        };
    return DynamoDbException.serialization(message);
  }

  // ---- structures and collections -----------------------------------------------------------

  /** A structure of the named shape; {@code members} loops over {@link #nextMember()}. */
  <T> T struct(String shape, Reader<T> members) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token == JsonToken.START_ARRAY) {
      throw DynamoDbException.serialization(
          "Unrecognized collection type class " + SHAPE_PREFIX + shape);
    }
    if (token != JsonToken.START_OBJECT) {
      throw DynamoDbException.serialization("Unexpected field type");
    }
    return members.read(this);
  }

  <T> List<T> list(Reader<T> element) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token == JsonToken.START_OBJECT) {
      throw DynamoDbException.serialization(
          "Start of structure or map found where not expected");
    }
    if (token != JsonToken.START_ARRAY) {
      throw DynamoDbException.serialization("Unexpected field type");
    }
    List<T> list = new ArrayList<>();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      T value = element.read(this);
      if (value != null) {
        list.add(value);
      }
    }
    return list;
  }

  /** A JSON object read as a map; {@code valueShape} names the Java type in DynamoDB's error. */
  <T> Map<String, T> map(String valueShape, Reader<T> value) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token == JsonToken.START_ARRAY) {
      throw DynamoDbException.serialization(
          "Unrecognized collection type java.util.Map<java.lang.String, " + valueShape + ">");
    }
    if (token != JsonToken.START_OBJECT) {
      throw DynamoDbException.serialization("Unexpected field type");
    }
    Map<String, T> map = new LinkedHashMap<>();
    for (String name = nextMember(); name != null; name = nextMember()) {
      T v = value.read(this);
      if (v != null) {
        map.put(name, v);
      }
    }
    return map;
  }

  List<String> strings() throws IOException {
    return list(JsonInput::string);
  }

  Map<String, String> stringMap() throws IOException {
    return map("java.lang.String", JsonInput::string);
  }

  // ---- attribute values ---------------------------------------------------------------------

  /** An item, key or expression-attribute-values map: attribute names to values. */
  Map<String, AttributeValue> item() throws IOException {
    return attributeMap(0);
  }

  /**
   * An ExpressionAttributeValues map. DynamoDB names the placeholder whose value is invalid:
   * "ExpressionAttributeValues contains invalid value: &lt;problem&gt; for key :v".
   */
  Map<String, AttributeValue> expressionAttributeValues() throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      return attributeMap(0);
    }
    Map<String, AttributeValue> map = new LinkedHashMap<>();
    for (String name = nextMember(); name != null; name = nextMember()) {
      boolean valid = deferred == null;
      map.put(name, requiredValue(0));
      if (valid && deferred != null) {
        deferred = DynamoDbException.validation("ExpressionAttributeValues contains invalid "
            + "value: " + deferred.getMessage() + " for key " + name);
      }
    }
    return map;
  }

  /** A top-level attribute value (e.g. the Value of an ExpectedAttributeValue). */
  AttributeValue attributeValue() throws IOException {
    return attributeValue(0);
  }

  List<AttributeValue> attributeValueList() throws IOException {
    return list(in -> in.attributeValue(0));
  }

  private Map<String, AttributeValue> attributeMap(int depth) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token == JsonToken.START_ARRAY) {
      throw DynamoDbException.serialization(
          "Unrecognized collection type java.util.Map<java.lang.String, "
              + SHAPE_PREFIX
              + "AttributeValue>");
    }
    if (token != JsonToken.START_OBJECT) {
      throw DynamoDbException.serialization("Unexpected field type");
    }
    Map<String, AttributeValue> map = new LinkedHashMap<>();
    for (String name = nextMember(); name != null; name = nextMember()) {
      map.put(name, requiredValue(depth));
    }
    return map;
  }

  private AttributeValue requiredValue(int depth) throws IOException {
    AttributeValue value = attributeValue(depth);
    if (value == null) {
      defer(
          "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
      return AttributeValue.NULL;
    }
    return value;
  }

  /**
   * One attribute value at {@code depth} enclosing maps and lists. Returns null for JSON null;
   * an invalid value is deferred (see the class comment) and read as a placeholder.
   */
  private AttributeValue attributeValue(int depth) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token == JsonToken.START_ARRAY) {
      throw DynamoDbException.serialization(
          "Unrecognized collection type class " + SHAPE_PREFIX + "AttributeValue");
    }
    if (token != JsonToken.START_OBJECT) {
      throw DynamoDbException.serialization("Unexpected value type in payload");
    }
    AttributeValue value = null;
    int types = 0;
    for (String type = nextMember(); type != null; type = nextMember()) {
      AttributeValue v = typedValue(type, depth);
      if (v != null) {
        value = v;
        types++;
      }
    }
    if (types == 0) {
      defer(
          "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
      return AttributeValue.NULL;
    }
    if (types > 1) {
      defer(
          "Supplied AttributeValue has more than one datatypes set, "
              + "must contain exactly one of the supported datatypes");
    }
    return value;
  }

  private AttributeValue typedValue(String type, int depth) throws IOException {
    switch (type) {
      case "S": {
        String s = string();
        return s == null ? null : new AttributeValue.S(s);
      }
      case "N": {
        String n = string();
        return n == null ? null : validated(() -> AttributeValue.n(n));
      }
      case "B": {
        Bytes b = blob();
        return b == null ? null : new AttributeValue.B(b);
      }
      case "BOOL": {
        Boolean b = bool();
        return b == null ? null : AttributeValue.bool(b);
      }
      case "NULL": {
        Boolean b = bool();
        if (b == null) {
          return null;
        }
        if (!b) {
          defer(
              "One or more parameter values were invalid: "
                  + "Null attribute value types must have the value of true");
        }
        return AttributeValue.NULL;
      }
      case "M":
        return container(depth, () -> {
          Map<String, AttributeValue> m = attributeMap(depth + 1);
          return m == null ? null : new AttributeValue.M(m);
        });
      case "L":
        return container(depth, () -> {
          List<AttributeValue> l = list(in -> in.requiredValue(depth + 1));
          return l == null ? null : new AttributeValue.L(l);
        });
      case "SS": {
        List<String> ss = strings();
        return ss == null ? null : validated(() -> AttributeValue.ss(ss));
      }
      case "NS": {
        List<String> ns = strings();
        return ns == null ? null : validated(() -> AttributeValue.ns(ns));
      }
      case "BS": {
        List<Bytes> bs = list(JsonInput::blob);
        return bs == null ? null : validated(() -> AttributeValue.bs(bs));
      }
      default:
        // A member that is no DynamoDB type is ignored, leaving the value empty.
        skip();
        return null;
    }
  }

  @FunctionalInterface
  private interface ValueRead {
    AttributeValue read() throws IOException;
  }

  /**
   * A map or list {@code depth} containers deep. Beyond DynamoDB's nesting limit the value is
   * skipped without recursion (Jackson skips iteratively), so deep input cannot overflow the
   * stack.
   */
  private AttributeValue container(int depth, ValueRead read) throws IOException {
    // This container is at level depth + 1, so its members at level depth + 2.
    if (depth + 2 > MAX_NESTING && parser.currentToken() != JsonToken.VALUE_NULL) {
      defer(TOO_DEEP);
      skip();
      return AttributeValue.NULL;
    }
    return read.read();
  }

  private AttributeValue validated(ValueRead factory) throws IOException {
    try {
      return factory.read();
    } catch (InvalidValueException e) {
      defer(e.getMessage());
      return AttributeValue.NULL;
    }
  }

  private void defer(String message) {
    if (deferred == null) {
      deferred = DynamoDbException.validation(message);
    }
  }

  /** DynamoDB's strict base64: padded to a multiple of 4, canonical final character. */
  static final class Base64Text {
    private Base64Text() {}

    static Bytes decode(String text) {
      if (text.length() % 4 != 0) {
        throw DynamoDbException.serialization(
            "Base64 encoded length is expected a multiple of 4 bytes but found: " + text.length());
      }
      // DynamoDB names the first character outside the alphabet (padding only at the end).
      int length = text.length();
      int pads = length > 0 && text.charAt(length - 1) == '='
          ? (length > 1 && text.charAt(length - 2) == '=' ? 2 : 1)
          : 0;
      for (int i = 0; i < length - pads; i++) {
        if (sextet(text.charAt(i)) < 0) {
          throw DynamoDbException.serialization(
              "Invalid base 64 character: '" + text.charAt(i) + "'");
        }
      }
      byte[] bytes = Base64.getDecoder().decode(text);
      // A final character carrying bits that the padding discards is not canonical base64.
      if (length > 0 && text.charAt(length - 1) == '=') {
        boolean twoPads = text.charAt(length - 2) == '=';
        int last = sextet(text.charAt(length - (twoPads ? 3 : 2)));
        if ((last & (twoPads ? 0x0f : 0x03)) != 0) {
          throw DynamoDbException.serialization(
              "Invalid last non-pad Base64 character dectected");
        }
      }
      return Bytes.wrap(bytes);
    }

    private static int sextet(char c) {
      if (c >= 'A' && c <= 'Z') {
        return c - 'A';
      }
      if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
      }
      if (c >= '0' && c <= '9') {
        return c - '0' + 52;
      }
      return c == '+' ? 62 : c == '/' ? 63 : -1;
    }
  }
}
