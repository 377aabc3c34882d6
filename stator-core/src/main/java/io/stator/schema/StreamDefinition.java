package io.stator.schema;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One stream of a table, as the catalog keeps it. A table has at most one enabled stream; a
 * stream that was disabled stays readable for 24 hours (DynamoDB's retention), so the catalog
 * keeps it until then. Enabling again creates a new stream with a new label and ARN.
 *
 * @param created when the stream was enabled; its label is this instant in ISO 8601 (UTC,
 *     milliseconds), as DynamoDB labels streams (e.g. {@code 2026-03-01T00:00:00.000})
 * @param viewType KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES
 * @param disabled when UpdateTable disabled it, or null while it is enabled
 */
public record StreamDefinition(Instant created, String viewType, Instant disabled) {
  private static final DateTimeFormatter LABEL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  public boolean enabled() {
    return disabled == null;
  }

  /** DynamoDB's StreamLabel: the creation instant in ISO 8601, without a zone. */
  public String label() {
    return LABEL.format(created);
  }

  /** The storage space of the stream's records: one per stream, named by table and creation. */
  public String space(String tableId) {
    return "stream." + tableId + "." + created.toEpochMilli();
  }

  public StreamDefinition disabledAt(Instant when) {
    return new StreamDefinition(created, viewType, when);
  }
}
