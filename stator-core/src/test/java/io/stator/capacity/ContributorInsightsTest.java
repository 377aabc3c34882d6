package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.EngineOptions;
import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.ContributorInsightsSummary;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeContributorInsightsResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListContributorInsightsRequest;
import io.stator.api.ListContributorInsightsResponse;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateContributorInsightsResponse;
import io.stator.schema.ContributorInsights;
import io.stator.storage.memory.MemoryStorage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** UpdateContributorInsights, DescribeContributorInsights, ListContributorInsights. */
class ContributorInsightsTest {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

  private final ManualClock clock = new ManualClock(T0);
  private final MemoryStorage storage = new MemoryStorage();
  private Database db;

  @BeforeEach
  void open() {
    db = Stator.open(storage, EngineOptions.defaults().withClock(clock)
        .withTimeToLiveSweepInterval(Duration.ZERO));
    create("Music", true);
    create("Sessions", false);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void create(String name, boolean sortKey) {
    db.createTable(new CreateTableRequest(name,
        sortKey
            ? List.of(new AttributeDefinition("pk", "S"), new AttributeDefinition("sk", "S"))
            : List.of(new AttributeDefinition("pk", "S")),
        sortKey
            ? List.of(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("sk", "RANGE"))
            : List.of(new KeySchemaElement("pk", "HASH")),
        null, null, "PAY_PER_REQUEST", null, null, null, null, null));
  }

  private UpdateContributorInsightsResponse update(String table, String action, String mode) {
    return db.updateContributorInsights(
        new UpdateContributorInsightsRequest(table, null, action, mode));
  }

  private DescribeContributorInsightsResponse describe(String table) {
    return db.describeContributorInsights(new DescribeContributorInsightsRequest(table, null));
  }

  @Test
  void neverEnabledIsDisabledWithoutRulesOrTime() {
    assertThat(describe("Music")).isEqualTo(new DescribeContributorInsightsResponse(
        "Music", null, null, "DISABLED", null, null, null));
  }

  @Test
  void enableNamesDynamoDbsRulesAndDisableRemovesThem() {
    clock.advanceSeconds(10);
    Instant enabledAt = clock.instant();
    assertThat(update("Music", "ENABLE", null)).isEqualTo(new UpdateContributorInsightsResponse(
        "Music", null, "ENABLING", "ACCESSED_AND_THROTTLED_KEYS"));
    long millis = enabledAt.toEpochMilli();
    assertThat(describe("Music")).isEqualTo(new DescribeContributorInsightsResponse(
        "Music", null,
        List.of("DynamoDBContributorInsights-PKC-Music-" + millis,
            "DynamoDBContributorInsights-SKC-Music-" + millis,
            "DynamoDBContributorInsights-PKT-Music-" + millis,
            "DynamoDBContributorInsights-SKT-Music-" + millis),
        "ENABLED", enabledAt, null, "ACCESSED_AND_THROTTLED_KEYS"));

    clock.advanceSeconds(5);
    assertThat(update("Music", "DISABLE", null).contributorInsightsStatus())
        .isEqualTo("DISABLING");
    assertThat(describe("Music")).isEqualTo(new DescribeContributorInsightsResponse(
        "Music", null, null, "DISABLED", clock.instant(), null, null));
  }

  @Test
  void throttledKeysModeOnASimpleKeyKeepsOnlyThePartitionKeyThrottleRule() {
    update("Sessions", "ENABLE", "THROTTLED_KEYS");
    DescribeContributorInsightsResponse d = describe("Sessions");
    assertThat(d.contributorInsightsRuleList())
        .containsExactly("DynamoDBContributorInsights-PKT-Sessions-" + T0.toEpochMilli());
    assertThat(d.contributorInsightsMode()).isEqualTo("THROTTLED_KEYS");
  }

  @Test
  void theTableMayBeNamedByItsArn() {
    update("arn:aws:dynamodb:us-east-1:000000000000:table/Sessions", "ENABLE", null);
    assertThat(describe("arn:aws:dynamodb:us-east-1:000000000000:table/Sessions")
        .contributorInsightsStatus()).isEqualTo("ENABLED");
    assertThat(describe("Sessions").tableName()).isEqualTo("Sessions");
  }

  @Test
  void listNamesEveryEnabledTableOrOneTableWhateverItsStatus() {
    update("Sessions", "ENABLE", null);
    assertThat(db.listContributorInsights(new ListContributorInsightsRequest(null, null, null))
        .contributorInsightsSummaries()).containsExactly(new ContributorInsightsSummary(
            "Sessions", null, "ENABLED", "ACCESSED_AND_THROTTLED_KEYS"));
    assertThat(db.listContributorInsights(new ListContributorInsightsRequest("Music", null, null))
        .contributorInsightsSummaries()).containsExactly(
            new ContributorInsightsSummary("Music", null, "DISABLED", null));

    update("Music", "ENABLE", null);
    ListContributorInsightsResponse first =
        db.listContributorInsights(new ListContributorInsightsRequest(null, null, 1));
    assertThat(first.contributorInsightsSummaries())
        .extracting(ContributorInsightsSummary::tableName).containsExactly("Music");
    ListContributorInsightsResponse second = db.listContributorInsights(
        new ListContributorInsightsRequest(null, first.nextToken(), 1));
    assertThat(second.contributorInsightsSummaries())
        .extracting(ContributorInsightsSummary::tableName).containsExactly("Sessions");
    assertThat(second.nextToken()).isNull();
  }

  @Test
  void theSettingSurvivesARestartAndGoesWithTheTable() {
    update("Music", "ENABLE", "THROTTLED_KEYS");
    db.close();
    db = Stator.open(storage, EngineOptions.defaults().withClock(clock)
        .withTimeToLiveSweepInterval(Duration.ZERO));
    assertThat(describe("Music").contributorInsightsStatus()).isEqualTo("ENABLED");
    assertThat(describe("Music").contributorInsightsMode()).isEqualTo("THROTTLED_KEYS");
    db.deleteTable(new DeleteTableRequest("Music"));
    create("Music", true);
    assertThat(describe("Music").contributorInsightsStatus()).isEqualTo("DISABLED");
  }

  @Test
  void errors() {
    assertError(() -> update("Missing", "ENABLE", null), ErrorType.ResourceNotFoundException,
        "Requested resource not found: Table: Missing not found");
    assertError(() -> describe("Missing"), ErrorType.ResourceNotFoundException,
        "Requested resource not found: Table: Missing not found");
    assertError(() -> db.describeContributorInsights(
            new DescribeContributorInsightsRequest("Music", "NoSuchIndex")),
        ErrorType.ResourceNotFoundException, "Index: NoSuchIndex");
    assertError(() -> update("Music", "TOGGLE", null), ErrorType.ValidationException,
        "Value 'TOGGLE' at 'contributorInsightsAction' failed to satisfy constraint: Member must"
            + " satisfy enum value set: [ENABLE, DISABLE]");
    assertError(() -> update("Music", null, "ALL"), ErrorType.ValidationException,
        "2 validation errors detected: Value null at 'contributorInsightsAction' failed to"
            + " satisfy constraint: Member must not be null");
    assertError(() -> update(null, "ENABLE", null), ErrorType.ValidationException,
        "The parameter 'TableName' is required but was not present in the request");
    assertError(() -> db.listContributorInsights(
            new ListContributorInsightsRequest(null, null, 101)),
        ErrorType.ValidationException, "Member must have value less than or equal to 100");
  }

  private static void assertError(Runnable call, ErrorType type, String message) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(DynamoDbException.class, e -> {
      assertThat(e.type()).isEqualTo(type);
      assertThat(e.getMessage()).contains(message);
    });
  }

  @Test
  void unchangedSettingKeepsItsTime() {
    update("Music", "ENABLE", null);
    clock.advanceSeconds(60);
    update("Music", "ENABLE", null);
    assertThat(describe("Music").lastUpdateDateTime()).isEqualTo(T0);
    assertThat(new ContributorInsights(null, true, "THROTTLED_KEYS", T0).enabled()).isTrue();
  }
}
