package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.api.DynamoDbException;
import io.stator.api.StreamSpecification;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The streams field of the catalog encoding, and what StreamSpecification does to it. */
class CatalogStreamsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static TableDefinition table(List<StreamDefinition> streams) {
    return CatalogTimeToLiveTest.table(TimeToLive.DISABLED).withStreams(streams);
  }

  @Test
  void aRecordWithoutTheFieldHasNoStreams() {
    byte[] old = Catalog.encode(CatalogTimeToLiveTest.table(TimeToLive.DISABLED));
    assertThat(Catalog.decode(old).streams()).isEmpty();
    assertThat(Catalog.decode(old).enabledStream()).isNull();
  }

  @Test
  void streamsRoundTripAndHaveTheirSpaces() {
    TableDefinition t = table(List.of(
        new StreamDefinition(T0, "KEYS_ONLY", T0.plusSeconds(60)),
        new StreamDefinition(T0.plusSeconds(120), "NEW_AND_OLD_IMAGES", null)));
    assertThat(Catalog.decode(Catalog.encode(t))).isEqualTo(t);
    // New streams keep their records in the shared space, not in spaces of the table's.
    assertThat(t.streams()).allSatisfy(s ->
        assertThat(s.space(t.tableId())).isEqualTo(StreamDefinition.SHARED_SPACE));
    assertThat(Catalog.spaces(t)).noneMatch(space -> space.startsWith("stream"));
    // A stream from before the shared space keeps a space of its own, and the table owns it.
    StreamDefinition own = new StreamDefinition(T0, "KEYS_ONLY", T0.plusSeconds(60), List.of(),
        List.of(), false);
    TableDefinition old = table(List.of(own));
    assertThat(Catalog.decode(Catalog.encode(old))).isEqualTo(old);
    assertThat(Catalog.spaces(old)).contains("stream." + old.tableId() + "." + T0.toEpochMilli());
    assertThat(t.enabledStream().viewType()).isEqualTo("NEW_AND_OLD_IMAGES");
    assertThat(t.latestStream().label()).isEqualTo("2026-01-01T00:02:00.000");
    assertThat(t.withStatus("UPDATING").streams()).isEqualTo(t.streams());
  }

  @Test
  void theRecordedPartitionsAndSplitsRoundTripAndSurviveDisabling() {
    StreamDefinition s = new StreamDefinition(T0, "KEYS_ONLY", null)
        .withPartitions(List.of(0L, Long.MIN_VALUE))
        .withSplits(List.of(new StreamDefinition.Split(1_000_000L, 0x4000_0000_0000_0000L),
            new StreamDefinition.Split(1_000_002L, -1L)));
    TableDefinition t = table(List.of(s));
    assertThat(Catalog.decode(Catalog.encode(t))).isEqualTo(t);
    assertThat(Catalog.decode(Catalog.encode(t)).latestStream().splits()).hasSize(2);
    TableDefinition disabled =
        StreamSpecifications.apply(t, new StreamSpecification(false, null), T0);
    assertThat(disabled.latestStream().partitions()).isEqualTo(s.partitions());
    assertThat(disabled.latestStream().splits()).isEqualTo(s.splits());
  }

  @Test
  void enablingDisablingAndForgetting() {
    TableDefinition none = table(List.of());
    TableDefinition enabled =
        StreamSpecifications.apply(none, new StreamSpecification(true, "NEW_IMAGE"), T0);
    assertThat(enabled.enabledStream()).isEqualTo(new StreamDefinition(T0, "NEW_IMAGE", null));
    TableDefinition disabled =
        StreamSpecifications.apply(enabled, new StreamSpecification(false, null), T0);
    assertThat(disabled.enabledStream()).isNull();
    assertThat(disabled.latestStream().disabled()).isEqualTo(T0);
    // Enabled again in the same millisecond: still a new stream with a label of its own.
    TableDefinition again =
        StreamSpecifications.apply(disabled, new StreamSpecification(true, "KEYS_ONLY"), T0);
    assertThat(again.streams()).hasSize(2);
    assertThat(again.latestStream().label()).isNotEqualTo(disabled.latestStream().label());
    DynamoDbException twice = catchThrowableOfType(DynamoDbException.class, () ->
        StreamSpecifications.apply(again, new StreamSpecification(true, "KEYS_ONLY"), T0));
    assertThat(twice.getMessage())
        .isEqualTo("Table already has an enabled stream: TableName: Sessions");
    // A day later the disabled stream is forgotten by the next change; nothing else is.
    assertThat(StreamSpecifications.apply(again, null, T0.plusSeconds(86_401)).streams())
        .containsExactly(again.latestStream());
    assertThat(StreamSpecifications.apply(again, null, T0.plusSeconds(60))).isSameAs(again);
  }
}
