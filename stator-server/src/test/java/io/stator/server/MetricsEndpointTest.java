package io.stator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.capacity.CapacitySettings;
import io.stator.engine.EngineOptions;
import io.stator.storage.memory.MemoryStorage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * {@code GET /stator/metrics} after SDK calls: every line is Prometheus's text format (checked
 * line by line against its grammar), and the samples count what the calls did.
 */
class MetricsEndpointTest {
  private static final Pattern SAMPLE = Pattern.compile(
      "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\.)*\",?)*\\})?"
          + " ([-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|NaN|Inf))( -?[0-9]+)?");
  private static final Pattern COMMENT =
      Pattern.compile("# (HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*|TYPE [a-zA-Z_:][a-zA-Z0-9_:]*"
          + " (counter|gauge|histogram|summary|untyped))");

  private StatorServer server;
  private DynamoDbClient dynamo;

  @BeforeEach
  void start() {
    server = StatorServer.start("127.0.0.1", 0, Stator.inMemory());
    dynamo = SdkProtocolTest.client(server);
  }

  @AfterEach
  void stop() {
    dynamo.close();
    server.close();
  }

  /** The samples of a scrape, by name and labels as written; fails on a malformed line. */
  private Map<String, Double> scrape() throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
            + "/stator/metrics")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("text/plain; version=0.0.4");
    Map<String, Double> samples = new LinkedHashMap<>();
    for (String line : response.body().split("\n")) {
      if (line.startsWith("#")) {
        assertThat(COMMENT.matcher(line).matches()).as(line).isTrue();
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      assertThat(m.matches()).as(line).isTrue();
      samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)),
          Double.parseDouble(m.group(3).replace("Inf", "Infinity")));
    }
    return samples;
  }

  @Test
  void requestsOutcomesLatencyAndTablesAreCounted() throws Exception {
    dynamo.createTable(b -> b.tableName("Orders")
        .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .billingMode(BillingMode.PAY_PER_REQUEST));
    for (String id : new String[] {"a", "b"}) {
      dynamo.putItem(b -> b.tableName("Orders").item(Map.of("id", AttributeValue.fromS(id))));
    }
    assertThatThrownBy(() -> dynamo.getItem(b -> b.tableName("Nope")
        .key(Map.of("id", AttributeValue.fromS("a")))))
        .isInstanceOf(ResourceNotFoundException.class);

    Map<String, Double> samples = scrape();
    assertThat(samples)
        .containsEntry("stator_requests_total{operation=\"PutItem\",outcome=\"success\"}", 2.0)
        .containsEntry("stator_requests_total{operation=\"CreateTable\",outcome=\"success\"}",
            1.0)
        .containsEntry("stator_requests_total{operation=\"GetItem\","
            + "outcome=\"ResourceNotFoundException\"}", 1.0)
        .containsEntry("stator_request_duration_seconds_count{operation=\"PutItem\"}", 2.0)
        .containsEntry("stator_table_items{table=\"Orders\"}", 2.0)
        .doesNotContainKey("stator_throttled_requests_total{operation=\"GetItem\"}");
    assertThat(samples.get("stator_request_duration_seconds_bucket{operation=\"PutItem\","
        + "le=\"+Inf\"}")).isEqualTo(2.0);
    assertThat(samples.get("stator_table_size_bytes{table=\"Orders\"}")).isPositive();
    assertThat(samples.get("stator_connections_open")).isGreaterThanOrEqualTo(1.0);
    // The classes loaded at start leave no series behind
    assertThat(samples.keySet()).noneMatch(name -> name.contains("\"Unknown\""));
  }

  @Test
  void consumedCapacityBackfillsAndThePropagationBacklogAreReported() throws Exception {
    // A GSI lag of an hour keeps every change waiting in the change log.
    server.close();
    server = StatorServer.start("127.0.0.1", 0, Stator.open(new MemoryStorage(),
        new EngineOptions("us-east-1", EngineOptions.DEFAULT_ACCOUNT_ID, Clock.systemUTC(),
            EngineOptions.DEFAULT_TTL_SWEEP_INTERVAL, CapacitySettings.defaults(),
            Duration.ofHours(1))));
    dynamo.close();
    dynamo = SdkProtocolTest.client(server);
    dynamo.createTable(b -> b.tableName("Orders")
        .attributeDefinitions(
            a -> a.attributeName("id").attributeType(ScalarAttributeType.S),
            a -> a.attributeName("status").attributeType(ScalarAttributeType.S))
        .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
        .globalSecondaryIndexes(g -> g.indexName("byStatus")
            .keySchema(k -> k.attributeName("status").keyType(KeyType.HASH))
            .projection(p -> p.projectionType(ProjectionType.ALL)))
        .billingMode(BillingMode.PAY_PER_REQUEST));
    for (String id : new String[] {"a", "b", "c"}) {
      dynamo.putItem(b -> b.tableName("Orders").item(Map.of(
          "id", AttributeValue.fromS(id), "status", AttributeValue.fromS("new"))));
    }
    dynamo.getItem(b -> b.tableName("Orders").key(Map.of("id", AttributeValue.fromS("a")))
        .consistentRead(true));
    dynamo.getItem(b -> b.tableName("Orders").key(Map.of("id", AttributeValue.fromS("b"))));

    Map<String, Double> samples = scrape();
    // Three puts of a small item: a WCU each on the table and on the GSI; a strongly
    // consistent read of a small item is one RCU, an eventually consistent one half.
    assertThat(samples)
        .containsEntry("stator_consumed_write_capacity_units_total{index=\"\",table=\"Orders\"}",
            3.0)
        .containsEntry(
            "stator_consumed_write_capacity_units_total{index=\"byStatus\",table=\"Orders\"}",
            3.0)
        .containsEntry("stator_consumed_read_capacity_units_total{index=\"\",table=\"Orders\"}",
            1.5)
        .containsEntry("stator_gsi_backfilling{index=\"byStatus\",table=\"Orders\"}", 0.0)
        .containsEntry("stator_gsi_propagation_backlog{table=\"Orders\"}", 3.0);

    dynamo.deleteTable(b -> b.tableName("Orders"));
    assertThat(scrape().keySet()).noneMatch(name -> name.contains("\"Orders\""));
  }
}
