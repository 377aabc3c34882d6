package io.stator.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsAction;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsMode;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsStatus;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsSummary;
import software.amazon.awssdk.services.dynamodb.model.DescribeContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ListContributorInsightsResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.UpdateContributorInsightsResponse;

/**
 * The Contributor Insights API through the AWS SDK. Skipped against an external endpoint: the
 * peers these tests are compared with do not implement it.
 */
class ContributorInsightsTest extends EndToEndTest {
  private static final ScalarAttributeType S = ScalarAttributeType.S;

  @BeforeEach
  void onlyStator() {
    assumeThat(target).isNotEqualTo(Target.EXTERNAL);
  }

  private UpdateContributorInsightsResponse update(
      String table, ContributorInsightsAction action) {
    return dynamo.updateContributorInsights(b -> b.tableName(table)
        .contributorInsightsAction(action));
  }

  private DescribeContributorInsightsResponse describe(String table) {
    return dynamo.describeContributorInsights(b -> b.tableName(table));
  }

  @Test
  void enableDescribeDisable() {
    String table = createTable("insights", "pk", S, "sk", S);
    DescribeContributorInsightsResponse initial = describe(table);
    assertThat(initial.tableName()).isEqualTo(table);
    assertThat(initial.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.DISABLED);
    assertThat(initial.hasContributorInsightsRuleList()).isFalse();
    assertThat(initial.lastUpdateDateTime()).isNull();

    Instant before = Instant.now().minusSeconds(1);
    UpdateContributorInsightsResponse enabling = update(table, ContributorInsightsAction.ENABLE);
    assertThat(enabling.tableName()).isEqualTo(table);
    assertThat(enabling.contributorInsightsStatus())
        .isEqualTo(ContributorInsightsStatus.ENABLING);
    assertThat(enabling.contributorInsightsMode())
        .isEqualTo(ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS);

    DescribeContributorInsightsResponse enabled = describe(table);
    assertThat(enabled.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLED);
    assertThat(enabled.lastUpdateDateTime()).isAfter(before);
    long millis = enabled.lastUpdateDateTime().toEpochMilli();
    assertThat(enabled.contributorInsightsRuleList()).containsExactly(
        "DynamoDBContributorInsights-PKC-" + table + "-" + millis,
        "DynamoDBContributorInsights-SKC-" + table + "-" + millis,
        "DynamoDBContributorInsights-PKT-" + table + "-" + millis,
        "DynamoDBContributorInsights-SKT-" + table + "-" + millis);

    assertThat(update(table, ContributorInsightsAction.DISABLE).contributorInsightsStatus())
        .isEqualTo(ContributorInsightsStatus.DISABLING);
    DescribeContributorInsightsResponse disabled = describe(table);
    assertThat(disabled.contributorInsightsStatus())
        .isEqualTo(ContributorInsightsStatus.DISABLED);
    assertThat(disabled.hasContributorInsightsRuleList()).isFalse();
    assertThat(disabled.lastUpdateDateTime()).isNotNull();
  }

  @Test
  void listOneTableOrEveryEnabledOne() {
    String quiet = createTable("insights-quiet", "pk", S);
    String watched = createTable("insights-watched", "pk", S);
    dynamo.updateContributorInsights(b -> b.tableName(watched)
        .contributorInsightsAction(ContributorInsightsAction.ENABLE)
        .contributorInsightsMode(ContributorInsightsMode.THROTTLED_KEYS));

    ListContributorInsightsResponse one =
        dynamo.listContributorInsights(b -> b.tableName(quiet));
    assertThat(one.contributorInsightsSummaries()).containsExactly(
        ContributorInsightsSummary.builder().tableName(quiet)
            .contributorInsightsStatus(ContributorInsightsStatus.DISABLED).build());

    ListContributorInsightsResponse all = dynamo.listContributorInsights(b -> b.maxResults(100));
    assertThat(all.contributorInsightsSummaries())
        .extracting(ContributorInsightsSummary::tableName)
        .contains(watched).doesNotContain(quiet);
    assertThat(all.contributorInsightsSummaries()).filteredOn(s -> s.tableName().equals(watched))
        .singleElement().satisfies(s -> {
          assertThat(s.contributorInsightsStatus()).isEqualTo(ContributorInsightsStatus.ENABLED);
          assertThat(s.contributorInsightsMode())
              .isEqualTo(ContributorInsightsMode.THROTTLED_KEYS);
        });
    assertThat(describe(watched).contributorInsightsRuleList()).hasSize(1)
        .allSatisfy(rule -> assertThat(rule)
            .startsWith("DynamoDBContributorInsights-PKT-" + watched + "-"));
  }

  @Test
  void errors() {
    ResourceNotFoundException missing = catchThrowableOfType(
        () -> describe("insights-no-such-table"), ResourceNotFoundException.class);
    assertThat(missing.awsErrorDetails().errorMessage())
        .isEqualTo("Requested resource not found: Table: insights-no-such-table not found");

    String table = createTable("insights-errors", "pk", S);
    assertThat(catchThrowableOfType(
        () -> dynamo.describeContributorInsights(b -> b.tableName(table).indexName("byDate")),
        ResourceNotFoundException.class)).isNotNull();

    DynamoDbException invalid = catchThrowableOfType(
        () -> dynamo.updateContributorInsights(b -> b.tableName(table)
            .contributorInsightsAction("TOGGLE")),
        DynamoDbException.class);
    assertThat(invalid.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
    assertThat(invalid.awsErrorDetails().errorMessage()).isEqualTo(
        "1 validation error detected: Value 'TOGGLE' at 'contributorInsightsAction' failed to"
            + " satisfy constraint: Member must satisfy enum value set: [ENABLE, DISABLE]");
  }
}
