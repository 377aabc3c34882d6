package io.stator.stream;

import io.stator.api.Shard;
import io.stator.schema.Catalog;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StoredRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a stream keeps: records for 24 hours (older epochs' records deleted as consumers describe
 * the stream), a disabled stream for 24 hours, and the streams of a deleted table for 24 hours,
 * after which the table is forgotten with its records.
 */
final class StreamRetention {
  private static final long FORGET_INTERVAL_MILLIS = Duration.ofMinutes(1).toMillis();

  private final Storage storage;
  private final Catalog catalog;
  private final StreamSequencer sequencer;
  private final ShardFollowing following;
  /** Per stream space, the epochs below which records have been deleted (since start). */
  private final Map<String, Long> trimmedEpochs = new ConcurrentHashMap<>();
  /** When {@link #forgetExpired} last looked; a race only makes it look twice. */
  private volatile long lastForgotten = Long.MIN_VALUE;

  StreamRetention(
      Storage storage, Catalog catalog, StreamSequencer sequencer, ShardFollowing following) {
    this.storage = storage;
    this.catalog = catalog;
    this.sequencer = sequencer;
    this.following = following;
  }

  /**
   * Forgets the streams of tables deleted more than 24 hours ago, with their records: at start,
   * then at most once a minute ({@link #FORGET_INTERVAL_MILLIS}) as tables are deleted and as
   * streams are read, so a store that only creates and deletes tables keeps a day's worth at
   * most, and a read between two looks costs a clock read.
   */
  void forgetExpired() {
    long now = sequencer.millis();
    if (lastForgotten != Long.MIN_VALUE && now - lastForgotten < FORGET_INTERVAL_MILLIS) {
      return;
    }
    lastForgotten = now;
    for (TableDefinition t : catalog.retired()) {
      if (t.streams().stream().noneMatch(s -> kept(s, now))) {
        for (StreamDefinition s : t.streams()) {
          deleteRecords(t, s);
        }
        catalog.forgetRetired(t);
      }
    }
  }

  /** The deleted tables whose streams are still readable, after forgetting the others. */
  List<TableDefinition> retired(long now) {
    forgetExpired();
    List<TableDefinition> out = new ArrayList<>();
    for (TableDefinition t : catalog.retired()) {
      if (t.streams().stream().anyMatch(s -> kept(s, now))) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * Deletes the records of epochs older than the retention (before {@code first}), which no
   * reader can reach any more. Consumers describe their stream regularly, so that is when it
   * happens; a shard's records go once all of its epoch is older than 24 hours.
   */
  void trimBefore(LocatedStream s, long first) {
    String space = s.space();
    long from = trimmedEpochs.getOrDefault(s.id(), 0L);
    if (first <= from) {
      return;
    }
    deleteRecords(space, s.layout(), from, first - 1);
    trimmedEpochs.put(s.id(), first);
  }

  /** Deletes the records of the shards of epochs {@code from} to {@code to}, a batch a commit. */
  private void deleteRecords(String space, ShardLayout layout, long from, long to) {
    for (ShardLayout.Shard k : layout.shards(from, to)) {
      while (true) {
        List<StoredRecord> batch =
            storage.query(space, layout.partition(k), null, null, true, 1000);
        if (batch.isEmpty()) {
          break;
        }
        Commit commit = new Commit();
        for (StoredRecord rec : batch) {
          commit.delete(space, rec.key());
        }
        storage.commit(commit);
      }
    }
  }

  /**
   * Deletes every record of a stream that is forgotten (disabled, or of a deleted table, more
   * than 24 hours ago): drops its space when it has one of its own, else deletes its records from
   * the shared space. Safe to repeat, so the catalog forgets the stream after this, and a stop in
   * between forgets it again at the next start.
   */
  void deleteRecords(TableDefinition table, StreamDefinition stream) {
    String space = stream.space(table.tableId());
    if (!stream.shared()) {
      storage.dropSpace(space);
    } else if (storage.spaces().contains(space)) {
      ShardLayout layout = new ShardLayout(table.tableId(), stream);
      deleteRecords(space, layout, 0, layout.lastEpoch(sequencer.millis()));
    }
    String id = stream.id(table.tableId());
    trimmedEpochs.remove(id);
    following.forget(id);
  }

  /** A disabled stream stays readable for 24 hours. */
  static boolean kept(StreamDefinition s, long nowMillis) {
    return s.enabled()
        || s.disabled().toEpochMilli() + ShardLayout.RETENTION_MILLIS > nowMillis;
  }

  /** The smallest sequence number still kept: records made in the last 24 hours. */
  static long trimPoint(long nowMillis) {
    return (nowMillis - ShardLayout.RETENTION_MILLIS) * StreamSequencer.PER_MILLI;
  }
}
