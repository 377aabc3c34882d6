package io.stator.stream;

import io.stator.api.DescribeStreamRequest;
import io.stator.api.DescribeStreamResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ListStreamsResponse;
import io.stator.api.SequenceNumberRange;
import io.stator.api.Shard;
import io.stator.api.Stream;
import io.stator.api.StreamDescription;
import io.stator.schema.Catalog;
import io.stator.schema.Constraints;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Storage;
import io.stator.storage.StoredRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** ListStreams and DescribeStream: the streams of the tables, and a stream's shards. */
final class StreamDescriptions {
  private final Storage storage;
  private final Catalog catalog;
  private final StreamSequencer sequencer;
  private final Watermarks watermarks;
  private final StreamLocator locator;
  private final StreamRetention retention;

  StreamDescriptions(Storage storage, Catalog catalog, StreamSequencer sequencer,
      Watermarks watermarks, StreamLocator locator, StreamRetention retention) {
    this.storage = storage;
    this.catalog = catalog;
    this.sequencer = sequencer;
    this.watermarks = watermarks;
    this.locator = locator;
    this.retention = retention;
  }

  ListStreamsResponse listStreams(ListStreamsRequest r) {
    Constraints c = new Constraints();
    c.atLeast("limit", r.limit(), 1).atMost("limit", r.limit(), 100);
    if (r.tableName() != null) {
      c.name("tableName", r.tableName());
    }
    StreamLocator.arnLength(c, "exclusiveStartStreamArn", r.exclusiveStartStreamArn());
    c.check();
    int limit = r.limit() == null ? 100 : r.limit();
    long now = sequencer.millis();
    List<TableDefinition> tables = new ArrayList<>();
    if (r.tableName() != null) {
      catalog.get(r.tableName()).ifPresent(e -> tables.add(e.table()));
      for (TableDefinition t : retention.retired(now)) {
        if (t.name().equals(r.tableName())) {
          tables.add(t);
        }
      }
      if (tables.isEmpty()) {
        throw DynamoDbException.resourceNotFound(
            "Requested resource not found: Table: " + r.tableName() + " not found");
      }
    } else {
      catalog.all().forEach(e -> tables.add(e.table()));
      tables.addAll(retention.retired(now));
    }
    List<Stream> all = new ArrayList<>();
    for (TableDefinition t : tables) {
      for (StreamDefinition s : t.streams()) {
        if (StreamRetention.kept(s, now)) {
          all.add(new Stream(locator.arn(t, s), t.name(), s.label()));
        }
      }
    }
    // By table name, then by creation (the label is the creation instant), live or deleted.
    all.sort(Comparator.comparing(Stream::tableName).thenComparing(Stream::streamLabel));
    int from = 0;
    if (r.exclusiveStartStreamArn() != null) {
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).streamArn().equals(r.exclusiveStartStreamArn())) {
          from = i + 1;
          break;
        }
      }
    }
    List<Stream> page = all.subList(Math.min(from, all.size()), Math.min(from + limit, all.size()));
    String last = from + limit < all.size() ? page.get(page.size() - 1).streamArn() : null;
    return new ListStreamsResponse(List.copyOf(page), last);
  }

  DescribeStreamResponse describeStream(DescribeStreamRequest r) {
    Constraints c = new Constraints();
    c.notNull("streamArn", r.streamArn());
    StreamLocator.arnLength(c, "streamArn", r.streamArn());
    c.atLeast("limit", r.limit(), 1).atMost("limit", r.limit(), 100);
    StreamLocator.shardIdLength(c, "exclusiveStartShardId", r.exclusiveStartShardId());
    if (r.shardFilter() != null) {
      c.notNull("shardFilter.type", r.shardFilter().type());
      c.oneOf("shardFilter.type", r.shardFilter().type(), "CHILD_SHARDS");
      StreamLocator.shardIdLength(c, "shardFilter.shardId", r.shardFilter().shardId());
    }
    c.check();
    if (r.shardFilter() != null && r.shardFilter().shardId() == null) {
      throw DynamoDbException.validation(
          "ShardFilter of type CHILD_SHARDS requires a ShardId");
    }
    LocatedStream s = locator.locate(r.streamArn());
    StreamSequencer.Settled settled = watermarks.settle(StreamReads.SETTLE_TIMEOUT_MILLIS);
    long now = settled.millis();
    ShardLayout layout = s.layout();
    retention.trimBefore(s, layout.firstEpoch(now));
    // In ascending ShardId order, as DynamoDB lists them (and the Kinesis adapter pages them):
    // by the shard's starting millisecond first, the id's leading digits.
    List<ShardLayout.Shard> kept = new ArrayList<>(layout.kept(now));
    kept.sort(Comparator.comparing(ShardLayout.Shard::id));
    List<ShardLayout.Shard> listed = kept;
    if (r.shardFilter() != null) {
      String parent = r.shardFilter().shardId();
      if (kept.stream().noneMatch(k -> k.id().equals(parent))) {
        throw DynamoDbException.resourceNotFound(
            "Requested resource not found: Shard " + parent + " not found");
      }
      listed = kept.stream().filter(k -> parent.equals(k.parentId())).toList();
    } else if (r.exclusiveStartShardId() != null) {
      // The shards after it in that order, whether or not it is still kept: past the last
      // shard, none.
      String after = r.exclusiveStartShardId();
      listed = kept.stream().filter(k -> k.id().compareTo(after) > 0).toList();
    }
    int limit = r.limit() == null ? 100 : r.limit();
    List<Shard> shards = new ArrayList<>();
    for (ShardLayout.Shard k : listed.subList(0, Math.min(limit, listed.size()))) {
      shards.add(shard(s, layout, k, settled));
    }
    String lastEvaluated =
        listed.size() > limit ? shards.get(shards.size() - 1).shardId() : null;
    TableDefinition t = s.table();
    List<KeySchemaElement> keySchema = new ArrayList<>();
    keySchema.add(new KeySchemaElement(t.hashKey().name(), "HASH"));
    if (t.hasRangeKey()) {
      keySchema.add(new KeySchemaElement(t.rangeKey().name(), "RANGE"));
    }
    return new DescribeStreamResponse(
        new StreamDescription(
            locator.arn(t, s.stream()),
            s.stream().label(),
            s.stream().enabled() ? "ENABLED" : "DISABLED",
            s.stream().viewType(),
            s.stream().created(),
            t.name(),
            keySchema,
            shards,
            lastEvaluated));
  }

  private Shard shard(
      LocatedStream s, ShardLayout layout, ShardLayout.Shard k, StreamSequencer.Settled settled) {
    String ending = null;
    if (s.closed(layout, k, settled)) {
      long close = k.splitAt() >= 0 ? k.splitAt() : layout.endSequence(k.epoch());
      long end = Math.max(k.open(), close - 1);
      List<StoredRecord> lastRecord =
          storage.query(s.space(), layout.partition(k), null, null, false, 1);
      if (!lastRecord.isEmpty()) {
        end = LoggedChange.sequenceNumber(lastRecord.get(0).key());
      }
      ending = StreamSequencer.format(end);
    }
    return new Shard(
        k.id(),
        new SequenceNumberRange(StreamSequencer.format(k.open()), ending),
        k.parentId());
  }
}
