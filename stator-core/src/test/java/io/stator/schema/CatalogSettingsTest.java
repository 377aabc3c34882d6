package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.schema.TableSettings.PointInTimeRecovery;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The settings field of the catalog encoding: optional, so old records still read. */
class CatalogSettingsTest {
  static final KeyAttribute ID = new KeyAttribute("id", "S");
  static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

  static TableDefinition table(TableSettings settings) {
    return new TableDefinition(
        "Orders", "0f8fad5b-d9cb-469f-a165-70867728950e", "table.x", ID, null, List.of(ID),
        TableDefinition.PAY_PER_REQUEST, 0, 0, CREATED, null, null, null, "ACTIVE",
        null, null, null, null, null, null)
        .withSettings(settings);
  }

  static final TableSettings ALL =
      new TableSettings(
          true, "STANDARD_INFREQUENT_ACCESS", Instant.parse("2026-02-01T10:00:00.123Z"),
          TableSettings.DEFAULT_KMS_KEY,
          new PointInTimeRecovery(true, 7, Instant.parse("2026-02-02T00:00:00Z")),
          new TreeMap<>(Map.of("env", "prod", "empty", "")));

  @Test
  void aRecordWithoutTheFieldReadsAsDefault() {
    byte[] old = Catalog.encode(table(TableSettings.DEFAULT));
    assertThat(Catalog.decode(old).settings()).isEqualTo(TableSettings.DEFAULT);
    assertThat(new String(old, java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain("settings");
  }

  @Test
  void settingsRoundTrip() {
    for (TableSettings s : List.of(
        ALL,
        TableSettings.DEFAULT.withDeletionProtection(true),
        TableSettings.DEFAULT.withKmsMasterKeyId("arn:aws:kms:us-east-1:1:key/abc"),
        TableSettings.DEFAULT.withPointInTimeRecovery(
            new PointInTimeRecovery(true, 35, CREATED)),
        TableSettings.DEFAULT.withBackupHistorySince(CREATED))) {
      assertThat(Catalog.decode(Catalog.encode(table(s))).settings()).isEqualTo(s);
    }
  }

  @Test
  void otherChangesKeepTheSettings() {
    assertThat(table(ALL).withStatus("UPDATING").settings()).isEqualTo(ALL);
    assertThat(table(ALL).withBilling("PROVISIONED", 1, 1, null, CREATED, null).settings())
        .isEqualTo(ALL);
    assertThat(table(ALL).withTimeToLive(new TimeToLive(true, "exp", CREATED)).settings())
        .isEqualTo(ALL);
    assertThat(table(ALL).withIndexes(List.of(), List.of(ID)).settings()).isEqualTo(ALL);
    assertThat(table(ALL).withContributorInsights(List.of()).settings()).isEqualTo(ALL);
  }

  @Test
  void settingsAndStreamsRoundTripTogetherAndEachChangeKeepsTheOther() {
    List<StreamDefinition> streams = List.of(
        new StreamDefinition(CREATED, "KEYS_ONLY", CREATED.plusSeconds(60)),
        new StreamDefinition(CREATED.plusSeconds(120), "NEW_IMAGE", null));
    TableDefinition both = table(ALL).withStreams(streams);
    assertThat(both.settings()).isEqualTo(ALL);
    TableDefinition read = Catalog.decode(Catalog.encode(both));
    assertThat(read).isEqualTo(both);
    assertThat(read.streams()).isEqualTo(streams);
    assertThat(read.settings()).isEqualTo(ALL);
    TableSettings protectedOnly = TableSettings.DEFAULT.withDeletionProtection(true);
    assertThat(both.withSettings(protectedOnly).streams()).isEqualTo(streams);
    assertThat(both.withStatus("UPDATING").streams()).isEqualTo(streams);
    assertThat(both.withContributorInsights(List.of()).streams()).isEqualTo(streams);
    assertThat(both.withIndexes(List.of(), List.of(ID)).streams()).isEqualTo(streams);
  }
}
