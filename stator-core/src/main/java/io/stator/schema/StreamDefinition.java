package io.stator.schema;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * One stream of a table, as the catalog keeps it. A table has at most one enabled stream; a
 * stream that was disabled stays readable for 24 hours (DynamoDB's retention), so the catalog
 * keeps it until then. Enabling again creates a new stream with a new label and ARN.
 *
 * <p>The stream also records the partitions of the table its shards follow (see {@code
 * io.stator.stream.ShardLayout}): the partition starts when the stream first recorded them, and
 * every split since, each at the sequence number from which records go to the split's halves.
 * Shards are derived from these and the clock, so a restart finds the same shards.
 *
 * @param created when the stream was enabled; its label is this instant in ISO 8601 (UTC,
 *     milliseconds), as DynamoDB labels streams (e.g. {@code 2026-03-01T00:00:00.000})
 * @param viewType KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES
 * @param disabled when UpdateTable disabled it, or null while it is enabled
 * @param partitions the starts of the table's partitions (unsigned 64-bit hashes, ascending,
 *     the first 0) when the stream first recorded them; empty until then
 * @param splits the splits of partitions since, in sequence number order
 * @param shared whether its records are in the space {@value #SHARED_SPACE}, which every stream
 *     made since shares, instead of a space of its own (see {@link #space})
 */
public record StreamDefinition(
    Instant created, String viewType, Instant disabled, List<Long> partitions,
    List<Split> splits, boolean shared) {
  /**
   * The space of the records of every stream made since the streams of deleted tables gave their
   * resources back; the records of each stream are the partitions that start with its {@link
   * #id}.
   */
  public static final String SHARED_SPACE = "streams";

  private static final DateTimeFormatter LABEL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  /**
   * A partition split: from {@code sequenceNumber} on, the partition holding {@code at} is two,
   * split at {@code at} (the start of the upper half).
   */
  public record Split(long sequenceNumber, long at) {}

  public StreamDefinition {
    partitions = partitions == null ? List.of() : List.copyOf(partitions);
    splits = splits == null ? List.of() : List.copyOf(splits);
  }

  /** A new stream, whose records go to the shared space. */
  public StreamDefinition(Instant created, String viewType, Instant disabled) {
    this(created, viewType, disabled, List.of(), List.of(), true);
  }

  public boolean enabled() {
    return disabled == null;
  }

  /** DynamoDB's StreamLabel: the creation instant in ISO 8601, without a zone. */
  public String label() {
    return LABEL.format(created);
  }

  /** The stream's name among all the streams of the store: its table and its creation. */
  public String id(String tableId) {
    return SpaceNames.stream(tableId, created.toEpochMilli());
  }

  /**
   * The storage space of the stream's records: {@value #SHARED_SPACE}, or for a stream made
   * before that space, a space of its own named by its {@link #id}.
   *
   * <p>Why one space for all: the records of a deleted table's stream stay readable 24 hours. In
   * a space each, a test suite that created and deleted tables with streams kept a RocksDB column
   * family per table for a day, with its files and their descriptors (300 such tables: 692 open
   * descriptors and 296 files, with no table left); with one space, a deleted table's stream
   * costs its records only, which go when it is forgotten.
   */
  public String space(String tableId) {
    return shared ? SHARED_SPACE : id(tableId);
  }

  public StreamDefinition disabledAt(Instant when) {
    return new StreamDefinition(created, viewType, when, partitions, splits, shared);
  }

  /** This stream with its first partition layout recorded. */
  public StreamDefinition withPartitions(List<Long> starts) {
    return new StreamDefinition(created, viewType, disabled, starts, splits, shared);
  }

  /** This stream with {@code more} splits recorded after its others. */
  public StreamDefinition withSplits(List<Split> more) {
    List<Split> all = new ArrayList<>(splits);
    all.addAll(more);
    return new StreamDefinition(created, viewType, disabled, partitions, all, shared);
  }
}
