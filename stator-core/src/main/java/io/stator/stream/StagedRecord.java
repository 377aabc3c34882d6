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
  /** The table's space, and the encoded item the attempt puts there (null for a delete). */
  final String tableSpace;
  final byte[] newEncoded;
  /** The sequence number the item read was stored with, or -1. */
  final long previous;

  StagedRecord(String space, ShardLayout layout, long hash, byte[] change, String tableSpace,
      byte[] newEncoded, long previous) {
    this.space = space;
    this.layout = layout;
    this.hash = hash;
    this.change = change;
    this.tableSpace = tableSpace;
    this.newEncoded = newEncoded;
    this.previous = previous;
  }
}
