package io.stator.stream;

import io.stator.storage.Commit;

/**
 * A stream record made by {@link StreamWrites#stage} for one write attempt, not numbered yet:
 * {@link StreamWrites#number} gives it its sequence number and adds it to the attempt's {@link
 * Commit}.
 */
public final class StagedRecord {
  final String space;
  final ShardLayout layout;
  final long hash;
  final byte[] change;

  StagedRecord(String space, ShardLayout layout, long hash, byte[] change) {
    this.space = space;
    this.layout = layout;
    this.hash = hash;
    this.change = change;
  }
}
