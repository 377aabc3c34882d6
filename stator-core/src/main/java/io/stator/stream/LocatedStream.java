package io.stator.stream;

import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;

/** A stream found by its ARN, with its table (live, or deleted within 24 hours). */
record LocatedStream(TableDefinition table, StreamDefinition stream) {
  ShardLayout layout() {
    return new ShardLayout(table.tableId(), stream);
  }

  String space() {
    return stream.space(table.tableId());
  }

  String id() {
    return stream.id(table.tableId());
  }

  /**
   * Whether shard {@code k} of this stream can receive no more records: its partition split (the
   * split is in the definition the caller read before settling), its four hours are over, or the
   * stream was disabled in it; and every write that took a number before the settle point
   * resolved.
   */
  boolean closed(ShardLayout layout, ShardLayout.Shard k, StreamSequencer.Settled settled) {
    if (!settled.complete()) {
      return false;
    }
    if (k.splitAt() >= 0) {
      return true;
    }
    if (k.epoch() < layout.lastEpoch(settled.millis())) {
      return settled.bound() >= layout.endSequence(k.epoch());
    }
    return !stream.enabled();
  }
}
