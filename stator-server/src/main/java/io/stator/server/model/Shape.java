package io.stator.server.model;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One shape of DynamoDB's service model, as much of it as validation needs: its type, its
 * members (structures), element, key and value shapes (lists and maps), and its constraints.
 * Shapes refer to each other, recursively for AttributeValue, so the references are set once
 * every shape of the table is read ({@link ServiceModel}).
 */
final class Shape {
  enum Type {
    STRUCTURE,
    LIST,
    MAP,
    STRING,
    NUMBER,
    OTHER
  }

  /**
   * A member of a structure: its name in the request and, lower-camel-cased, in messages;
   * {@code requiredFor} names the operation of DynamoDB's own sentence for it when missing or
   * empty ({@code The requestItems parameter is required for BatchGetItem}), else null.
   */
  record Member(String name, String path, Shape shape, boolean required, String requiredFor) {}

  final String name;
  final Type type;
  final Long min;
  final Long max;
  final String patternText;
  final Pattern pattern;
  final List<String> enumValues;

  /** Whether DynamoDB reports this string's length before its pattern (see the generator). */
  boolean lengthFirst;
  List<Member> members = List.of();
  Map<String, Integer> memberIndex = Map.of();
  Shape element;
  Shape key;
  Shape value;

  /** Whether a request's value of this shape can break a constraint, so it must be walked. */
  boolean constrained;

  Shape(String name, Type type, Long min, Long max, String pattern, List<String> enumValues) {
    this.name = name;
    this.type = type;
    this.min = min;
    this.max = max;
    this.patternText = pattern;
    this.pattern = pattern == null ? null : Pattern.compile(pattern);
    this.enumValues = enumValues;
  }

  /** Whether this shape itself (not its parts) constrains a value. */
  boolean hasOwnConstraints() {
    return min != null || max != null || pattern != null || enumValues != null;
  }

  /** The shape's name without the model it came from (Streams shapes carry a prefix). */
  String simpleName() {
    int dot = name.indexOf('.');
    return dot < 0 ? name : name.substring(dot + 1);
  }

  boolean isAttributeValue() {
    return type == Type.STRUCTURE && simpleName().equals("AttributeValue");
  }
}
