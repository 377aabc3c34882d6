package io.stator.stream;

import io.stator.schema.StreamDefinition;
import java.time.Duration;

/**
 * The shards of one stream, derived from its definition and the clock alone.
 *
 * <p>DynamoDB gives a stream one open shard per partition of the table and closes shards (opening
 * children) when a partition splits and every few hours. Stator gives a stream one open shard at
 * a time: shard {@code k} holds the records made in {@code [created + k * LIFETIME, created + (k +
 * 1) * LIFETIME)}, after which it closes and its child {@code k + 1} opens, its ParentShardId
 * naming shard {@code k}. Consumers written for DynamoDB (the Kinesis adapter, Lambda's poller)
 * follow this parent/child order, and because each record's shard follows from its sequence
 * number (which carries its time, see {@link StreamSequencer}), rotating needs no stored state and
 * no background thread. Disabling the stream closes its current shard. (A write that read the
 * definition before UpdateTable disabled the stream, and commits between the moment UpdateTable
 * read the clock and its catalog commit, in a later four-hour span, would land in a shard that
 * is never listed; the window is a commit wide and must straddle a shard boundary.)
 *
 * <p>A shard id is {@code shardId-<20-digit start, epoch ms>-<8 hex digits>}, shaped like
 * DynamoDB's (e.g. {@code shardId-00000001414562045508-2bac9cd2}); the hex digits tie the id to
 * its stream, so an id of another stream is not taken for one of this stream's.
 */
final class ShardLayout {
  /** DynamoDB closes shards after about four hours. */
  static final long LIFETIME_MILLIS = Duration.ofHours(4).toMillis();
  /** Records are kept 24 hours. */
  static final long RETENTION_MILLIS = Duration.ofHours(24).toMillis();

  private final StreamDefinition stream;
  private final String tableId;

  ShardLayout(String tableId, StreamDefinition stream) {
    this.tableId = tableId;
    this.stream = stream;
  }

  long createdMillis() {
    return stream.created().toEpochMilli();
  }

  /** The shard of a record with this sequence number. */
  long shardOf(long sequenceNumber) {
    return shardAt(sequenceNumber / StreamSequencer.PER_MILLI);
  }

  long shardAt(long millis) {
    return Math.max(0, (millis - createdMillis()) / LIFETIME_MILLIS);
  }

  long startMillis(long shard) {
    return createdMillis() + shard * LIFETIME_MILLIS;
  }

  long endMillis(long shard) {
    return startMillis(shard + 1);
  }

  /** The smallest sequence number shard {@code shard} may hold. */
  long firstSequence(long shard) {
    return startMillis(shard) * StreamSequencer.PER_MILLI;
  }

  /** The smallest sequence number past the end of shard {@code shard} (by time). */
  long endSequence(long shard) {
    return endMillis(shard) * StreamSequencer.PER_MILLI;
  }

  /** The last shard: the open one, or the one the stream was disabled in. */
  long lastShard(long nowMillis) {
    long until = stream.enabled() ? nowMillis : stream.disabled().toEpochMilli();
    return shardAt(until);
  }

  /** The first shard still kept: shards whose whole span is older than 24 hours are gone. */
  long firstShard(long nowMillis) {
    long trim = nowMillis - RETENTION_MILLIS;
    if (trim <= createdMillis()) {
      return 0;
    }
    return (trim - createdMillis()) / LIFETIME_MILLIS;
  }

  String shardId(long shard) {
    return String.format("shardId-%020d-%08x", startMillis(shard), check(shard));
  }

  /** The shard of an id of this stream, or -1. */
  long shard(String shardId) {
    if (shardId == null || shardId.length() != 37 || !shardId.startsWith("shardId-")
        || shardId.charAt(28) != '-') {
      return -1;
    }
    long start;
    int check;
    try {
      start = Long.parseLong(shardId.substring(8, 28));
      check = Integer.parseUnsignedInt(shardId.substring(29), 16);
    } catch (NumberFormatException e) {
      return -1;
    }
    long offset = start - createdMillis();
    if (offset < 0 || offset % LIFETIME_MILLIS != 0) {
      return -1;
    }
    long shard = offset / LIFETIME_MILLIS;
    return check(shard) == check ? shard : -1;
  }

  private int check(long shard) {
    return (tableId + "/" + createdMillis() + "/" + shard).hashCode();
  }
}
