package io.stator.stream;

import io.stator.schema.Catalog;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.OnConflict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Shards follow partitions: what a table's enabled stream records in the catalog of the capacity
 * model's partitions, its first layout and then each split, so that every split of a partition
 * closes its shard and opens two (see "Shards follow partitions" in {@link Streams}).
 */
final class ShardFollowing {
  private final Catalog catalog;
  private final StreamSequencer sequencer;
  private final Function<TableDefinition, long[]> partitions;
  private final Consumer<String> onCatalogChange;
  /** Per stream space, the model's partition starts the stream's definition already follows. */
  private final Map<String, Followed> followed = new ConcurrentHashMap<>();
  /**
   * Per stream space, the model's partition starts when this engine first followed a stream
   * that had recorded its layout before (in an earlier run): the model rebuilds its partitions
   * at start, and only its splits since are news to the stream.
   */
  private final Map<String, long[]> baselines = new ConcurrentHashMap<>();

  private record Followed(StreamDefinition stream, long[] starts) {}

  ShardFollowing(Catalog catalog, StreamSequencer sequencer,
      Function<TableDefinition, long[]> partitions, Consumer<String> onCatalogChange) {
    this.catalog = catalog;
    this.sequencer = sequencer;
    this.partitions = partitions;
    this.onCatalogChange = onCatalogChange;
  }

  /**
   * Records in the catalog what the table's enabled stream does not know yet of its partitions:
   * the first layout, or the splits since. Call before a write attempt reads the table's
   * definition (an attempt that changed the catalog itself would then fail on the version it
   * read); returns whether the catalog changed, and then the definition must be read again.
   */
  boolean follow(TableDefinition table) {
    StreamDefinition stream = table.enabledStream();
    return stream != null && follow(table, stream);
  }

  boolean follow(TableDefinition table, StreamDefinition stream) {
    String id = stream.id(table.tableId());
    long[] model = partitions.apply(table);
    Followed known = followed.get(id);
    if (known != null && known.stream() == stream && known.starts() == model) {
      return false;
    }
    long[] baseline = stream.partitions().isEmpty() ? model : baselines.computeIfAbsent(id,
        x -> model);
    if (!stream.partitions().isEmpty() && missing(stream, model, baseline).isEmpty()) {
      followed.put(id, new Followed(stream, model));
      return false;
    }
    boolean changed = false;
    synchronized (sequencer) { // no sequence number is taken while the layout changes
      Optional<Catalog.Entry> entry = catalog.get(table.name());
      if (entry.isEmpty() || !entry.get().table().tableId().equals(table.tableId())) {
        return false;
      }
      TableDefinition current = entry.get().table();
      StreamDefinition now = current.enabledStream();
      if (now == null || !now.created().equals(stream.created())) {
        return false;
      }
      StreamDefinition updated;
      if (now.partitions().isEmpty()) {
        List<Long> starts = new ArrayList<>();
        for (long start : model) {
          starts.add(start);
        }
        updated = now.withPartitions(starts);
        baselines.put(id, model);
      } else {
        List<StreamDefinition.Split> splits = new ArrayList<>();
        for (long at : splitOrder(now, missing(now, model, baseline))) {
          long f = sequencer.take(0);
          sequencer.resolve(f); // a number no record has: the split's place in the sequence
          splits.add(new StreamDefinition.Split(f, at));
        }
        if (splits.isEmpty()) {
          return false;
        }
        updated = now.withSplits(splits);
      }
      List<StreamDefinition> streams = new ArrayList<>(current.streams());
      streams.set(streams.size() - 1, updated);
      // A conflict: changed meanwhile (UpdateTable, another write's record of this split); the
      // write fails on the catalog version and retries with the new definition, which follows.
      changed = OnConflict.answer(() -> {
        catalog.replace(current.withStreams(streams), entry.get().version());
        return true;
      }, conflict -> false);
    }
    if (changed) {
      onCatalogChange.accept(table.name());
    }
    return changed;
  }

  /** The model's partition starts the stream's layout lacks, but for those of the baseline. */
  private static List<Long> missing(StreamDefinition stream, long[] model, long[] baseline) {
    TreeSet<Long> have = new ShardLayout("", stream).currentStarts();
    for (long start : baseline) {
      have.add(start);
    }
    List<Long> out = new ArrayList<>();
    for (long start : model) {
      if (!have.contains(start)) {
        out.add(start);
      }
    }
    return out;
  }

  /**
   * The order in which to record new boundaries as binary splits: within each range of the
   * stream's layout, the boundary nearest the middle of the new ones first, then each side, so
   * every split divides one shard into two, as DynamoDB's do.
   */
  private static List<Long> splitOrder(StreamDefinition stream, List<Long> boundaries) {
    List<Long> out = new ArrayList<>();
    List<Long> starts = new ArrayList<>(new ShardLayout("", stream).currentStarts());
    for (int i = 0; i < starts.size(); i++) {
      long start = starts.get(i);
      long end = i + 1 < starts.size() ? starts.get(i + 1) : 0;
      List<Long> inside = new ArrayList<>();
      for (long b : boundaries) {
        if (ShardLayout.inside(b, start, end)) {
          inside.add(b);
        }
      }
      inside.sort(Long::compareUnsigned);
      bisect(inside, 0, inside.size(), out);
    }
    return out;
  }

  private static void bisect(List<Long> sorted, int from, int to, List<Long> out) {
    if (from >= to) {
      return;
    }
    int middle = (from + to) >>> 1;
    out.add(sorted.get(middle));
    bisect(sorted, from, middle, out);
    bisect(sorted, middle + 1, to, out);
  }

  /** Forgets what was followed of a stream whose records are gone. */
  void forget(String streamId) {
    followed.remove(streamId);
    baselines.remove(streamId);
  }
}
