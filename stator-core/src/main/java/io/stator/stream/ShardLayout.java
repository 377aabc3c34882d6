package io.stator.stream;

import io.stator.schema.StreamDefinition;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The shards of one stream, derived from its definition (the partitions it recorded and their
 * splits, see {@link StreamDefinition}) and the clock alone, so that a restart finds the same
 * shards and routing a record needs no stored state beyond the catalog.
 *
 * <p>DynamoDB gives a stream one open shard per partition of the table; a shard closes when its
 * partition splits (two children open, their ParentShardId naming it) and after a few hours
 * (one child opens). Stator does the same with the partitions of its capacity model:
 *
 * <ul>
 *   <li>Time is cut into epochs of four hours from the stream's creation, by sequence number
 *       (which carries the time, see {@link StreamSequencer}). At the start of an epoch, every
 *       partition of the layout then in force gets a shard, whose parent is the last shard of
 *       the same hash range in the previous epoch (layouts only ever refine, so that shard
 *       exists).
 *   <li>A split recorded at sequence number {@code F} closes the shard of the range it divides
 *       and opens two children, starting at {@code F}, for the halves.
 *   <li>A record with sequence number {@code n} of an item whose partition key hashes to
 *       {@code h} belongs to the shard of epoch {@code epoch(n)} whose range holds {@code h} in
 *       the layout refined by the splits recorded below {@code n}: see {@link #route}.
 * </ul>
 *
 * A shard is keyed by (start sequence number, range start, range end): unique, because two
 * shards opening at one number are the halves of one split or the ranges of one epoch. Its id
 * is {@code shardId-<20-digit start, epoch ms>-<8 hex digits>}, shaped like DynamoDB's (e.g.
 * {@code shardId-00000001414562045508-2bac9cd2}); the hex digits hash the key and the stream,
 * so the id of another shard or stream is not taken for this one. Disabling the stream closes
 * its open shards. Hash ranges are unsigned; an end of 0 means 2^64.
 */
final class ShardLayout {
  /** DynamoDB closes shards after about four hours. */
  static final long LIFETIME_MILLIS = Duration.ofHours(4).toMillis();
  /** Records are kept 24 hours. */
  static final long RETENTION_MILLIS = Duration.ofHours(24).toMillis();

  private static final byte[] NO_PREFIX = new byte[0];

  private final StreamDefinition stream;
  private final String tableId;
  /** What starts the partitions of this stream's records (see {@link LoggedChange}). */
  private final byte[] prefix;

  /**
   * One shard.
   *
   * @param epoch the four-hour epoch it belongs to
   * @param open its StartingSequenceNumber
   * @param splitAt the sequence number of the split that closed it, or -1
   * @param parentId its ParentShardId, or null
   */
  record Shard(
      long epoch, long open, long start, long end, long splitAt, String id, String parentId) {
    boolean contains(long hash) {
      return Long.compareUnsigned(hash, start) >= 0
          && (end == 0 || Long.compareUnsigned(hash, end) < 0);
    }

    boolean sameKey(long otherOpen, long otherStart, long otherEnd) {
      return open == otherOpen && start == otherStart && end == otherEnd;
    }
  }

  ShardLayout(String tableId, StreamDefinition stream) {
    this.tableId = tableId;
    this.stream = stream;
    this.prefix =
        stream.shared() ? (stream.id(tableId) + "/").getBytes(StandardCharsets.UTF_8) : NO_PREFIX;
  }

  /** The partition of the records of shard {@code k} in the stream's space. */
  byte[] partition(Shard k) {
    return LoggedChange.partition(prefix, k.open(), k.start(), k.end());
  }

  StreamDefinition stream() {
    return stream;
  }

  long createdMillis() {
    return stream.created().toEpochMilli();
  }

  /** The epoch of a record with this sequence number. */
  long epochOf(long sequenceNumber) {
    return epochAt(sequenceNumber / StreamSequencer.PER_MILLI);
  }

  long epochAt(long millis) {
    return Math.max(0, (millis - createdMillis()) / LIFETIME_MILLIS);
  }

  long startMillis(long epoch) {
    return createdMillis() + epoch * LIFETIME_MILLIS;
  }

  /** The smallest sequence number epoch {@code epoch} may hold. */
  long firstSequence(long epoch) {
    return startMillis(epoch) * StreamSequencer.PER_MILLI;
  }

  /** The smallest sequence number past the end of epoch {@code epoch}. */
  long endSequence(long epoch) {
    return startMillis(epoch + 1) * StreamSequencer.PER_MILLI;
  }

  /** The last epoch: the open one, or the one the stream was disabled in. */
  long lastEpoch(long nowMillis) {
    long until = stream.enabled() ? nowMillis : stream.disabled().toEpochMilli();
    return epochAt(until);
  }

  /** The first epoch still kept: epochs whose whole span is older than 24 hours are gone. */
  long firstEpoch(long nowMillis) {
    long trim = nowMillis - RETENTION_MILLIS;
    if (trim <= createdMillis()) {
      return 0;
    }
    return (trim - createdMillis()) / LIFETIME_MILLIS;
  }

  // ---- routing -------------------------------------------------------------------------------

  /** The key of the shard a record with this sequence number and partition key hash goes to. */
  byte[] route(long sequenceNumber, long hash) {
    long[] leaf = leaf(epochOf(sequenceNumber), sequenceNumber, hash);
    return LoggedChange.partition(prefix, leaf[0], leaf[1], leaf[2]);
  }

  /**
   * The shard of epoch {@code epoch} holding {@code hash} in the layout refined by the splits
   * below {@code limit}: {open, start, end}.
   */
  private long[] leaf(long epoch, long limit, long hash) {
    List<Long> starts = stream.partitions();
    long start = 0;
    long end = 0;
    for (int i = 0; i < starts.size(); i++) {
      if (Long.compareUnsigned(starts.get(i), hash) <= 0) {
        start = starts.get(i);
        end = i + 1 < starts.size() ? starts.get(i + 1) : 0;
      }
    }
    long opened = -1;
    for (StreamDefinition.Split split : stream.splits()) {
      if (split.sequenceNumber() >= limit) {
        break;
      }
      if (inside(split.at(), start, end)) {
        if (Long.compareUnsigned(hash, split.at()) >= 0) {
          start = split.at();
        } else {
          end = split.at();
        }
        opened = split.sequenceNumber();
      }
    }
    long first = firstSequence(epoch);
    return new long[] {opened >= first ? opened : first, start, end};
  }

  /** Whether {@code at} divides {@code [start, end)} into two non-empty halves. */
  static boolean inside(long at, long start, long end) {
    return Long.compareUnsigned(at, start) > 0 && (end == 0 || Long.compareUnsigned(at, end) < 0);
  }

  /** The partition starts in force after every recorded split (for comparing with the model). */
  TreeSet<Long> currentStarts() {
    TreeSet<Long> out = new TreeSet<>(Long::compareUnsigned);
    out.addAll(stream.partitions().isEmpty() ? List.of(0L) : stream.partitions());
    for (StreamDefinition.Split split : stream.splits()) {
      out.add(split.at());
    }
    return out;
  }

  // ---- the shards ----------------------------------------------------------------------------

  /** The shards of epochs {@code from} to {@code to}, parents before children. */
  List<Shard> shards(long from, long to) {
    List<Shard> out = new ArrayList<>();
    List<StreamDefinition.Split> splits = stream.splits();
    for (long k = from; k <= to; k++) {
      long first = firstSequence(k);
      long end = endSequence(k);
      TreeSet<Long> starts = new TreeSet<>(Long::compareUnsigned);
      starts.addAll(stream.partitions().isEmpty() ? List.of(0L) : stream.partitions());
      for (StreamDefinition.Split split : splits) {
        if (split.sequenceNumber() < first) {
          starts.add(split.at());
        }
      }
      List<Shard> epoch = new ArrayList<>();
      List<Long> ordered = new ArrayList<>(starts);
      for (int i = 0; i < ordered.size(); i++) {
        long start = ordered.get(i);
        long rangeEnd = i + 1 < ordered.size() ? ordered.get(i + 1) : 0;
        String parent = null;
        if (k > 0) {
          long[] p = leaf(k - 1, first, start);
          parent = id(p[0], p[1], p[2]);
        }
        epoch.add(new Shard(k, first, start, rangeEnd, -1, id(first, start, rangeEnd), parent));
      }
      for (StreamDefinition.Split split : splits) {
        long f = split.sequenceNumber();
        if (f < first || f >= end) {
          continue;
        }
        for (int i = 0; i < epoch.size(); i++) {
          Shard s = epoch.get(i);
          if (s.splitAt() < 0 && inside(split.at(), s.start(), s.end())) {
            epoch.set(i, new Shard(k, s.open(), s.start(), s.end(), f, s.id(), s.parentId()));
            epoch.add(new Shard(k, f, s.start(), split.at(), -1, id(f, s.start(), split.at()),
                s.id()));
            epoch.add(new Shard(k, f, split.at(), s.end(), -1, id(f, split.at(), s.end()),
                s.id()));
            break;
          }
        }
      }
      out.addAll(epoch);
    }
    return out;
  }

  /** The shards still kept: epochs {@link #firstEpoch} to {@link #lastEpoch}. */
  List<Shard> kept(long nowMillis) {
    return shards(firstEpoch(nowMillis), lastEpoch(nowMillis));
  }

  /** A kept shard by id, or null. */
  Shard find(String shardId, long nowMillis) {
    for (Shard s : kept(nowMillis)) {
      if (s.id().equals(shardId)) {
        return s;
      }
    }
    return null;
  }

  /** A shard by key, searched in its own epoch, or null. */
  Shard find(long open, long start, long end) {
    for (Shard s : shards(epochOf(open), epochOf(open))) {
      if (s.sameKey(open, start, end)) {
        return s;
      }
    }
    return null;
  }

  String id(long open, long start, long end) {
    int check = (tableId + "/" + createdMillis() + "/" + open + "/" + start + "/" + end)
        .hashCode();
    return String.format("shardId-%020d-%08x", open / StreamSequencer.PER_MILLI, check);
  }
}
