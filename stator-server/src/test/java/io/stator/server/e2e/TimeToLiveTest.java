package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;

/**
 * Time to Live through the AWS SDK: UpdateTimeToLive and DescribeTimeToLive with DynamoDB's
 * errors, and the sweeper, forced through Stator's {@code POST /stator/ttl/sweep} and running on
 * its own (the server of these tests sweeps every second, the default).
 *
 * <p>Against an external endpoint the sweeping tests are skipped: no other implementation has
 * the forcing endpoint, and DynamoDB itself takes up to days to delete an expired item.
 */
class TimeToLiveTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  @Test
  void describeTimeToLiveFollowsUpdates() {
    String table = createTable("ttl-describe", "id", S);
    TimeToLiveDescription initial = describe(table);
    assertThat(initial.timeToLiveStatus()).isEqualTo(TimeToLiveStatus.DISABLED);
    assertThat(initial.attributeName()).isNull();

    UpdateTimeToLiveResponse updated = update(table, true, "expiresAt");
    assertThat(updated.timeToLiveSpecification())
        .isEqualTo(TimeToLiveSpecification.builder().enabled(true).attributeName("expiresAt")
            .build());
    TimeToLiveDescription enabled = describe(table);
    assertThat(enabled.timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
    assertThat(enabled.attributeName()).isEqualTo("expiresAt");
  }

  @Test
  void updateErrors() {
    String table = createTable("ttl-errors", "id", S);
    assertValidation("TimeToLive is already disabled", () -> update(table, false, "expiresAt"));
    update(table, true, "expiresAt");
    assertValidation("TimeToLive is already enabled", () -> update(table, true, "expiresAt"));
    assertValidation(
        "TimeToLive is active on a different AttributeName: current AttributeName is expiresAt",
        () -> update(table, true, "other"));
    assertValidation(
        "Time to live has been modified multiple times within a fixed interval",
        () -> update(table, false, "expiresAt"));
    assertThat(describe(table).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
  }

  @Test
  void requestConstraints() {
    String table = createTable("ttl-constraints", "id", S);
    assertValidation(
        "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed"
            + " to satisfy constraint: Member must have length greater than or equal to 1",
        () -> update(table, true, ""));
    String tooLong = repeat("a", 256);
    assertValidation(
        "1 validation error detected: Value '" + tooLong + "' at"
            + " 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must"
            + " have length less than or equal to 255",
        () -> update(table, true, tooLong));
    assertValidation(
        "1 validation error detected: Value null at 'timeToLiveSpecification.enabled' failed to"
            + " satisfy constraint: Member must not be null",
        () -> dynamo.updateTimeToLive(r -> r.tableName(table)
            .timeToLiveSpecification(s -> s.attributeName("expiresAt"))));
    assertValidation(
        "1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy"
            + " constraint: Member must not be null",
        () -> dynamo.updateTimeToLive(r -> r.tableName(table)));
    String missing = uniqueTableName("ttl-missing");
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + missing + " not found",
        () -> describe(missing));
    assertError(ResourceNotFoundException.class, "ResourceNotFoundException",
        "Requested resource not found: Table: " + missing + " not found",
        () -> update(missing, true, "expiresAt"));
  }

  @Test
  void aForcedSweepDeletesExactlyTheExpiredItems() throws Exception {
    assumeThat(endpoint.target()).isNotEqualTo(Target.EXTERNAL);
    String table = createTable("ttl-sweep", "id", S);
    update(table, true, "expiresAt");
    long now = Instant.now().getEpochSecond();
    put(table, "expired", n(Long.toString(now - 60)));
    put(table, "longExpired", n(Long.toString(now - 3L * 365 * 86400)));
    put(table, "future", n(Long.toString(now + 3600)));
    put(table, "sixYearsAgo", n(Long.toString(now - 6L * 365 * 86400)));
    put(table, "aString", s(Long.toString(now - 60)));
    put(table, "aBoolean", AttributeValue.fromBool(true));
    put(table, "noAttribute", null);
    // a table without TTL keeps everything
    String plain = createTable("ttl-plain", "id", S);
    put(plain, "expired", n(Long.toString(now - 60)));

    HttpResponse<String> swept = forceSweep();
    assertThat(swept.statusCode()).isEqualTo(200);
    assertThat(swept.body()).matches("\\{\"DeletedItems\":\\d+}");

    assertThat(ids(table))
        .containsExactlyInAnyOrder("future", "sixYearsAgo", "aString", "aBoolean", "noAttribute");
    assertThat(ids(plain)).containsExactly("expired");
    assertThat(forceSweep().body()).isEqualTo("{\"DeletedItems\":0}");
  }

  @Test
  void theBackgroundSweeperDeletesWithoutBeingAsked() throws Exception {
    assumeThat(endpoint.target()).isNotEqualTo(Target.EXTERNAL);
    String table = createTable("ttl-background", "id", S);
    update(table, true, "expiresAt");
    long now = Instant.now().getEpochSecond();
    put(table, "expired", n(Long.toString(now - 60)));
    put(table, "soon", n(Long.toString(now + 2)));
    put(table, "later", n(Long.toString(now + 3600)));
    // A background sweep on a busy machine: a generous deadline, met in seconds when all is well.
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (ids(table).size() > 1 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(ids(table)).containsExactly("later");
  }

  // ---- helpers -------------------------------------------------------------------------------

  private UpdateTimeToLiveResponse update(String table, boolean enabled, String attribute) {
    return dynamo.updateTimeToLive(r -> r.tableName(table)
        .timeToLiveSpecification(s -> s.enabled(enabled).attributeName(attribute)));
  }

  private TimeToLiveDescription describe(String table) {
    return dynamo.describeTimeToLive(r -> r.tableName(table)).timeToLiveDescription();
  }

  private void put(String table, String id, AttributeValue expiresAt) {
    Map<String, AttributeValue> item =
        expiresAt == null ? item("id", s(id)) : item("id", s(id), "expiresAt", expiresAt);
    dynamo.putItem(r -> r.tableName(table).item(item));
  }

  private List<String> ids(String table) {
    return dynamo.scan(r -> r.tableName(table).consistentRead(true)).items().stream()
        .map(i -> i.get("id").s())
        .toList();
  }

  private HttpResponse<String> forceSweep() throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(endpoint.uri() + "/stator/ttl/sweep"))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }
}
