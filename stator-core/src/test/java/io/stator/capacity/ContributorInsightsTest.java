package io.stator.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.ContributorInsightsSummary;
import io.stator.api.CreateGlobalSecondaryIndexAction;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.DeleteGlobalSecondaryIndexAction;
import io.stator.api.DeleteTableRequest;
import io.stator.api.DescribeContributorInsightsRequest;
import io.stator.api.DescribeContributorInsightsResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.GlobalSecondaryIndexUpdate;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListContributorInsightsRequest;
import io.stator.api.ListContributorInsightsResponse;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.Projection;
import io.stator.api.UpdateContributorInsightsRequest;
import io.stator.api.UpdateContributorInsightsResponse;
import io.stator.api.UpdateTableRequest;
import io.stator.engine.EngineOptions;
import io.stator.schema.ContributorInsights;
import io.stator.storage.memory.MemoryStorage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.assertj.core.groups.Tuple;
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
        null, null, "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
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
        "1 validation error detected: Value null at 'tableName' failed to satisfy constraint:"
            + " Member must not be null");
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

  // ---- global secondary indexes -------------------------------------------------------------

  /** Orders: an LSI ByTotal, a GSI ByProduct with a sort key and a GSI ByStatus without. */
  private void createOrders() {
    db.createTable(new CreateTableRequest("Orders",
        List.of(new AttributeDefinition("pk", "S"), new AttributeDefinition("sk", "S"),
            new AttributeDefinition("total", "N"), new AttributeDefinition("product", "S"),
            new AttributeDefinition("status", "S")),
        List.of(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("sk", "RANGE")),
        List.of(new LocalSecondaryIndex("ByTotal",
            List.of(new KeySchemaElement("pk", "HASH"), new KeySchemaElement("total", "RANGE")),
            new Projection("KEYS_ONLY", null))),
        List.of(
            new GlobalSecondaryIndex("ByProduct",
                List.of(new KeySchemaElement("product", "HASH"),
                    new KeySchemaElement("sk", "RANGE")),
                new Projection("ALL", null), null),
            new GlobalSecondaryIndex("ByStatus",
                List.of(new KeySchemaElement("status", "HASH")),
                new Projection("KEYS_ONLY", null), null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
  }

  private UpdateContributorInsightsResponse updateIndex(String index, String action) {
    return db.updateContributorInsights(
        new UpdateContributorInsightsRequest("Orders", index, action, null));
  }

  private DescribeContributorInsightsResponse describeIndex(String index) {
    return db.describeContributorInsights(new DescribeContributorInsightsRequest("Orders", index));
  }

  @Test
  void aGlobalSecondaryIndexHasItsOwnSettingAndRulesOfItsOwnKeySchema() {
    createOrders();
    assertThat(describeIndex("ByProduct")).isEqualTo(new DescribeContributorInsightsResponse(
        "Orders", "ByProduct", null, "DISABLED", null, null, null));

    clock.advanceSeconds(3);
    long millis = clock.instant().toEpochMilli();
    assertThat(updateIndex("ByProduct", "ENABLE")).isEqualTo(new UpdateContributorInsightsResponse(
        "Orders", "ByProduct", "ENABLING", "ACCESSED_AND_THROTTLED_KEYS"));
    assertThat(describeIndex("ByProduct")).isEqualTo(new DescribeContributorInsightsResponse(
        "Orders", "ByProduct",
        List.of("DynamoDBContributorInsights-PKC-Orders-ByProduct-" + millis,
            "DynamoDBContributorInsights-SKC-Orders-ByProduct-" + millis,
            "DynamoDBContributorInsights-PKT-Orders-ByProduct-" + millis,
            "DynamoDBContributorInsights-SKT-Orders-ByProduct-" + millis),
        "ENABLED", clock.instant(), null, "ACCESSED_AND_THROTTLED_KEYS"));
    // The table (which has a sort key) and the other index keep their own settings.
    assertThat(describe("Orders").contributorInsightsStatus()).isEqualTo("DISABLED");
    assertThat(describeIndex("ByStatus").contributorInsightsStatus()).isEqualTo("DISABLED");

    // An index without a sort key has no sort-key rules, whatever the table's key schema.
    updateIndex("ByStatus", "ENABLE");
    assertThat(describeIndex("ByStatus").contributorInsightsRuleList()).containsExactly(
        "DynamoDBContributorInsights-PKC-Orders-ByStatus-" + millis,
        "DynamoDBContributorInsights-PKT-Orders-ByStatus-" + millis);
    assertThat(updateIndex("ByStatus", "DISABLE").contributorInsightsStatus())
        .isEqualTo("DISABLING");
    assertThat(describeIndex("ByStatus").contributorInsightsRuleList()).isNull();
  }

  @Test
  void onlyGlobalSecondaryIndexesAreAccepted() {
    createOrders();
    // A local secondary index is not a subject of Contributor Insights: refused as unknown.
    assertError(() -> updateIndex("ByTotal", "ENABLE"), ErrorType.ResourceNotFoundException,
        "Requested resource not found: Index: ByTotal not found for table: Orders");
    assertError(() -> describeIndex("ByTotal"), ErrorType.ResourceNotFoundException,
        "Index: ByTotal not found for table: Orders");
    assertError(() -> describeIndex("NoSuchIndex"), ErrorType.ResourceNotFoundException,
        "Index: NoSuchIndex not found for table: Orders");
    // The table without GSIs still refuses any index name.
    assertError(() -> db.describeContributorInsights(
            new DescribeContributorInsightsRequest("Music", "ByProduct")),
        ErrorType.ResourceNotFoundException, "Index: ByProduct not found for table: Music");
  }

  @Test
  void listNamesTheTableAndItsGlobalSecondaryIndexes() {
    createOrders();
    updateIndex("ByStatus", "ENABLE");
    // Named: the table and every GSI, whatever their status; never the LSI.
    assertThat(db.listContributorInsights(new ListContributorInsightsRequest("Orders", null, null))
        .contributorInsightsSummaries()).containsExactly(
            new ContributorInsightsSummary("Orders", null, "DISABLED", null),
            new ContributorInsightsSummary("Orders", "ByProduct", "DISABLED", null),
            new ContributorInsightsSummary("Orders", "ByStatus", "ENABLED",
                "ACCESSED_AND_THROTTLED_KEYS"));
    // Not named: only what is enabled, indexes included, paged like the rest.
    update("Music", "ENABLE", "THROTTLED_KEYS");
    ListContributorInsightsResponse first =
        db.listContributorInsights(new ListContributorInsightsRequest(null, null, 1));
    assertThat(first.contributorInsightsSummaries()).containsExactly(
        new ContributorInsightsSummary("Music", null, "ENABLED", "THROTTLED_KEYS"));
    assertThat(db.listContributorInsights(
            new ListContributorInsightsRequest(null, first.nextToken(), 10))
        .contributorInsightsSummaries()).containsExactly(
            new ContributorInsightsSummary("Orders", "ByStatus", "ENABLED",
                "ACCESSED_AND_THROTTLED_KEYS"));
  }

  @Test
  void deletingAGlobalSecondaryIndexForgetsItsSetting() {
    createOrders();
    update("Orders", "ENABLE", null);
    updateIndex("ByStatus", "ENABLE");
    db.updateTable(new UpdateTableRequest("Orders", null, null, null,
        List.of(new GlobalSecondaryIndexUpdate(null, null,
            new DeleteGlobalSecondaryIndexAction("ByStatus"))), null, null, null));
    assertError(() -> describeIndex("ByStatus"), ErrorType.ResourceNotFoundException,
        "Index: ByStatus not found for table: Orders");
    assertThat(describe("Orders").contributorInsightsStatus()).isEqualTo("ENABLED");

    // A new index of the same name starts disabled, and survives a restart with the table's.
    db.updateTable(new UpdateTableRequest("Orders", List.of(new AttributeDefinition("status", "S")),
        null, null,
        List.of(new GlobalSecondaryIndexUpdate(new CreateGlobalSecondaryIndexAction("ByStatus",
            List.of(new KeySchemaElement("status", "HASH")), new Projection("KEYS_ONLY", null),
            null), null, null)), null, null, null));
    assertThat(describeIndex("ByStatus").contributorInsightsStatus()).isEqualTo("DISABLED");
    updateIndex("ByProduct", "ENABLE");
    db.close();
    db = Stator.open(storage, EngineOptions.defaults().withClock(clock)
        .withTimeToLiveSweepInterval(Duration.ZERO));
    assertThat(db.listContributorInsights(new ListContributorInsightsRequest("Orders", null, null))
        .contributorInsightsSummaries())
        .extracting(ContributorInsightsSummary::indexName,
            ContributorInsightsSummary::contributorInsightsStatus)
        .containsExactly(
            Tuple.tuple(null, "ENABLED"),
            Tuple.tuple("ByProduct", "ENABLED"),
            Tuple.tuple("ByStatus", "DISABLED"));
  }
}
