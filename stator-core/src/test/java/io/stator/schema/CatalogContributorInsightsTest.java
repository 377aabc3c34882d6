package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Contributor Insights field of the catalog encoding: optional, so old records still read. */
class CatalogContributorInsightsTest {
  private static final KeyAttribute ID = new KeyAttribute("id", "S");
  private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

  private static TableDefinition table(List<ContributorInsights> insights) {
    return new TableDefinition(
        "Sessions", "0f8fad5b-d9cb-469f-a165-70867728950e", "table.x", ID, null, List.of(ID),
        TableDefinition.PAY_PER_REQUEST, 0, 0, CREATED, null, null, null, "ACTIVE",
        null, null, null, null, null, null)
        .withTimeToLive(new TimeToLive(true, "expiresAt", CREATED))
        .withContributorInsights(insights);
  }

  @Test
  void aRecordWithoutTheFieldReadsAsNeverChanged() {
    // what a release before Contributor Insights wrote: the same fields, no "insights"
    byte[] old = Catalog.encode(table(List.of()));
    assertThat(Catalog.decode(old).contributorInsights()).isEmpty();
    assertThat(Catalog.decode(old).contributorInsights(null)).isNull();
  }

  @Test
  void settingsRoundTripAndOtherChangesKeepThem() {
    List<ContributorInsights> insights = List.of(
        new ContributorInsights(null, true, "ACCESSED_AND_THROTTLED_KEYS",
            Instant.parse("2026-02-01T10:00:00.123Z")),
        new ContributorInsights("byDate", false, "THROTTLED_KEYS", CREATED));
    assertThat(Catalog.decode(Catalog.encode(table(insights)))).isEqualTo(table(insights));
    assertThat(table(insights).withStatus("UPDATING").contributorInsights()).isEqualTo(insights);
    assertThat(table(insights).withTimeToLive(TimeToLive.DISABLED).contributorInsights())
        .isEqualTo(insights);
    assertThat(table(insights).withBilling("PROVISIONED", 1, 1, null, CREATED, null)
        .contributorInsights("byDate").mode()).isEqualTo("THROTTLED_KEYS");
  }
}
