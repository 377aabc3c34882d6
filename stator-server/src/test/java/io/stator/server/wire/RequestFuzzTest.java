package io.stator.server.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.stator.Stator;
import io.stator.api.Database;
import io.stator.api.DynamoDbException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Requests of every kind, mutated as JSON (a value replaced by one of another shape, a member
 * dropped or added), run through the wire protocol against a real engine: each answers or
 * fails with a client error (HTTP 4xx); never an InternalServerError, another exception, or a
 * hang. The build runs the default tries; a long run:
 * {@code -Djqwik.tries.default=1000000 -Dtest=RequestFuzzTest}.
 */
class RequestFuzzTest {
  private static final JsonFactory JSON = new JsonFactory();
  private static final String KEY = "{\"pk\": {\"S\": \"a\"}, \"sk\": {\"N\": \"1\"}}";

  /** A valid request of each operation, on table Fuzz (pk S, sk N, GSI ByG on g, a stream). */
  private static final Map<String, List<String>> SEEDS = Map.ofEntries(
      Map.entry("PutItem", List.of("{\"TableName\": \"Fuzz\", \"Item\": {\"pk\": {\"S\": \"a\"},"
          + " \"sk\": {\"N\": \"1\"}, \"g\": {\"S\": \"x\"}, \"l\": {\"L\": [{\"N\": \"2\"},"
          + " {\"M\": {\"m\": {\"SS\": [\"a\", \"b\"]}}}]}, \"b\": {\"B\": \"AAEC\"}},"
          + " \"ConditionExpression\": \"attribute_not_exists(#p) OR size(l) < :n\","
          + " \"ExpressionAttributeNames\": {\"#p\": \"pk\"},"
          + " \"ExpressionAttributeValues\": {\":n\": {\"N\": \"5\"}},"
          + " \"ReturnValues\": \"ALL_OLD\", \"ReturnConsumedCapacity\": \"INDEXES\"}")),
      Map.entry("UpdateItem", List.of("{\"TableName\": \"Fuzz\", \"Key\": " + KEY + ","
          + " \"UpdateExpression\": \"SET l[0] = :n, c = if_not_exists(c, :z) + :n"
          + " REMOVE g ADD s :s DELETE t :s\", \"ExpressionAttributeValues\": {\":n\":"
          + " {\"N\": \"1\"}, \":z\": {\"N\": \"0\"}, \":s\": {\"SS\": [\"q\"]}},"
          + " \"ReturnValues\": \"UPDATED_NEW\"}",
          "{\"TableName\": \"Fuzz\", \"Key\": " + KEY + ", \"AttributeUpdates\": {\"c\":"
          + " {\"Action\": \"ADD\", \"Value\": {\"N\": \"1\"}}}, \"Expected\": {\"g\":"
          + " {\"ComparisonOperator\": \"NULL\"}}}")),
      Map.entry("GetItem", List.of("{\"TableName\": \"Fuzz\", \"Key\": " + KEY + ","
          + " \"ProjectionExpression\": \"l[1].m, #g\", \"ExpressionAttributeNames\":"
          + " {\"#g\": \"g\"}, \"ConsistentRead\": true}")),
      Map.entry("DeleteItem", List.of("{\"TableName\": \"Fuzz\", \"Key\": " + KEY + ","
          + " \"ConditionExpression\": \"begins_with(g, :p)\", \"ExpressionAttributeValues\":"
          + " {\":p\": {\"S\": \"x\"}}, \"ReturnValuesOnConditionCheckFailure\": \"ALL_OLD\"}")),
      Map.entry("Query", List.of("{\"TableName\": \"Fuzz\", \"KeyConditionExpression\":"
          + " \"pk = :a AND sk BETWEEN :l AND :h\", \"FilterExpression\": \"contains(g, :x)\","
          + " \"ExpressionAttributeValues\": {\":a\": {\"S\": \"a\"}, \":l\": {\"N\": \"0\"},"
          + " \":h\": {\"N\": \"9\"}, \":x\": {\"S\": \"x\"}}, \"Limit\": 2,"
          + " \"ScanIndexForward\": false, \"ExclusiveStartKey\": " + KEY + ","
          + " \"Select\": \"ALL_ATTRIBUTES\"}",
          "{\"TableName\": \"Fuzz\", \"IndexName\": \"ByG\", \"KeyConditions\": {\"g\":"
          + " {\"ComparisonOperator\": \"EQ\", \"AttributeValueList\": [{\"S\": \"x\"}]}}}")),
      Map.entry("Scan", List.of("{\"TableName\": \"Fuzz\", \"Segment\": 1, \"TotalSegments\": 4,"
          + " \"ScanFilter\": {\"g\": {\"ComparisonOperator\": \"BEGINS_WITH\","
          + " \"AttributeValueList\": [{\"S\": \"x\"}]}}, \"Select\": \"COUNT\"}")),
      Map.entry("BatchWriteItem", List.of("{\"RequestItems\": {\"Fuzz\": [{\"PutRequest\":"
          + " {\"Item\": " + KEY + "}}, {\"DeleteRequest\": {\"Key\": {\"pk\": {\"S\": \"b\"},"
          + " \"sk\": {\"N\": \"2\"}}}}]}, \"ReturnItemCollectionMetrics\": \"SIZE\"}")),
      Map.entry("BatchGetItem", List.of("{\"RequestItems\": {\"Fuzz\": {\"Keys\": [" + KEY + "],"
          + " \"ProjectionExpression\": \"pk, l\"}}}")),
      Map.entry("TransactWriteItems", List.of("{\"TransactItems\": [{\"Put\": {\"TableName\":"
          + " \"Fuzz\", \"Item\": {\"pk\": {\"S\": \"c\"}, \"sk\": {\"N\": \"3\"}}}},"
          + " {\"Update\": {\"TableName\": \"Fuzz\", \"Key\": " + KEY + ", \"UpdateExpression\":"
          + " \"SET g = :g\", \"ExpressionAttributeValues\": {\":g\": {\"S\": \"y\"}}}},"
          + " {\"ConditionCheck\": {\"TableName\": \"Fuzz\", \"Key\": {\"pk\": {\"S\": \"b\"},"
          + " \"sk\": {\"N\": \"2\"}}, \"ConditionExpression\": \"attribute_not_exists(pk)\"}}],"
          + " \"ClientRequestToken\": \"token\"}")),
      Map.entry("TransactGetItems", List.of("{\"TransactItems\": [{\"Get\": {\"TableName\":"
          + " \"Fuzz\", \"Key\": " + KEY + "}}]}")),
      Map.entry("ExecuteStatement", List.of("{\"Statement\": \"SELECT pk, l[0] FROM \\\"Fuzz\\\""
          + " WHERE pk = ? AND sk > 0 ORDER BY sk DESC\", \"Parameters\": [{\"S\": \"a\"}],"
          + " \"Limit\": 3}",
          "{\"Statement\": \"UPDATE \\\"Fuzz\\\" SET g = 'z' REMOVE l WHERE pk = 'a' AND sk = 1"
          + " RETURNING ALL NEW *\"}")),
      Map.entry("CreateTable", List.of("{\"TableName\": \"New\", \"AttributeDefinitions\":"
          + " [{\"AttributeName\": \"k\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"i\","
          + " \"AttributeType\": \"N\"}], \"KeySchema\": [{\"AttributeName\": \"k\", \"KeyType\":"
          + " \"HASH\"}], \"GlobalSecondaryIndexes\": [{\"IndexName\": \"ByI\", \"KeySchema\":"
          + " [{\"AttributeName\": \"i\", \"KeyType\": \"HASH\"}], \"Projection\":"
          + " {\"ProjectionType\": \"INCLUDE\", \"NonKeyAttributes\": [\"a\"]}}],"
          + " \"BillingMode\": \"PAY_PER_REQUEST\", \"StreamSpecification\": {\"StreamEnabled\":"
          + " true, \"StreamViewType\": \"NEW_IMAGE\"}}")),
      Map.entry("UpdateTable", List.of("{\"TableName\": \"Fuzz\", \"AttributeDefinitions\":"
          + " [{\"AttributeName\": \"h\", \"AttributeType\": \"N\"}],"
          + " \"GlobalSecondaryIndexUpdates\": [{\"Create\": {\"IndexName\": \"ByH\", \"KeySchema\":"
          + " [{\"AttributeName\": \"h\", \"KeyType\": \"HASH\"}], \"Projection\":"
          + " {\"ProjectionType\": \"KEYS_ONLY\"}}}]}")));

  /** What replaces a value: of every JSON shape, and the strings DynamoDB's members hold. */
  private static final List<String> VALUES = List.of(
      "null", "true", "0", "-1", "1e400", "99999999999999999999", "0.5", "\"\"", "\"Fuzz\"",
      "\"S\"", "\"N\"", "\"HASH\"", "\"ALL_OLD\"", "\"#p\"", "\":n\"", "\"a = :n\"",
      "\"x\\u0000\"", "\"\\ud83d\"", "[]", "{}", "[{}]", "{\"S\": \"\"}", "{\"N\": \"x\"}",
      "{\"SS\": []}", "{\"L\": [null]}", "{\"M\": {\"a\": {}}}", "{\"B\": \"!!\"}",
      "{\"S\": \"a\", \"N\": \"1\"}", "[\"a\", \"a\"]", "{\"\": {\"S\": \"a\"}}");
  private static final List<String> NAMES = List.of(
      "TableName", "Key", "Item", "IndexName", "Limit", "Select", "ExclusiveStartKey", "", "x");

  private static Database database;

  @BeforeContainer
  static void createTable() throws IOException {
    database = Stator.inMemory();
    invoke("CreateTable", "{\"TableName\": \"Fuzz\", \"AttributeDefinitions\": [{\"AttributeName\":"
        + " \"pk\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"sk\", \"AttributeType\":"
        + " \"N\"}, {\"AttributeName\": \"g\", \"AttributeType\": \"S\"}], \"KeySchema\":"
        + " [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"sk\","
        + " \"KeyType\": \"RANGE\"}], \"GlobalSecondaryIndexes\": [{\"IndexName\": \"ByG\","
        + " \"KeySchema\": [{\"AttributeName\": \"g\", \"KeyType\": \"HASH\"}], \"Projection\":"
        + " {\"ProjectionType\": \"ALL\"}}], \"BillingMode\": \"PAY_PER_REQUEST\","
        + " \"StreamSpecification\": {\"StreamEnabled\": true, \"StreamViewType\":"
        + " \"NEW_AND_OLD_IMAGES\"}}");
  }

  @AfterContainer
  static void close() {
    database.close();
  }

  @Provide
  Arbitrary<String> operations() {
    return Arbitraries.of(List.copyOf(SEEDS.keySet()));
  }

  @Property
  void aMutatedRequestAnswersOrFailsAsTheClientsMistake(
      @ForAll("operations") String operation, @ForAll long seed) throws IOException {
    Random random = new Random(seed);
    List<String> seeds = SEEDS.get(operation);
    String body = mutate(seeds.get(random.nextInt(seeds.size())), random);
    try {
      invoke(operation, body);
      Statistics.collect("answered");
    } catch (DynamoDbException e) {
      Statistics.collect(e.type().name());
      assertThat(e.type().httpStatus()).as("%s %s: %s", operation, body, e.getMessage())
          .isEqualTo(400);
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError(operation + " " + body + " threw " + e, e);
    }
  }

  private static void invoke(String operation, String body) throws IOException {
    WireProtocol.invoke(database, operation,
        new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)),
        OutputStream.nullOutputStream());
  }

  /** The seed with some of its values replaced and members dropped or added. */
  static String mutate(String seed, Random random) throws IOException {
    double rate = 0.005 + random.nextDouble() * 0.08;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonParser in = JSON.createParser(seed); JsonGenerator gen = JSON.createGenerator(out)) {
      in.nextToken();
      copy(in, gen, random, rate);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Copies the value at the parser's token, changing it at {@code rate}. */
  private static void copy(JsonParser in, JsonGenerator gen, Random random, double rate)
      throws IOException {
    if (random.nextDouble() < rate) {
      in.skipChildren();
      gen.writeRawValue(VALUES.get(random.nextInt(VALUES.size())));
      return;
    }
    JsonToken token = in.currentToken();
    if (token == JsonToken.START_OBJECT) {
      gen.writeStartObject();
      while (in.nextToken() != JsonToken.END_OBJECT) {
        String name = in.currentName();
        in.nextToken();
        if (random.nextDouble() < rate / 2) {
          in.skipChildren(); // the member dropped
          continue;
        }
        gen.writeFieldName(name);
        copy(in, gen, random, rate);
      }
      if (random.nextDouble() < rate / 2) {
        gen.writeFieldName(NAMES.get(random.nextInt(NAMES.size())));
        gen.writeRawValue(VALUES.get(random.nextInt(VALUES.size())));
      }
      gen.writeEndObject();
    } else if (token == JsonToken.START_ARRAY) {
      gen.writeStartArray();
      while (in.nextToken() != JsonToken.END_ARRAY) {
        copy(in, gen, random, rate);
      }
      gen.writeEndArray();
    } else {
      gen.copyCurrentEvent(in);
    }
  }
}
