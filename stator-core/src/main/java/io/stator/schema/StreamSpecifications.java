package io.stator.schema;

import io.stator.api.DynamoDbException;
import io.stator.api.StreamSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The StreamSpecification of CreateTable and UpdateTable: its constraints, and what it does to a
 * table's streams. Enabling creates a new stream (new label, new ARN); disabling closes the
 * enabled one, which stays readable for 24 hours. DynamoDB refuses to enable a stream on a table
 * that has one and to disable a stream on a table that has none (ValidationException, as the
 * UpdateTable documentation says).
 */
public final class StreamSpecifications {
  /** The view types, in the order DynamoDB lists them in its messages. */
  static final String[] VIEW_TYPES = {"OLD_IMAGE", "KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE"};
  private static final Duration RETENTION = Duration.ofHours(24);

  private StreamSpecifications() {}

  /** The request-level constraints: StreamEnabled required, StreamViewType one of the four. */
  static void constraints(Constraints c, StreamSpecification s) {
    if (s == null) {
      return;
    }
    c.notNull("streamSpecification.streamEnabled", s.streamEnabled());
    c.oneOf("streamSpecification.streamViewType", s.streamViewType(), VIEW_TYPES);
  }

  /** The streams of a new table: one enabled stream, or none. */
  static List<StreamDefinition> create(StreamSpecification s, Instant now) {
    if (s == null) {
      return List.of();
    }
    if (!s.streamEnabled()) {
      if (s.streamViewType() != null) {
        // DynamoDB's recorded words, which name the member UpdateViewType.
        throw DynamoDbException.validation(
            "One or more parameter values were invalid: Table is being created with a stream"
                + " disabled, UpdateViewType should not be specified");
      }
      return List.of();
    }
    requireViewType(s);
    return List.of(new StreamDefinition(now, s.streamViewType(), null));
  }

  /**
   * Applies an UpdateTable's StreamSpecification ({@code s} may be null) to a table; also
   * forgets disabled streams past their 24 hours. Returns {@code table} itself when nothing
   * changes.
   */
  public static TableDefinition apply(TableDefinition table, StreamSpecification s, Instant now) {
    List<StreamDefinition> streams = new ArrayList<>();
    for (StreamDefinition kept : table.streams()) {
      if (kept.enabled() || kept.disabled().plus(RETENTION).isAfter(now)) {
        streams.add(kept);
      }
    }
    StreamDefinition enabled = table.enabledStream();
    if (s != null && s.streamEnabled()) {
      if (enabled != null) {
        throw DynamoDbException.validation(
            "Table already has an enabled stream: TableName: " + table.name());
      }
      requireViewType(s);
      StreamDefinition latest = table.latestStream();
      // A new stream gets a new label (its creation instant), even within one millisecond.
      Instant created =
          latest != null && !now.isAfter(latest.created()) ? latest.created().plusMillis(1) : now;
      streams.add(new StreamDefinition(created, s.streamViewType(), null));
    } else if (s != null) {
      if (enabled == null) {
        throw DynamoDbException.validation(
            "Table does not have an enabled stream to disable: TableName: " + table.name());
      }
      streams.set(streams.size() - 1, enabled.disabledAt(now));
    }
    return streams.equals(table.streams()) ? table : table.withStreams(streams);
  }

  private static void requireViewType(StreamSpecification s) {
    if (s.streamViewType() == null) {
      throw DynamoDbException.validation(
          "One or more parameter values were invalid: StreamViewType is required when"
              + " StreamEnabled is true");
    }
  }
}
