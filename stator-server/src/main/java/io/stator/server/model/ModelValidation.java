package io.stator.server.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.api.DynamoDbException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a request body against the constraints of its operation's input shape in DynamoDB's
 * service model, and reports what breaks them as DynamoDB does: {@code 2 validation errors
 * detected: Value '' at 'tableName' failed to satisfy constraint: Member must have length
 * greater than or equal to 1; Value 'X' at 'billingMode' failed to satisfy constraint: Member
 * must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]}.
 *
 * <p>The order is DynamoDB's: a structure's members in the model's order (whatever the order in
 * the body), a list's elements in order ({@code keySchema.2.member.keyType}), a map's entries in
 * order ({@code requestItems.T.member.keys}); for one value, its own constraints (null, pattern,
 * least then greatest length or value, enum; an index name's length before its pattern) before
 * those of its parts. Where DynamoDB is recorded to order otherwise than the model, the table
 * says so (see ConstraintTableGenerator). At most ten are listed.
 *
 * <p>It reads the body as a token stream, a second time after the request's records were read
 * (so that a body DynamoDB cannot deserialize is its SerializationException first), and skips
 * every subtree whose shape constrains nothing. A value is shown as DynamoDB's service prints
 * its Java model objects: a string or number as sent, a list as {@code [a, b]}, a map as
 * {@code {k=v}}, an attribute value as {@code {S: k0,}}, and any other structure by its shape
 * and identity ({@code com.amazonaws.dynamodb.v20120810.WriteRequest@5d1e2f4c}), never its
 * contents, so that a message stays short however large the items are. The one value it does
 * not show is an item whose attribute name breaks its length ({@code Value at 'item'}), which
 * would be to print the whole item for one name.
 */
public final class ModelValidation {
  private static final int MAX_LISTED = 10;

  /** The package of DynamoDB's model classes, as structures are shown. */
  private static final String SHAPE_PREFIX = "com.amazonaws.dynamodb.v20120810.";

  private final JsonParser parser;

  /** The number of elements or entries of the list or map read last. */
  private int size;

  private ModelValidation(JsonParser parser) {
    this.parser = parser;
  }

  /** Whether the model knows the operation of this {@code X-Amz-Target}. */
  public static boolean knows(String target) {
    return ServiceModel.get().input(target) != null;
  }

  /**
   * Throws DynamoDB's ValidationException if the body that {@code parser} reads breaks a
   * constraint of the input of the operation of {@code target}; an operation the model does
   * not know is not checked.
   */
  public static void check(String target, JsonParser parser) throws IOException {
    Shape input = ServiceModel.get().input(target);
    if (input == null || parser.nextToken() != JsonToken.START_OBJECT) {
      return;
    }
    List<Violation> errors = new ArrayList<>();
    new ModelValidation(parser).structure(input, "", false, errors);
    if (!errors.isEmpty()) {
      List<String> listed = new ArrayList<>();
      for (Violation v : errors.subList(0, Math.min(errors.size(), MAX_LISTED))) {
        listed.add(v.text());
      }
      throw DynamoDbException.validation(
          listed.size() + " validation error" + (listed.size() > 1 ? "s" : "") + " detected: "
              + String.join("; ", listed));
    }
  }

  /**
   * Checks the value at the parser's current token, adding violations to {@code errors};
   * returns the value as a message shows it when {@code render}, else null.
   */
  private String value(Shape shape, String path, boolean render, List<Violation> errors)
      throws IOException {
    return switch (shape.type) {
      case STRUCTURE -> structure(shape, path, render, errors);
      case LIST -> list(shape, path, render, errors);
      case MAP -> map(shape, path, render, errors);
      case STRING -> string(shape, path, errors);
      case NUMBER -> number(shape, path, errors);
      case OTHER -> other(render);
    };
  }

  private String structure(Shape shape, String path, boolean render, List<Violation> errors)
      throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren(); // a type DynamoDB cannot deserialize, refused already
      return null;
    }
    boolean renderMembers = render && shape.isAttributeValue();
    int n = shape.members.size();
    boolean[] given = new boolean[n];
    List<List<Violation>> byMember = null;
    StringBuilder shown = renderMembers ? new StringBuilder("{") : null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      Integer index = shape.memberIndex.get(parser.currentName());
      JsonToken token = parser.nextToken();
      if (index == null || token == JsonToken.VALUE_NULL) {
        parser.skipChildren();
        continue;
      }
      Shape.Member member = shape.members.get(index);
      given[index] = true;
      if (!member.shape().constrained && !renderMembers && member.requiredFor() == null) {
        parser.skipChildren();
        continue;
      }
      List<Violation> found = new ArrayList<>(0);
      size = -1;
      String memberShown = value(member.shape(), child(path, member.path()), renderMembers, found);
      if (member.requiredFor() != null && size == 0) {
        given[index] = false; // empty counts as missing for DynamoDB's own sentence
      }
      if (renderMembers) {
        shown.append(member.name()).append(": ").append(memberShown).append(',');
      }
      if (!found.isEmpty()) {
        if (byMember == null) {
          byMember = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            byMember.add(null);
          }
        }
        byMember.set(index, found);
      }
    }
    for (int i = 0; i < n; i++) {
      Shape.Member member = shape.members.get(i);
      if (member.requiredFor() != null && !given[i]) {
        // Instead of every other error of the request, as DynamoDB is recorded to answer.
        throw DynamoDbException.validation("The " + member.path() + " parameter is required for "
            + member.requiredFor());
      } else if (member.required() && !given[i]) {
        violation(errors, "null", child(path, member.path()), "Member must not be null");
      } else if (byMember != null && byMember.get(i) != null) {
        errors.addAll(byMember.get(i));
      }
    }
    if (!render) {
      return null;
    }
    if (renderMembers) {
      return shown.append('}').toString();
    }
    return SHAPE_PREFIX + shape.simpleName() + "@"
        + Integer.toHexString(System.identityHashCode(new Object()));
  }

  private String list(Shape shape, String path, boolean render, List<Violation> errors)
      throws IOException {
    if (parser.currentToken() != JsonToken.START_ARRAY) {
      parser.skipChildren();
      return null;
    }
    boolean renderElements = render || shape.hasOwnConstraints();
    List<Violation> elementErrors = new ArrayList<>(0);
    StringBuilder out = renderElements ? new StringBuilder("[") : null;
    int count = 0;
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      count++;
      if (shape.element.constrained || renderElements) {
        String element =
            value(shape.element, path + "." + count + ".member", renderElements, elementErrors);
        if (renderElements) {
          out.append(count > 1 ? ", " : "").append(element);
        }
      } else {
        parser.skipChildren();
      }
    }
    String shown = renderElements ? out.append(']').toString() : null;
    size = count;
    length(shape, path, shown, count, errors);
    errors.addAll(elementErrors);
    return render ? shown : null;
  }

  /**
   * A map: its own size, then its keys ({@code Map keys must satisfy constraint: [...]}), then
   * its values: a value's own constraints are the map's ({@code Map value must satisfy
   * constraint: [...]} at the map's path), its parts are at {@code path.KEY.member}.
   */
  private String map(Shape shape, String path, boolean render, List<Violation> errors)
      throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return null;
    }
    boolean valueConstrained = shape.value.hasOwnConstraints();
    boolean renderEntries =
        render || shape.min != null || shape.max != null || valueConstrained;
    StringBuilder out = renderEntries ? new StringBuilder("{") : null;
    int badKeys = 0;
    int badValues = 0;
    List<Violation> partErrors = new ArrayList<>(0);
    int count = 0;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      parser.nextToken();
      count++;
      if (breaks(shape.key, key)) {
        badKeys++;
      }
      String entry = null;
      if (shape.value.constrained || renderEntries) {
        List<Violation> found = new ArrayList<>(0);
        String valuePath = path + "." + key + ".member";
        entry = value(shape.value, valuePath, renderEntries, found);
        boolean ownBroken = false;
        for (Violation v : found) {
          if (v.path().equals(valuePath)) {
            ownBroken = true; // reported as the map's, below
          } else {
            partErrors.add(v);
          }
        }
        if (ownBroken) {
          badValues++;
        }
      } else {
        parser.skipChildren();
      }
      if (renderEntries) {
        out.append(count > 1 ? ", " : "").append(key).append('=').append(entry);
      }
    }
    String shown = renderEntries ? out.append('}').toString() : null;
    size = count;
    length(shape, path, shown, count, errors);
    for (int i = 0; i < badKeys; i++) {
      violation(errors, quoted(shown), path,
          "Map keys must satisfy constraint: [" + constraints(shape.key) + "]");
    }
    for (int i = 0; i < badValues; i++) {
      violation(errors, quoted(shown), path,
          "Map value must satisfy constraint: [" + constraints(shape.value) + "]");
    }
    errors.addAll(partErrors);
    return render ? shown : null;
  }

  /** Whether a map key breaks a constraint of its (string) shape. */
  private static boolean breaks(Shape key, String text) {
    return (key.pattern != null && !key.pattern.matcher(text).matches())
        || (key.min != null && text.length() < key.min)
        || (key.max != null && text.length() > key.max);
  }

  /** A map key's or value's constraints as DynamoDB lists them: greatest, least, pattern. */
  private static String constraints(Shape shape) {
    List<String> all = new ArrayList<>();
    String measure = shape.type == Shape.Type.NUMBER ? "value" : "length";
    if (shape.max != null) {
      all.add("Member must have " + measure + " less than or equal to " + shape.max);
    }
    if (shape.min != null) {
      all.add("Member must have " + measure + " greater than or equal to " + shape.min);
    }
    if (shape.pattern != null) {
      all.add("Member must satisfy regular expression pattern: " + shape.patternText);
    }
    if (shape.enumValues != null) {
      all.add("Member must satisfy enum value set: [" + String.join(", ", shape.enumValues) + "]");
    }
    return String.join(", ", all);
  }

  private String string(Shape shape, String path, List<Violation> errors) throws IOException {
    if (parser.currentToken() != JsonToken.VALUE_STRING) {
      parser.skipChildren();
      return parser.currentToken().isScalarValue() ? parser.getText() : null;
    }
    String text = parser.getText();
    String shown = "'" + text + "'";
    if (shape.lengthFirst) {
      length(shape, path, text, text.length(), errors);
    }
    if (shape.pattern != null && !shape.pattern.matcher(text).matches()) {
      violation(errors, shown, path,
          "Member must satisfy regular expression pattern: " + shape.patternText);
    }
    if (!shape.lengthFirst) {
      length(shape, path, text, text.length(), errors);
    }
    if (shape.enumValues != null && !shape.enumValues.contains(text)) {
      violation(errors, shown, path,
          "Member must satisfy enum value set: [" + String.join(", ", shape.enumValues) + "]");
    }
    return text;
  }

  private String number(Shape shape, String path, List<Violation> errors) throws IOException {
    JsonToken token = parser.currentToken();
    if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
      parser.skipChildren();
      return token.isScalarValue() ? parser.getText() : null;
    }
    String text = parser.getText();
    BigDecimal value = parser.getDecimalValue();
    if (shape.min != null && value.compareTo(BigDecimal.valueOf(shape.min)) < 0) {
      violation(errors, "'" + text + "'", path,
          "Member must have value greater than or equal to " + shape.min);
    }
    if (shape.max != null && value.compareTo(BigDecimal.valueOf(shape.max)) > 0) {
      violation(errors, "'" + text + "'", path,
          "Member must have value less than or equal to " + shape.max);
    }
    return text;
  }

  private String other(boolean render) throws IOException {
    boolean scalar = parser.currentToken().isScalarValue();
    String text = render && scalar ? parser.getText() : null;
    parser.skipChildren();
    return text;
  }

  /** Least and greatest length of a string, list or map; {@code shown} null if not shown. */
  private static void length(Shape shape, String path, String shown, int length,
      List<Violation> errors) {
    if (shape.min != null && length < shape.min) {
      violation(errors, quoted(shown), path,
          "Member must have length greater than or equal to " + shape.min);
    }
    if (shape.max != null && length > shape.max) {
      violation(errors, quoted(shown), path,
          "Member must have length less than or equal to " + shape.max);
    }
  }

  private static String quoted(String shown) {
    return shown == null ? null : "'" + shown + "'";
  }

  private static String child(String path, String member) {
    return path.isEmpty() ? member : path + "." + member;
  }

  /** {@code shown} is the value as quoted in the message, "null", or null when not shown. */
  private static void violation(List<Violation> errors, String shown, String path, String rule) {
    errors.add(new Violation(path, "Value " + (shown == null ? "" : shown + " ") + "at '" + path
        + "' failed to satisfy constraint: " + rule));
  }

  /** One broken constraint: where, and DynamoDB's sentence for it. */
  private record Violation(String path, String text) {}
}
