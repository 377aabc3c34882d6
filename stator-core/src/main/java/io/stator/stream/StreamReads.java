package io.stator.stream;

import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetRecordsResponse;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.GetShardIteratorResponse;
import io.stator.api.Identity;
import io.stator.api.Record;
import io.stator.api.Shard;
import io.stator.api.Stream;
import io.stator.api.StreamRecord;
import io.stator.item.ItemSize;
import io.stator.schema.Constraints;
import io.stator.storage.Bound;
import io.stator.storage.Storage;
import io.stator.storage.StoredRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * GetShardIterator and GetRecords: a position in a shard, and the records after it up to the
 * point every writer has settled (see "Reading" in {@link Streams}).
 */
final class StreamReads {
  static final long ITERATOR_LIFETIME_MILLIS = Duration.ofMinutes(15).toMillis();
  /** How long a reader waits for the writers holding numbers below its settle point. */
  static final long SETTLE_TIMEOUT_MILLIS = 2000;
  private static final int MAX_RECORDS = 1000;
  private static final long MAX_RESPONSE_BYTES = 1024 * 1024;

  private final Storage storage;
  private final StreamSequencer sequencer;
  private final Watermarks watermarks;
  private final StreamLocator locator;
  private final String region;

  StreamReads(Storage storage, StreamSequencer sequencer, Watermarks watermarks,
      StreamLocator locator, String region) {
    this.storage = storage;
    this.sequencer = sequencer;
    this.watermarks = watermarks;
    this.locator = locator;
    this.region = region;
  }

  GetShardIteratorResponse getShardIterator(GetShardIteratorRequest r) {
    Constraints c = new Constraints();
    c.notNull("streamArn", r.streamArn());
    StreamLocator.arnLength(c, "streamArn", r.streamArn());
    c.notNull("shardId", r.shardId());
    StreamLocator.shardIdLength(c, "shardId", r.shardId());
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
    LocatedStream s = locator.locate(r.streamArn());
    StreamSequencer.Settled settled = watermarks.settle(SETTLE_TIMEOUT_MILLIS);
    long now = settled.millis();
    ShardLayout layout = s.layout();
    ShardLayout.Shard k = layout.find(r.shardId(), now);
    if (k == null) {
      throw DynamoDbException.resourceNotFound(
          "Requested resource not found: Shard does not exist");
    }
    long position;
    switch (r.shardIteratorType()) {
      case "TRIM_HORIZON" -> position = ShardIterator.TRIM_HORIZON;
      case "LATEST" -> position = settled.bound() - 1;
      default -> {
        long n = StreamSequencer.parse(r.sequenceNumber());
        boolean inShard = n >= k.open()
            && (k.splitAt() >= 0 ? n < k.splitAt() : layout.epochOf(n) == k.epoch());
        if (n < 0 || !inShard) {
          throw DynamoDbException.validation(
              "Invalid SequenceNumber " + r.sequenceNumber() + " for shard " + r.shardId());
        }
        if (n < StreamRetention.trimPoint(now)) {
          throw trimmed();
        }
        position = r.shardIteratorType().equals("AT_SEQUENCE_NUMBER") ? n - 1 : n;
      }
    }
    ShardIterator iterator =
        new ShardIterator(s.table().tableId(), layout.createdMillis(), k, position, now,
            r.streamArn());
    return new GetShardIteratorResponse(iterator.encode());
  }

  GetRecordsResponse getRecords(GetRecordsRequest r) {
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
    ShardIterator iterator = ShardIterator.decode(r.shardIterator());
    long nowMillis = sequencer.millis();
    if (nowMillis - iterator.issuedMillis() > ITERATOR_LIFETIME_MILLIS) {
      throw expired(iterator.issuedMillis(), nowMillis);
    }
    // The definition first, then the settle point: see "Shards follow partitions".
    LocatedStream s = locator.locate(iterator.streamArn());
    if (!s.table().tableId().equals(iterator.tableId())
        || s.layout().createdMillis() != iterator.streamCreatedMillis()) {
      throw DynamoDbException.resourceNotFound(
          "Requested resource not found: Stream: " + iterator.streamArn() + " not found");
    }
    StreamSequencer.Settled settled = watermarks.settle(SETTLE_TIMEOUT_MILLIS);
    long now = settled.millis();
    ShardLayout layout = s.layout();
    if (layout.epochOf(iterator.open()) < layout.firstEpoch(now)) {
      throw trimmed();
    }
    ShardLayout.Shard k = layout.find(iterator.open(), iterator.start(), iterator.end());
    if (k == null) {
      throw DynamoDbException.validation("Invalid ShardIterator");
    }
    long trim = StreamRetention.trimPoint(now);
    long after = iterator.position();
    if (after == ShardIterator.TRIM_HORIZON) {
      after = Math.max(k.open(), trim) - 1;
    } else if (after + 1 < trim && k.open() < trim) {
      throw trimmed(); // the records this iterator points at are older than 24 hours
    }
    int limit = r.limit() == null ? MAX_RECORDS : r.limit();
    List<StoredRecord> stored =
        storage.query(
            s.space(), layout.partition(k), Bound.exclusive(LoggedChange.sort(after)),
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
    if (!(exhausted && s.closed(layout, k, settled))) {
      next =
          new ShardIterator(iterator.tableId(), iterator.streamCreatedMillis(), k, last, now,
              iterator.streamArn()).encode();
    }
    return new GetRecordsResponse(records, next);
  }

  private Record record(LocatedStream s, long sequenceNumber, byte[] value) {
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
                (s.id() + "/" + sequenceNumber).getBytes(StandardCharsets.UTF_8))
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

  /** A time as the service writes it in a message: {@code Wed Mar 04 01:02:40 UTC 2020}. */
  private static final DateTimeFormatter MESSAGE_TIME =
      DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss 'UTC' yyyy", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /**
   * An iterator past its 15 minutes, in the words of the Kinesis service that DynamoDB Streams'
   * clients (the Kinesis adapter) share: when it was made, the time now, and the delay allowed.
   */
  private static DynamoDbException expired(long issuedMillis, long nowMillis) {
    return new DynamoDbException(
        ErrorType.ExpiredIteratorException,
        "Iterator expired. The iterator was created at time "
            + MESSAGE_TIME.format(Instant.ofEpochMilli(issuedMillis))
            + " while right now it is " + MESSAGE_TIME.format(Instant.ofEpochMilli(nowMillis))
            + " which is further in the future than the tolerated delay of "
            + ITERATOR_LIFETIME_MILLIS + " milliseconds.");
  }

  private static DynamoDbException trimmed() {
    return new DynamoDbException(
        ErrorType.TrimmedDataAccessException,
        "The data you are trying to access has been trimmed.");
  }
}
