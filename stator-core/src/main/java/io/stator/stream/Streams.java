package io.stator.stream;

import io.stator.api.DescribeStreamRequest;
import io.stator.api.DescribeStreamResponse;
import io.stator.api.DynamoDbException;
import io.stator.api.DynamoDbStreams;
import io.stator.api.ErrorType;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetRecordsResponse;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.GetShardIteratorResponse;
import io.stator.api.Identity;
import io.stator.api.KeySchemaElement;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ListStreamsResponse;
import io.stator.api.Record;
import io.stator.api.SequenceNumberRange;
import io.stator.api.Shard;
import io.stator.api.Stream;
import io.stator.api.StreamDescription;
import io.stator.api.StreamRecord;
import io.stator.item.ItemSize;
import io.stator.key.KeyCodec;
import io.stator.schema.Catalog;
import io.stator.schema.Constraints;
import io.stator.schema.KeyAttribute;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.OnConflict;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

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
 * commit, numbered ({@link #number}) once every check of the attempt has passed. So a record exists if and only if its change committed, and a crash can neither lose
 * one nor record a change that did not happen. A write that changes nothing (a delete of an
 * absent item, a put or update that leaves the item as it was) writes no record, as DynamoDB
 * documents. The commit also expects the table's catalog version (Indexes adds that), so a write
 * computed while the stream was enabled cannot commit after UpdateTable disabled it.
 *
 * <h2>Order and visibility</h2>
 *
 * A record's sequence number comes from {@link StreamSequencer}: strictly increasing, taken
 * after the item was read (just before the commit), so two changes of one item are numbered in
 * commit order, and an attempt refused before its commit takes none. A reader
 * first settles the sequencer (waits for the writes that took numbers before it to resolve, the
 * time of a commit) and reads only below that point: a record is readable as soon as its write
 * is acknowledged, and no reader moves past a number whose record may still appear.
 *
 * <h2>Shards follow partitions</h2>
 *
 * See {@link ShardLayout}: one open shard per partition of the table (the partitions of the
 * capacity model), children when a partition splits, and every four hours of the engine's
 * clock. The layout a stream follows is recorded in its definition in the catalog: the
 * partition starts when it was first needed, then each split with the sequence number {@code
 * F} from which records go to its halves. A record's shard is a function of its sequence
 * number, its key's hash and that recorded history, so readers, writers and a restarted engine
 * all derive the same shards.
 *
 * <p>When a write finds that the capacity model has split a partition the stream has not
 * recorded ({@link #follow}, before its attempt reads the table's definition, so that the attempt
 * itself never changes the catalog), it records the split: holding the sequencer's lock (so that no
 * sequence number is taken meanwhile), it takes {@code F} and commits the new definition to
 * the catalog, then lets go. The ordering argument, which is why a record never lands in a
 * closed shard after a consumer has read its end:
 *
 * <ul>
 *   <li>Every write expects the catalog version it was computed against. A writer that routed
 *       its record with the old layout either commits before the catalog commit, and then took
 *       its number before the lock was taken, so below {@code F}: its record is in the parent,
 *       where the derived layout puts a number below {@code F}; or it commits after, and its
 *       commit fails on the catalog version and is retried against the new definition. A writer
 *       with the new definition read it after the catalog commit, so its number is above
 *       {@code F}: its record is in a child.
 *   <li>A reader reads the definition first and then settles the sequencer. If it sees the
 *       split, {@code F} was taken before, so the settle point is above it, and the settle
 *       waits for every writer holding a number below it: every record the parent will ever
 *       have is committed (or abandoned) before the reader calls the parent closed and gives
 *       its EndingSequenceNumber.
 *   <li>Per item order: two changes of an item commit in sequence number order (see {@link
 *       StreamSequencer}); if the first is in the parent and the second in a child, a consumer
 *       that reads the parent before its children sees them in order. Rotation is the same
 *       with the epoch boundary in place of {@code F}.
 * </ul>
 *
 * Why not route by the capacity model's current partitions directly: the model is in memory
 * and a split happens between a writer's routing and its commit, so two writers could put one
 * item's changes in two shards the wrong way round, and a restart (which rebuilds the model)
 * would find other shards. Why the lock: without it, a writer could take a number above {@code
 * F} and still commit with the old definition before the catalog commit, landing in the parent
 * above its end. The lock is held for one catalog commit, and splits are rare. Layouts only
 * refine, and the capacity model is in memory: after a restart the model rebuilds its
 * partitions (forgetting its heat splits, dividing evenly), so the stream keeps the layout it
 * recorded and follows only the model's splits from then on.
 *
 * <h2>Retention</h2>
 *
 * Records are readable for 24 hours (older ones are skipped by readers, and an iterator
 * pointing before that is refused with TrimmedDataAccessException); a disabled stream stays
 * readable for 24 hours and is then forgotten by the next UpdateTable of its table, which deletes
 * its records. The streams of a deleted table stay readable, DISABLED, for 24 hours too (the
 * catalog keeps the deleted definition, see {@link Catalog#delete}); they are forgotten, records
 * and all, when a Streams call finds them expired, at start, and as tables are deleted (see
 * {@link #forgetExpired}). The records of every stream share one space (see {@link
 * StreamDefinition#space}), so a deleted table's stream holds no space of its own for its day.
 * Iterators are opaque strings carrying the stream, shard, position and the time they were made;
 * they expire after 15 minutes.
 *
 * <p>The sequencer is in memory, each engine's own; engines sharing a storage take distinct
 * numbers (each ends in the engine's id, see {@link WriterIds}), so their records never share a
 * SequenceNumber or an eventID. What stays per engine: an item changed through two engines within
 * one millisecond, or with their clocks apart, may get its numbers out of commit order, and a
 * reader settles only its own engine's writers.
 */
public final class Streams implements DynamoDbStreams {
  static final long ITERATOR_LIFETIME_MILLIS = Duration.ofMinutes(15).toMillis();
  private static final long SETTLE_TIMEOUT_MILLIS = 2000;
  private static final int MAX_RECORDS = 1000;
  private static final long MAX_RESPONSE_BYTES = 1024 * 1024;
  private static final long FORGET_INTERVAL_MILLIS = Duration.ofMinutes(1).toMillis();

  private final Storage storage;
  private final Catalog catalog;
  private final String region;
  private final String arnPrefix;
  private final StreamSequencer sequencer;
  private final Function<TableDefinition, long[]> partitions;
  private final Consumer<String> onCatalogChange;
  /** Per stream space, the epochs below which records have been deleted (since start). */
  private final Map<String, Long> trimmedEpochs = new ConcurrentHashMap<>();
  /** Per stream space, the model's partition starts the stream's definition already follows. */
  private final Map<String, Followed> followed = new ConcurrentHashMap<>();
  /**
   * Per stream space, the model's partition starts when this engine first followed a stream
   * that had recorded its layout before (in an earlier run): the model rebuilds its partitions
   * at start, and only its splits since are news to the stream.
   */
  private final Map<String, long[]> baselines = new ConcurrentHashMap<>();
  /** When {@link #forgetExpired} last looked; a race only makes it look twice. */
  private volatile long lastForgotten = Long.MIN_VALUE;

  private record Followed(StreamDefinition stream, long[] starts) {}

  /**
   * @param partitions the capacity model's partition starts of a table (see {@code
   *     CapacityModel.partitionStarts}), the same array until a partition splits
   * @param onCatalogChange told the table name after this class changed its definition
   */
  public Streams(Storage storage, Catalog catalog, String region, String accountId, Clock clock,
      Function<TableDefinition, long[]> partitions, Consumer<String> onCatalogChange) {
    this.storage = storage;
    this.catalog = catalog;
    this.region = region;
    this.arnPrefix = "arn:aws:dynamodb:" + region + ":" + accountId + ":table/";
    this.sequencer = new StreamSequencer(clock, WriterIds.claim(storage));
    this.partitions = partitions;
    this.onCatalogChange = onCatalogChange;
    recover();
    forgetExpired();
  }

  /**
   * Forgets the streams of tables deleted more than 24 hours ago, with their records: at start,
   * then at most once a minute ({@link #FORGET_INTERVAL_MILLIS}) as tables are deleted and as
   * streams are read, so a store that only creates and deletes tables keeps a day's worth at
   * most, and a read between two looks costs a clock read.
   */
  public void forgetExpired() {
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

  // ---- the write hook ------------------------------------------------------------------------

  /**
   * The stream record of one write attempt, if the table has an enabled stream and the write
   * changes the item: made now, numbered and added to the commit by {@link #number} just before
   * the commit, so an attempt refused before then takes no sequence number. Null when the write
   * has no record. The table's layout is the definition's: {@link #follow} records a split of
   * its partitions before an attempt reads the definition, never inside one.
   *
   * @param identity who made the change when the service did (Time to Live), else null
   */
  public StagedRecord stage(
      TableDefinition table, Map<String, AttributeValue> oldItem,
      Map<String, AttributeValue> newItem, UserIdentity identity) {
    StreamDefinition stream = table.enabledStream();
    if (stream == null || (oldItem == null ? newItem == null : oldItem.equals(newItem))) {
      return null;
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
    long hash = KeyCodec.hashOf(KeyCodec.partition(keys.get(table.hashKey().name())));
    return new StagedRecord(
        stream.space(table.tableId()), new ShardLayout(table.tableId(), stream), hash,
        change.encode());
  }

  /** A stream record made by {@link #stage}, not numbered yet. */
  public static final class StagedRecord {
    private final String space;
    private final ShardLayout layout;
    private final long hash;
    private final byte[] change;

    private StagedRecord(String space, ShardLayout layout, long hash, byte[] change) {
      this.space = space;
      this.layout = layout;
      this.hash = hash;
      this.change = change;
    }
  }

  /**
   * Takes the sequence number of a staged record and adds the record to {@code commit}: call
   * after every check of the attempt, just before committing, and {@link #resolve} the number
   * after the commit attempt.
   */
  public long number(StagedRecord record, Commit commit) {
    long sequenceNumber = sequencer.take(record.layout.firstSequence(0));
    commit.put(
        record.space,
        LoggedChange.key(record.layout.route(sequenceNumber, record.hash), sequenceNumber),
        record.change);
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

  // ---- following the partitions --------------------------------------------------------------

  /**
   * Records in the catalog what the table's enabled stream does not know yet of its partitions:
   * the first layout, or the splits since. Call before a write attempt reads the table's
   * definition (an attempt that changed the catalog itself would then fail on the version it
   * read); returns whether the catalog changed, and then the definition must be read again.
   */
  public boolean follow(TableDefinition table) {
    StreamDefinition stream = table.enabledStream();
    return stream != null && follow(table, stream);
  }

  private boolean follow(TableDefinition table, StreamDefinition stream) {
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
    List<TableDefinition> tables = new ArrayList<>();
    if (r.tableName() != null) {
      catalog.get(r.tableName()).ifPresent(e -> tables.add(e.table()));
      for (TableDefinition t : retired(now)) {
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
      tables.addAll(retired(now));
    }
    List<Stream> all = new ArrayList<>();
    for (TableDefinition t : tables) {
      for (StreamDefinition s : t.streams()) {
        if (kept(s, now)) {
          all.add(new Stream(arn(t, s), t.name(), s.label()));
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

  /** The deleted tables whose streams are still readable, after forgetting the others. */
  private List<TableDefinition> retired(long now) {
    forgetExpired();
    List<TableDefinition> out = new ArrayList<>();
    for (TableDefinition t : catalog.retired()) {
      if (t.streams().stream().anyMatch(s -> kept(s, now))) {
        out.add(t);
      }
    }
    return out;
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
    trimBefore(s, layout.firstEpoch(now));
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

  private Shard shard(
      Located s, ShardLayout layout, ShardLayout.Shard k, StreamSequencer.Settled settled) {
    String ending = null;
    if (closed(s, layout, k, settled)) {
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

  /**
   * Whether shard {@code k} can receive no more records: its partition split (the split is in
   * the definition the caller read before settling), its four hours are over, or the stream
   * was disabled in it; and every write that took a number before the settle point resolved.
   */
  private static boolean closed(
      Located s, ShardLayout layout, ShardLayout.Shard k, StreamSequencer.Settled settled) {
    if (!settled.complete()) {
      return false;
    }
    if (k.splitAt() >= 0) {
      return true;
    }
    if (k.epoch() < layout.lastEpoch(settled.millis())) {
      return settled.bound() >= layout.endSequence(k.epoch());
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
        if (n < trimPoint(now)) {
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
    ShardIterator iterator = ShardIterator.decode(r.shardIterator());
    long nowMillis = sequencer.millis();
    if (nowMillis - iterator.issuedMillis() > ITERATOR_LIFETIME_MILLIS) {
      throw expired(iterator.issuedMillis(), nowMillis);
    }
    // The definition first, then the settle point: see "Shards follow partitions".
    Located s = locate(iterator.streamArn());
    if (!s.table().tableId().equals(iterator.tableId())
        || s.layout().createdMillis() != iterator.streamCreatedMillis()) {
      throw DynamoDbException.resourceNotFound(
          "Requested resource not found: Stream: " + iterator.streamArn() + " not found");
    }
    StreamSequencer.Settled settled = sequencer.settle(SETTLE_TIMEOUT_MILLIS);
    long now = settled.millis();
    ShardLayout layout = s.layout();
    if (layout.epochOf(iterator.open()) < layout.firstEpoch(now)) {
      throw trimmed();
    }
    ShardLayout.Shard k = layout.find(iterator.open(), iterator.start(), iterator.end());
    if (k == null) {
      throw DynamoDbException.validation("Invalid ShardIterator");
    }
    long trim = trimPoint(now);
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
    if (!(exhausted && closed(s, layout, k, settled))) {
      next =
          new ShardIterator(iterator.tableId(), iterator.streamCreatedMillis(), k, last, now,
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

  /**
   * Deletes the records of epochs older than the retention (before {@code first}), which no
   * reader can reach any more. Consumers describe their stream regularly, so that is when it
   * happens; a shard's records go once all of its epoch is older than 24 hours.
   */
  private void trimBefore(Located s, long first) {
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
        List<StoredRecord> batch = storage.query(space, layout.partition(k), null, null, true, 1000);
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
  public void deleteRecords(TableDefinition table, StreamDefinition stream) {
    String space = stream.space(table.tableId());
    if (!stream.shared()) {
      storage.dropSpace(space);
    } else if (storage.spaces().contains(space)) {
      ShardLayout layout = new ShardLayout(table.tableId(), stream);
      deleteRecords(space, layout, 0, layout.lastEpoch(sequencer.millis()));
    }
    String id = stream.id(table.tableId());
    trimmedEpochs.remove(id);
    followed.remove(id);
    baselines.remove(id);
  }

  // ---- common --------------------------------------------------------------------------------

  /** A stream found by its ARN, with its table (live, or deleted within 24 hours). */
  private record Located(TableDefinition table, StreamDefinition stream) {
    ShardLayout layout() {
      return new ShardLayout(table.tableId(), stream);
    }

    String space() {
      return stream.space(table.tableId());
    }

    String id() {
      return stream.id(table.tableId());
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
      TableDefinition table = entry.get().table();
      for (StreamDefinition s : table.streams()) {
        if (s.label().equals(label) && kept(s, now)) {
          if (s.enabled() && s.partitions().isEmpty() && follow(table, s)) {
            return locate(streamArn); // its first layout was just recorded
          }
          return new Located(table, s);
        }
      }
    }
    for (TableDefinition table : retired(now)) {
      if (!table.name().equals(tableName)) {
        continue;
      }
      for (StreamDefinition s : table.streams()) {
        if (s.label().equals(label) && kept(s, now)) {
          return new Located(table, s);
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
    List<TableDefinition> tables = new ArrayList<>();
    catalog.all().forEach(e -> tables.add(e.table()));
    tables.addAll(catalog.retired());
    for (TableDefinition t : tables) {
      for (StreamDefinition s : t.streams()) {
        for (StreamDefinition.Split split : s.splits()) {
          sequencer.advanceTo(split.sequenceNumber());
        }
        ShardLayout layout = new ShardLayout(t.tableId(), s);
        String space = s.space(t.tableId());
        for (ShardLayout.Shard k : layout.kept(now)) {
          List<StoredRecord> last;
          try {
            last = storage.query(space, layout.partition(k), null, null, false, 1);
          } catch (StorageException missing) {
            break;
          }
          if (!last.isEmpty()) {
            sequencer.advanceTo(LoggedChange.sequenceNumber(last.get(0).key()));
          }
        }
      }
    }
  }
}
