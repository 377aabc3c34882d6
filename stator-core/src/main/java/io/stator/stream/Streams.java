package io.stator.stream;

import io.stator.EngineOptions;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.KeySchemaElement;
import io.stator.api.streams.DescribeStreamRequest;
import io.stator.api.streams.DescribeStreamResponse;
import io.stator.api.streams.DynamoDbStreams;
import io.stator.api.streams.GetRecordsRequest;
import io.stator.api.streams.GetRecordsResponse;
import io.stator.api.streams.GetShardIteratorRequest;
import io.stator.api.streams.GetShardIteratorResponse;
import io.stator.api.streams.Identity;
import io.stator.api.streams.ListStreamsRequest;
import io.stator.api.streams.ListStreamsResponse;
import io.stator.api.streams.Record;
import io.stator.api.streams.SequenceNumberRange;
import io.stator.api.streams.Shard;
import io.stator.api.streams.Stream;
import io.stator.api.streams.StreamDescription;
import io.stator.api.streams.StreamRecord;
import io.stator.item.ItemSize;
import io.stator.schema.Catalog;
import io.stator.schema.Constraints;
import io.stator.schema.KeyAttribute;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * DynamoDB Streams: the records every write adds to its table's stream, and the Streams API
 * that reads them.
 *
 * <h2>Writing</h2>
 *
 * Every write path (PutItem, UpdateItem, DeleteItem, each write of a BatchWriteItem, each item
 * of a TransactWriteItems, the Time to Live sweeper's deletes) computes the old and the new item
 * and calls {@code Indexes.stage}, which calls {@link #stage} here: when the table has an
 * enabled stream and the write changes the item, one record (INSERT, MODIFY or REMOVE, by
 * whether the item existed before and after; images by the view type) joins the write's own
 * commit. So a record exists if and only if its change committed, and a crash can neither lose
 * one nor record a change that did not happen. A write that changes nothing (a delete of an
 * absent item, a put or update that leaves the item as it was) writes no record, as DynamoDB
 * documents. The commit also expects the table's catalog version (Indexes adds that), so a write
 * computed while the stream was enabled cannot commit after UpdateTable disabled it.
 *
 * <h2>Order and visibility</h2>
 *
 * A record's sequence number comes from {@link StreamSequencer}: strictly increasing, taken
 * after the item was read, so two changes of one item are numbered in commit order. A reader
 * first settles the sequencer (waits for the writes that took numbers before it to resolve, the
 * time of a commit) and reads only below that point: a record is readable as soon as its write
 * is acknowledged, and no reader moves past a number whose record may still appear.
 *
 * <h2>Shards and retention</h2>
 *
 * See {@link ShardLayout}: one open shard per stream, rotated every four hours of the engine's
 * clock. Records are readable for 24 hours (older ones are skipped by readers, and an iterator
 * pointing before that is refused with TrimmedDataAccessException); a disabled stream stays
 * readable for 24 hours and is then forgotten by the next UpdateTable of its table, which drops
 * its space. Iterators are opaque strings carrying the stream, shard, position and the time they
 * were made; they expire after 15 minutes.
 *
 * <p>Like the table cache, the sequencer is in memory: one engine owns the streams of its
 * storage.
 */
public final class Streams implements DynamoDbStreams {
  static final long ITERATOR_LIFETIME_MILLIS = Duration.ofMinutes(15).toMillis();
  private static final long SETTLE_TIMEOUT_MILLIS = 2000;
  private static final int MAX_RECORDS = 1000;
  private static final long MAX_RESPONSE_BYTES = 1024 * 1024;

  private final Storage storage;
  private final Catalog catalog;
  private final String region;
  private final String arnPrefix;
  private final StreamSequencer sequencer;
  /** Per stream space, the shards below which records have been deleted (since start). */
  private final Map<String, Long> trimmedShards = new java.util.concurrent.ConcurrentHashMap<>();

  public Streams(Storage storage, Catalog catalog, EngineOptions options) {
    this.storage = storage;
    this.catalog = catalog;
    this.region = options.region();
    this.arnPrefix = "arn:aws:dynamodb:" + options.region() + ":" + options.accountId() + ":table/";
    this.sequencer = new StreamSequencer(options.clock());
    recover();
  }

  // ---- the write hook ------------------------------------------------------------------------

  /**
   * Adds the stream record of one write attempt to {@code commit}, if the table has an enabled
   * stream and the write changes the item; returns its sequence number, to {@link #resolve} after
   * the commit attempt, or -1 when no record was staged.
   *
   * @param identity who made the change when the service did (Time to Live), else null
   */
  public long stage(
      TableDefinition table, Map<String, AttributeValue> oldItem,
      Map<String, AttributeValue> newItem, Commit commit, UserIdentity identity) {
    StreamDefinition stream = table.enabledStream();
    if (stream == null || (oldItem == null ? newItem == null : oldItem.equals(newItem))) {
      return -1;
    }
    String eventName = oldItem == null ? "INSERT" : newItem == null ? "REMOVE" : "MODIFY";
    Map<String, AttributeValue> keys = keys(table, newItem != null ? newItem : oldItem);
    String view = stream.viewType();
    boolean keepsOld = view.equals("OLD_IMAGE") || view.equals("NEW_AND_OLD_IMAGES");
    boolean keepsNew = view.equals("NEW_IMAGE") || view.equals("NEW_AND_OLD_IMAGES");
    LoggedChange change =
        new LoggedChange(
            eventName, keys, keepsOld ? oldItem : null, keepsNew ? newItem : null,
            identity == null ? null : identity.type(),
            identity == null ? null : identity.principalId());
    ShardLayout layout = new ShardLayout(table.tableId(), stream);
    long sequenceNumber = sequencer.take(layout.firstSequence(0));
    commit.put(
        stream.space(table.tableId()),
        LoggedChange.key(layout.shardOf(sequenceNumber), sequenceNumber),
        change.encode());
    return sequenceNumber;
  }

  /** The commit attempt of a staged record finished (committed or not). */
  public void resolve(long sequenceNumber) {
    if (sequenceNumber >= 0) {
      sequencer.resolve(sequenceNumber);
    }
  }

  private static Map<String, AttributeValue> keys(
      TableDefinition table, Map<String, AttributeValue> item) {
    Map<String, AttributeValue> keys = new LinkedHashMap<>();
    for (KeyAttribute k : table.keyAttributes()) {
      keys.put(k.name(), item.get(k.name()));
    }
    return keys;
  }

  // ---- ListStreams ---------------------------------------------------------------------------

  @Override
  public ListStreamsResponse listStreams(ListStreamsRequest r) {
    Constraints c = new Constraints();
    c.atLeast("limit", r.limit(), 1).atMost("limit", r.limit(), 100);
    if (r.tableName() != null) {
      c.name("tableName", r.tableName());
    }
    arnLength(c, "exclusiveStartStreamArn", r.exclusiveStartStreamArn());
    c.check();
    int limit = r.limit() == null ? 100 : r.limit();
    long now = sequencer.millis();
    List<Catalog.Entry> tables;
    if (r.tableName() != null) {
      tables =
          List.of(catalog.get(r.tableName()).orElseThrow(() -> DynamoDbException.resourceNotFound(
              "Requested resource not found: Table: " + r.tableName() + " not found")));
    } else {
      tables = catalog.all();
    }
    List<Stream> all = new ArrayList<>();
    for (Catalog.Entry e : tables) {
      for (StreamDefinition s : e.table().streams()) {
        if (kept(s, now)) {
          all.add(new Stream(arn(e.table(), s), e.table().name(), s.label()));
        }
      }
    }
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

  // ---- DescribeStream ------------------------------------------------------------------------

  @Override
  public DescribeStreamResponse describeStream(DescribeStreamRequest r) {
    Constraints c = new Constraints();
    c.notNull("streamArn", r.streamArn());
    arnLength(c, "streamArn", r.streamArn());
    c.atLeast("limit", r.limit(), 1).atMost("limit", r.limit(), 100);
    shardIdLength(c, "exclusiveStartShardId", r.exclusiveStartShardId());
    if (r.shardFilter() != null) {
      c.notNull("shardFilter.type", r.shardFilter().type());
      c.oneOf("shardFilter.type", r.shardFilter().type(), "CHILD_SHARDS");
      shardIdLength(c, "shardFilter.shardId", r.shardFilter().shardId());
    }
    c.check();
    if (r.shardFilter() != null && r.shardFilter().shardId() == null) {
      throw DynamoDbException.validation(
          "ShardFilter of type CHILD_SHARDS requires a ShardId");
    }
    Located s = locate(r.streamArn());
    StreamSequencer.Settled settled = sequencer.settle(SETTLE_TIMEOUT_MILLIS);
    long now = settled.millis();
    ShardLayout layout = s.layout();
    long first = layout.firstShard(now);
    long last = layout.lastShard(now);
    trimBefore(s, first);
    long from = first;
    long to = last;
    if (r.shardFilter() != null) {
      long parent = layout.shard(r.shardFilter().shardId());
      if (parent < 0 || parent > last) {
        throw DynamoDbException.resourceNotFound(
            "Requested resource not found: Shard " + r.shardFilter().shardId() + " not found");
      }
      from = parent + 1;
      to = Math.min(parent + 1, last);
    } else if (r.exclusiveStartShardId() != null) {
      long after = layout.shard(r.exclusiveStartShardId());
      if (after >= 0) {
        from = Math.max(first, after + 1);
      }
    }
    int limit = r.limit() == null ? 100 : r.limit();
    List<Shard> shards = new ArrayList<>();
    for (long k = from; k <= to && shards.size() < limit; k++) {
      shards.add(shard(s, layout, k, settled));
    }
    String lastEvaluated =
        from + shards.size() <= to ? shards.get(shards.size() - 1).shardId() : null;
    TableDefinition t = s.table();
    List<KeySchemaElement> keySchema = new ArrayList<>();
    keySchema.add(new KeySchemaElement(t.hashKey().name(), "HASH"));
    if (t.hasRangeKey()) {
      keySchema.add(new KeySchemaElement(t.rangeKey().name(), "RANGE"));
    }
    return new DescribeStreamResponse(
        new StreamDescription(
            arn(t, s.stream()),
            s.stream().label(),
            s.stream().enabled() ? "ENABLED" : "DISABLED",
            s.stream().viewType(),
            s.stream().created(),
            t.name(),
            keySchema,
            shards,
            lastEvaluated));
  }

  private Shard shard(Located s, ShardLayout layout, long k, StreamSequencer.Settled settled) {
    String ending = null;
    if (closed(s, layout, k, settled)) {
      long end = Math.max(layout.firstSequence(k), layout.endSequence(k) - 1);
      List<StoredRecord> lastRecord =
          storage.query(s.space(), LoggedChange.partition(k), null, null, false, 1);
      if (!lastRecord.isEmpty()) {
        end = LoggedChange.sequenceNumber(lastRecord.get(0).key());
      }
      ending = StreamSequencer.format(end);
    }
    return new Shard(
        layout.shardId(k),
        new SequenceNumberRange(StreamSequencer.format(layout.firstSequence(k)), ending),
        k == 0 ? null : layout.shardId(k - 1));
  }

  /**
   * Whether shard {@code k} can receive no more records: its four hours are over (or the stream
   * was disabled in it) and every write that took a number before the settle point resolved.
   */
  private static boolean closed(
      Located s, ShardLayout layout, long k, StreamSequencer.Settled settled) {
    if (!settled.complete()) {
      return false;
    }
    if (k < layout.lastShard(settled.millis())) {
      return settled.bound() >= layout.endSequence(k);
    }
    return !s.stream().enabled();
  }

  // ---- GetShardIterator ----------------------------------------------------------------------

  @Override
  public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest r) {
    Constraints c = new Constraints();
    c.notNull("streamArn", r.streamArn());
    arnLength(c, "streamArn", r.streamArn());
    c.notNull("shardId", r.shardId());
    shardIdLength(c, "shardId", r.shardId());
    c.notNull("shardIteratorType", r.shardIteratorType());
    c.oneOf("shardIteratorType", r.shardIteratorType(),
        "TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER");
    if (r.sequenceNumber() != null) {
      c.lengthAtLeast("sequenceNumber", r.sequenceNumber(), r.sequenceNumber().length(), 21);
      c.lengthAtMost("sequenceNumber", r.sequenceNumber(), r.sequenceNumber().length(), 40);
    }
    c.check();
    boolean positioned = r.shardIteratorType().endsWith("_SEQUENCE_NUMBER");
    if (positioned && r.sequenceNumber() == null) {
      throw DynamoDbException.validation(
          "SequenceNumber is required when ShardIteratorType is " + r.shardIteratorType());
    }
    Located s = locate(r.streamArn());
    StreamSequencer.Settled settled = sequencer.settle(SETTLE_TIMEOUT_MILLIS);
    long now = settled.millis();
    ShardLayout layout = s.layout();
    long k = layout.shard(r.shardId());
    if (k < layout.firstShard(now) || k > layout.lastShard(now)) {
      throw DynamoDbException.resourceNotFound(
          "Requested resource not found: Shard does not exist");
    }
    long position;
    switch (r.shardIteratorType()) {
      case "TRIM_HORIZON" -> position = Iterator.TRIM_HORIZON;
      case "LATEST" -> position = settled.bound() - 1;
      default -> {
        long n = StreamSequencer.parse(r.sequenceNumber());
        if (n < 0 || layout.shardOf(n) != k || n < layout.firstSequence(k)) {
          throw DynamoDbException.validation(
              "Invalid SequenceNumber " + r.sequenceNumber() + " for shard " + r.shardId());
        }
        if (n < trimPoint(now)) {
          throw trimmed();
        }
        position = r.shardIteratorType().equals("AT_SEQUENCE_NUMBER") ? n - 1 : n;
      }
    }
    Iterator iterator =
        new Iterator(s.table().tableId(), s.layout().createdMillis(), k, position, now,
            r.streamArn());
    return new GetShardIteratorResponse(iterator.encode());
  }

  // ---- GetRecords ----------------------------------------------------------------------------

  @Override
  public GetRecordsResponse getRecords(GetRecordsRequest r) {
    Constraints c = new Constraints();
    c.notNull("shardIterator", r.shardIterator());
    if (r.shardIterator() != null) {
      c.lengthAtLeast("shardIterator", r.shardIterator(), r.shardIterator().length(), 1);
      c.lengthAtMost("shardIterator", r.shardIterator(), r.shardIterator().length(), 2048);
    }
    c.atLeast("limit", r.limit(), 1);
    c.check();
    if (r.limit() != null && r.limit() > MAX_RECORDS) {
      // DynamoDB documents LimitExceededException for a Limit above 1000.
      throw new DynamoDbException(
          ErrorType.LimitExceededException,
          "Limit must be less than or equal to " + MAX_RECORDS + ", but was " + r.limit());
    }
    Iterator iterator = Iterator.decode(r.shardIterator());
    StreamSequencer.Settled settled = sequencer.settle(SETTLE_TIMEOUT_MILLIS);
    long now = settled.millis();
    if (now - iterator.issuedMillis() > ITERATOR_LIFETIME_MILLIS) {
      throw new DynamoDbException(
          ErrorType.ExpiredIteratorException,
          "The provided iterator exceeds the maximum age allowed.");
    }
    Located s = locate(iterator.streamArn());
    if (!s.table().tableId().equals(iterator.tableId())
        || s.layout().createdMillis() != iterator.streamCreatedMillis()) {
      throw DynamoDbException.resourceNotFound(
          "Requested resource not found: Stream: " + iterator.streamArn() + " not found");
    }
    ShardLayout layout = s.layout();
    long k = iterator.shard();
    long trim = trimPoint(now);
    if (k < layout.firstShard(now)) {
      throw trimmed();
    }
    long after = iterator.position();
    if (after == Iterator.TRIM_HORIZON) {
      after = Math.max(layout.firstSequence(k), trim) - 1;
    } else if (after + 1 < trim && layout.firstSequence(k) < trim) {
      throw trimmed(); // the records this iterator points at are older than 24 hours
    }
    int limit = r.limit() == null ? MAX_RECORDS : r.limit();
    List<StoredRecord> stored =
        storage.query(
            s.space(), LoggedChange.partition(k), Bound.exclusive(LoggedChange.sort(after)),
            Bound.exclusive(LoggedChange.sort(settled.bound())), true, limit);
    List<Record> records = new ArrayList<>(stored.size());
    long bytes = 0;
    long last = after;
    for (StoredRecord rec : stored) {
      Record record = record(s, LoggedChange.sequenceNumber(rec.key()), rec.value());
      bytes += record.dynamodb().sizeBytes();
      if (!records.isEmpty() && bytes > MAX_RESPONSE_BYTES) {
        break;
      }
      records.add(record);
      last = LoggedChange.sequenceNumber(rec.key());
    }
    boolean exhausted = records.size() == stored.size() && stored.size() < limit;
    String next = null;
    if (!(exhausted && closed(s, layout, k, settled))) {
      next =
          new Iterator(iterator.tableId(), iterator.streamCreatedMillis(), k, last, now,
              iterator.streamArn()).encode();
    }
    return new GetRecordsResponse(records, next);
  }

  private Record record(Located s, long sequenceNumber, byte[] value) {
    LoggedChange change = LoggedChange.decode(value);
    long size = ItemSize.of(change.keys());
    if (change.oldImage() != null) {
      size += ItemSize.of(change.oldImage());
    }
    if (change.newImage() != null) {
      size += ItemSize.of(change.newImage());
    }
    long millis = sequenceNumber / StreamSequencer.PER_MILLI;
    String eventId =
        UUID.nameUUIDFromBytes(
                (s.space() + "/" + sequenceNumber).getBytes(StandardCharsets.UTF_8))
            .toString()
            .replace("-", "");
    return new Record(
        eventId,
        change.eventName(),
        "1.1",
        "aws:dynamodb",
        region,
        new StreamRecord(
            Instant.ofEpochSecond(Math.floorDiv(millis, 1000)),
            change.keys(),
            change.newImage(),
            change.oldImage(),
            StreamSequencer.format(sequenceNumber),
            Math.max(1, size),
            s.stream().viewType()),
        change.identityType() == null
            ? null
            : new Identity(change.identityPrincipal(), change.identityType()));
  }

  /**
   * Deletes the records of shards older than the retention (before {@code first}), which no
   * reader can reach any more. Consumers describe their stream regularly, so that is when it
   * happens; a shard's records go once all of its span is older than 24 hours.
   */
  private void trimBefore(Located s, long first) {
    String space = s.space();
    long from = trimmedShards.getOrDefault(space, 0L);
    for (long k = from; k < first; k++) {
      while (true) {
        List<StoredRecord> batch =
            storage.query(space, LoggedChange.partition(k), null, null, true, 1000);
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
    if (first > from) {
      trimmedShards.put(space, first);
    }
  }

  // ---- common --------------------------------------------------------------------------------

  /** A stream found by its ARN, with its table. */
  private record Located(TableDefinition table, StreamDefinition stream) {
    ShardLayout layout() {
      return new ShardLayout(table.tableId(), stream);
    }

    String space() {
      return stream.space(table.tableId());
    }
  }

  private Located locate(String streamArn) {
    DynamoDbException notFound =
        DynamoDbException.resourceNotFound(
            "Requested resource not found: Stream: " + streamArn + " not found");
    if (!streamArn.startsWith(arnPrefix)) {
      throw notFound;
    }
    String rest = streamArn.substring(arnPrefix.length());
    int marker = rest.indexOf("/stream/");
    if (marker <= 0) {
      throw notFound;
    }
    String tableName = rest.substring(0, marker);
    String label = rest.substring(marker + "/stream/".length());
    Optional<Catalog.Entry> entry;
    try {
      entry = catalog.get(tableName);
    } catch (StorageException e) {
      throw notFound;
    }
    long now = sequencer.millis();
    if (entry.isPresent()) {
      for (StreamDefinition s : entry.get().table().streams()) {
        if (s.label().equals(label) && kept(s, now)) {
          return new Located(entry.get().table(), s);
        }
      }
    }
    throw notFound;
  }

  /** A disabled stream stays readable for 24 hours. */
  static boolean kept(StreamDefinition s, long nowMillis) {
    return s.enabled()
        || s.disabled().toEpochMilli() + ShardLayout.RETENTION_MILLIS > nowMillis;
  }

  /** The smallest sequence number still kept: records made in the last 24 hours. */
  private static long trimPoint(long nowMillis) {
    return (nowMillis - ShardLayout.RETENTION_MILLIS) * StreamSequencer.PER_MILLI;
  }

  String arn(TableDefinition table, StreamDefinition stream) {
    return arnPrefix + table.name() + "/stream/" + stream.label();
  }

  private static DynamoDbException trimmed() {
    return new DynamoDbException(
        ErrorType.TrimmedDataAccessException,
        "The data you are trying to access has been trimmed.");
  }

  private static void arnLength(Constraints c, String path, String arn) {
    if (arn != null) {
      c.lengthAtLeast(path, arn, arn.length(), 37);
      c.lengthAtMost(path, arn, arn.length(), 1024);
    }
  }

  private static void shardIdLength(Constraints c, String path, String shardId) {
    if (shardId != null) {
      c.lengthAtLeast(path, shardId, shardId.length(), 28);
      c.lengthAtMost(path, shardId, shardId.length(), 65);
    }
  }

  /** At start: continue numbering above the largest sequence number of any kept stream. */
  private void recover() {
    long now = sequencer.millis();
    for (Catalog.Entry e : catalog.all()) {
      for (StreamDefinition s : e.table().streams()) {
        ShardLayout layout = new ShardLayout(e.table().tableId(), s);
        String space = s.space(e.table().tableId());
        for (long k = layout.lastShard(now); k >= layout.firstShard(now); k--) {
          List<StoredRecord> last;
          try {
            last = storage.query(space, LoggedChange.partition(k), null, null, false, 1);
          } catch (StorageException missing) {
            break;
          }
          if (!last.isEmpty()) {
            sequencer.advanceTo(LoggedChange.sequenceNumber(last.get(0).key()));
            break;
          }
        }
      }
    }
  }
}
