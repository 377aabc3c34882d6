package io.stator.server.model;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The request shapes of DynamoDB's and DynamoDB Streams' service models, read once from {@code
 * constraints.tsv} (made from the models by ConstraintTableGenerator, in the tests): one line
 * per operation ({@code operation TARGET INPUT}) and one per shape ({@code TYPE NAME} then
 * {@code key=value} fields, tab-separated).
 */
final class ServiceModel {
  private static final String TABLE = "constraints.tsv";

  private static final ServiceModel INSTANCE = load();

  private final Map<String, Shape> inputs;

  private ServiceModel(Map<String, Shape> inputs) {
    this.inputs = inputs;
  }

  static ServiceModel get() {
    return INSTANCE;
  }

  /** The input shape of the operation of this {@code X-Amz-Target}, or null. */
  Shape input(String target) {
    return inputs.get(target);
  }

  private static ServiceModel load() {
    try (InputStream in = ServiceModel.class.getResourceAsStream(TABLE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + TABLE);
      }
      BufferedReader reader =
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      List<String[]> lines = new ArrayList<>();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (!line.isEmpty() && !line.startsWith("#")) {
          lines.add(line.split("\t"));
        }
      }
      return parse(lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ServiceModel parse(List<String[]> lines) {
    Map<String, Shape> shapes = new HashMap<>();
    Map<String, Map<String, String>> fieldsOf = new HashMap<>();
    for (String[] line : lines) {
      if (line[0].equals("operation")) {
        continue;
      }
      Map<String, String> fields = fields(line);
      fieldsOf.put(line[1], fields);
      String values = fields.get("enum");
      shapes.put(
          line[1],
          new Shape(
              line[1],
              type(line[0]),
              number(fields.get("min")),
              number(fields.get("max")),
              fields.get("pattern"),
              values == null ? null : List.of(values.split(","))));
    }
    for (Shape shape : shapes.values()) {
      Map<String, String> fields = fieldsOf.get(shape.name);
      shape.lengthFirst = "true".equals(fields.get("lengthFirst"));
      shape.element = shapes.get(fields.get("member"));
      shape.key = shapes.get(fields.get("key"));
      shape.value = shapes.get(fields.get("value"));
      String members = fields.get("members");
      if (members != null) {
        Set<String> required = new HashSet<>();
        if (fields.get("required") != null) {
          required.addAll(Arrays.asList(fields.get("required").split(",")));
        }
        Map<String, String> sentences = new HashMap<>();
        if (fields.get("requiredSentence") != null) {
          for (String pair : fields.get("requiredSentence").split(",")) {
            int colon = pair.indexOf(':');
            sentences.put(pair.substring(0, colon), pair.substring(colon + 1));
          }
        }
        List<Shape.Member> list = new ArrayList<>();
        for (String pair : members.split(",")) {
          int colon = pair.indexOf(':');
          String name = pair.substring(0, colon);
          list.add(
              new Shape.Member(
                  name,
                  Character.toLowerCase(name.charAt(0)) + name.substring(1),
                  shapes.get(pair.substring(colon + 1)),
                  required.contains(name),
                  sentences.get(name)));
        }
        shape.members = List.copyOf(list);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
          index.put(list.get(i).name(), i);
        }
        shape.memberIndex = Map.copyOf(index);
      }
    }
    markConstrained(shapes.values());
    Map<String, Shape> inputs = new HashMap<>();
    for (String[] line : lines) {
      if (line[0].equals("operation")) {
        inputs.put(line[1], shapes.get(line[2]));
      }
    }
    return new ServiceModel(Map.copyOf(inputs));
  }

  /** Repeats until nothing changes, since shapes refer to each other in cycles. */
  private static void markConstrained(Iterable<Shape> shapes) {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Shape s : shapes) {
        if (!s.constrained && (s.hasOwnConstraints() || partConstrained(s))) {
          s.constrained = true;
          changed = true;
        }
      }
    }
  }

  private static boolean partConstrained(Shape s) {
    for (Shape.Member m : s.members) {
      if (m.required() || m.shape().constrained) {
        return true;
      }
    }
    return constrained(s.element) || constrained(s.key) || constrained(s.value);
  }

  private static boolean constrained(Shape s) {
    return s != null && s.constrained;
  }

  private static Map<String, String> fields(String[] line) {
    Map<String, String> fields = new HashMap<>();
    for (int i = 2; i < line.length; i++) {
      int eq = line[i].indexOf('=');
      fields.put(line[i].substring(0, eq), line[i].substring(eq + 1));
    }
    return fields;
  }

  private static Shape.Type type(String type) {
    return switch (type) {
      case "structure" -> Shape.Type.STRUCTURE;
      case "list" -> Shape.Type.LIST;
      case "map" -> Shape.Type.MAP;
      case "string" -> Shape.Type.STRING;
      case "integer", "long", "double" -> Shape.Type.NUMBER;
      default -> Shape.Type.OTHER;
    };
  }

  private static Long number(String text) {
    return text == null ? null : Long.valueOf(text);
  }
}
