package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Time to Live field of the catalog encoding: optional, so old records still read. */
class CatalogTimeToLiveTest {
  static final KeyAttribute ID = new KeyAttribute("id", "S");
  static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

  static TableDefinition table(TimeToLive ttl) {
    return new TableDefinition(
        "Sessions", "0f8fad5b-d9cb-469f-a165-70867728950e", "table.x", ID, null, List.of(ID),
        TableDefinition.PAY_PER_REQUEST, 0, 0, CREATED, null, null, null, "ACTIVE",
        null, null, null, null, null, null)
        .withTimeToLive(ttl);
  }

  @Test
  void aRecordWithoutTheFieldReadsAsDisabled() {
    // what a release before Time to Live wrote: the same fields, no "ttl"
    byte[] old = Catalog.encode(table(TimeToLive.DISABLED));
    assertThat(Catalog.decode(old).timeToLive()).isEqualTo(TimeToLive.DISABLED);
  }

  @Test
  void settingsRoundTrip() {
    for (TimeToLive ttl :
        List.of(
            new TimeToLive(true, "expiresAt", Instant.parse("2026-02-01T10:00:00.123Z")),
            new TimeToLive(false, null, Instant.parse("2026-02-01T11:00:00Z")))) {
      assertThat(Catalog.decode(Catalog.encode(table(ttl)))).isEqualTo(table(ttl));
    }
  }

  @Test
  void otherChangesKeepTheSetting() {
    TimeToLive ttl = new TimeToLive(true, "expiresAt", CREATED);
    assertThat(table(ttl).withStatus("UPDATING").timeToLive()).isEqualTo(ttl);
    assertThat(table(ttl).withBilling("PROVISIONED", 1, 1, null, CREATED, null).timeToLive())
        .isEqualTo(ttl);
  }
}
