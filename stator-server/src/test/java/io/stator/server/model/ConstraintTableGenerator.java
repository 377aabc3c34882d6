package io.stator.server.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Makes {@code constraints.tsv} (the table {@link ServiceModel} reads) from DynamoDB's and
 * DynamoDB Streams' service models: every shape reachable from an operation's input, with only
 * what validation needs (type, members, required, min, max, pattern, enum). The build never
 * reads the models; {@code ConstraintTableTest} checks that the committed table is what this
 * makes when the models are at hand. Run it by hand with the two model files and the table to
 * write as arguments.
 */
public final class ConstraintTableGenerator {
  private static final String HEADER =
      "# DynamoDB's request constraints, made by ConstraintTableGenerator from the service models;"
          + " do not edit.\n";

  /**
   * Enums whose values DynamoDB lists, in its messages, in an order of its own rather than the
   * model's (recorded against the service). The set is the model's: {@link #line} refuses an
   * order that is not a permutation of it. Every other enum is listed in the model's order,
   * which is DynamoDB's for those recorded ({@code [INDEXES, TOTAL, NONE]}, {@code [PROVISIONED,
   * PAY_PER_REQUEST]}, {@code [HASH, RANGE]}).
   */
  private static final Map<String, List<String>> RECORDED_ENUM_ORDER =
      Map.of(
          "ScalarAttributeType", List.of("B", "N", "S"),
          "ConditionalOperator", List.of("OR", "AND"),
          "ComparisonOperator",
          List.of("IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL", "NE",
              "LE", "BEGINS_WITH", "GE", "CONTAINS"),
          "StreamViewType", List.of("OLD_IMAGE", "KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE"),
          "ContributorInsightsMode", List.of("THROTTLED_KEYS", "ACCESSED_AND_THROTTLED_KEYS"));

  /**
   * Structures whose members DynamoDB reports, when several break a constraint, in an order of
   * its own rather than the model's (recorded against the service: {@code
   * attributeDefinitions.1.member.attributeType} before {@code ...attributeName}, {@code
   * provisionedThroughput.writeCapacityUnits} before {@code ...readCapacityUnits}, {@code
   * timeToLiveSpecification.attributeName} before {@code ...enabled}). Like the enums, an order
   * must name exactly the model's members.
   */
  private static final Map<String, List<String>> RECORDED_MEMBER_ORDER =
      Map.of(
          "AttributeDefinition", List.of("AttributeType", "AttributeName"),
          "ProvisionedThroughput", List.of("WriteCapacityUnits", "ReadCapacityUnits"),
          "TimeToLiveSpecification", List.of("AttributeName", "Enabled"));

  /**
   * Members DynamoDB is recorded to check by rules of its own instead of their model shape's
   * constraints: DescribeTable's name is checked as a table name (an empty one is {@code length
   * greater than or equal to 3} and the pattern, not TableArn's {@code 1}), a Contributor
   * Insights index name with its own sentence ({@code IndexName must be at least 3 characters
   * long and at most 255 characters long}). The engine makes those checks; the table gives these
   * members {@value #UNCHECKED}, a string without constraints.
   */
  private static final Set<String> RECORDED_OWN_RULES =
      Set.of(
          "DescribeTableInput.TableName",
          "UpdateContributorInsightsInput.IndexName",
          "DescribeContributorInsightsInput.IndexName");

  private static final String UNCHECKED = "Unchecked";

  /**
   * Required members that DynamoDB is recorded to refuse, when missing or empty, with a sentence
   * of their own before any other check of the request ({@code The requestItems parameter is
   * required for BatchGetItem}, even beside an invalid ReturnConsumedCapacity), rather than with
   * the model's {@code Member must not be null}: the member, and the operation the sentence
   * names. The table gives their structure {@code requiredSentence=MEMBER:OPERATION}.
   */
  private static final Map<String, String> RECORDED_REQUIRED_SENTENCE =
      Map.of(
          "BatchGetItemInput.RequestItems", "BatchGetItem",
          "BatchWriteItemInput.RequestItems", "BatchWriteItem");

  /**
   * String shapes whose length DynamoDB is recorded to report before their pattern (an empty
   * index name: {@code length greater than or equal to 3}, then the pattern); the others report
   * the pattern first, as recorded for TableName and BackupName.
   */
  private static final Set<String> RECORDED_LENGTH_FIRST = Set.of("IndexName");

  private ConstraintTableGenerator() {}

  public static void main(String[] args) throws IOException {
    Files.writeString(
        Path.of(args[2]), generate(Path.of(args[0]), Path.of(args[1])), StandardCharsets.UTF_8);
  }

  /** The table for the DynamoDB model and the Streams model, as text. */
  public static String generate(Path dynamodb, Path streams) throws IOException {
    StringBuilder out = new StringBuilder(HEADER);
    model(out, dynamodb, "");
    model(out, streams, "Streams.");
    return out.toString();
  }

  @SuppressWarnings("unchecked")
  private static void model(StringBuilder out, Path file, String shapePrefix) throws IOException {
    Map<String, Object> model = (Map<String, Object>) read(file);
    String target = (String) ((Map<String, Object>) model.get("metadata")).get("targetPrefix");
    Map<String, Object> operations = (Map<String, Object>) model.get("operations");
    Map<String, Object> shapes = (Map<String, Object>) model.get("shapes");
    Set<String> reachable = new LinkedHashSet<>();
    for (Map.Entry<String, Object> op : operations.entrySet()) {
      Map<String, Object> input = (Map<String, Object>) ((Map<String, Object>) op.getValue())
          .get("input");
      if (input == null) {
        continue;
      }
      String shape = (String) input.get("shape");
      out.append("operation\t").append(target).append('.').append(op.getKey()).append('\t')
          .append(shapePrefix).append(shape).append('\n');
      reach(shapes, shape, reachable);
    }
    for (String name : reachable) {
      out.append(line(shapePrefix, name, (Map<String, Object>) shapes.get(name))).append('\n');
    }
    if (shapePrefix.isEmpty()) {
      out.append("string\t").append(UNCHECKED).append('\n');
    }
  }

  @SuppressWarnings("unchecked")
  private static void reach(Map<String, Object> shapes, String name, Set<String> reachable) {
    if (!reachable.add(name)) {
      return;
    }
    Map<String, Object> shape = (Map<String, Object>) shapes.get(name);
    for (String ref : references(shape)) {
      reach(shapes, ref, reachable);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> references(Map<String, Object> shape) {
    List<String> refs = new ArrayList<>();
    Map<String, Object> members = (Map<String, Object>) shape.get("members");
    if (members != null) {
      for (Object m : members.values()) {
        refs.add((String) ((Map<String, Object>) m).get("shape"));
      }
    }
    for (String part : List.of("member", "key", "value")) {
      Map<String, Object> ref = (Map<String, Object>) shape.get(part);
      if (ref != null) {
        refs.add((String) ref.get("shape"));
      }
    }
    return refs;
  }

  @SuppressWarnings("unchecked")
  private static String line(String prefix, String name, Map<String, Object> shape) {
    StringBuilder line = new StringBuilder();
    line.append(shape.get("type")).append('\t').append(prefix).append(name);
    Map<String, Object> members = (Map<String, Object>) shape.get("members");
    if (members != null && !members.isEmpty()) {
      List<String> order = new ArrayList<>(members.keySet());
      List<String> recorded = RECORDED_MEMBER_ORDER.get(name);
      if (recorded != null && prefix.isEmpty()) {
        order = recorded(name, recorded, order);
      }
      List<String> pairs = new ArrayList<>();
      for (String member : order) {
        Map<String, Object> ref = (Map<String, Object>) members.get(member);
        boolean ownRules = prefix.isEmpty() && RECORDED_OWN_RULES.contains(name + "." + member);
        pairs.add(member + ":" + (ownRules ? UNCHECKED : prefix + ref.get("shape")));
      }
      line.append("\tmembers=").append(String.join(",", pairs));
    }
    List<String> required = (List<String>) shape.get("required");
    if (required != null && !required.isEmpty()) {
      line.append("\trequired=").append(String.join(",", required));
      for (String member : required) {
        String operation = RECORDED_REQUIRED_SENTENCE.get(name + "." + member);
        if (operation != null && prefix.isEmpty()) {
          line.append("\trequiredSentence=").append(member).append(':').append(operation);
        }
      }
    }
    for (String part : List.of("member", "key", "value")) {
      Map<String, Object> ref = (Map<String, Object>) shape.get(part);
      if (ref != null) {
        line.append('\t').append(part).append('=').append(prefix).append(ref.get("shape"));
      }
    }
    for (String bound : List.of("min", "max")) {
      Object value = shape.get(bound);
      if (value != null) {
        line.append('\t').append(bound).append('=').append(value);
      }
    }
    List<String> values = (List<String>) shape.get("enum");
    if (values != null) {
      List<String> recorded = RECORDED_ENUM_ORDER.get(name);
      if (recorded != null && prefix.isEmpty()) {
        values = recorded(name, recorded, values);
      }
      line.append("\tenum=").append(String.join(",", values));
    }
    if (prefix.isEmpty() && RECORDED_LENGTH_FIRST.contains(name)) {
      line.append("\tlengthFirst=true");
    }
    Object pattern = shape.get("pattern");
    if (pattern != null) {
      line.append("\tpattern=").append(pattern);
    }
    return line.toString();
  }

  /** DynamoDB's recorded order of {@code model}, which must hold the same names. */
  private static List<String> recorded(String shape, List<String> recorded, List<String> model) {
    if (!Set.copyOf(recorded).equals(Set.copyOf(model))) {
      throw new IllegalStateException("the model's " + shape + " is now " + model);
    }
    return recorded;
  }

  /** The model as maps (in the file's order), lists, strings and numbers. */
  private static Object read(Path file) throws IOException {
    try (JsonParser parser = new JsonFactory().createParser(file.toFile())) {
      parser.nextToken();
      return value(parser);
    }
  }

  private static Object value(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          map.put(name, value(parser));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          list.add(value(parser));
        }
        return list;
      }
      case VALUE_NUMBER_INT -> {
        return parser.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return parser.getDecimalValue();
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return token == JsonToken.VALUE_TRUE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> {
        return parser.getText();
      }
    }
  }
}
