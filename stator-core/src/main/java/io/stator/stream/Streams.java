package io.stator.stream;

import io.stator.api.DescribeStreamRequest;
import io.stator.api.DescribeStreamResponse;
import io.stator.api.DynamoDbStreams;
import io.stator.api.GetRecordsRequest;
import io.stator.api.GetRecordsResponse;
import io.stator.api.GetShardIteratorRequest;
import io.stator.api.GetShardIteratorResponse;
import io.stator.api.ListStreamsRequest;
import io.stator.api.ListStreamsResponse;
import io.stator.schema.Catalog;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Storage;
import java.time.Clock;
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
 * and calls {@code Indexes.stage}, which calls {@link StreamWrites#stage}: when the table has
 * an enabled stream and the write changes the item, one record (INSERT, MODIFY or REMOVE, by
 * whether the item existed before and after; images by the view type) joins the write's own
 * commit, numbered ({@link StreamWrites#number}) once every check of the attempt has passed.
 * So a record exists if and only if its change committed, and a crash can neither lose one nor
 * record a change that did not happen. A write that changes nothing (a delete of an
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
 * SequenceNumber or an eventID, and each publishes a watermark that the readers of the others
 * stay below ({@link Watermarks}), so no reader passes another engine's record still committing.
 * What stays per engine: an item changed through two engines within one publishing interval,
 * with their clocks apart by more than the time between the changes, may get its numbers out of
 * commit order.
 */
public final class Streams implements DynamoDbStreams, AutoCloseable {
  /**
   * The space where the engines on a storage count themselves ({@link WriterIds}) and publish
   * their watermarks ({@link Watermarks}): written in the background, by no request.
   */
  public static final String WRITERS_SPACE = WriterIds.SPACE;

  private final Watermarks watermarks;
  private final StreamWrites writes;
  private final ShardFollowing following;
  private final StreamRetention retention;
  private final StreamDescriptions descriptions;
  private final StreamReads reads;

  /**
   * The parts of the Streams of one engine, over one sequencer: the write hook ({@link
   * StreamWrites}), shards following partitions ({@link ShardFollowing}), retention ({@link
   * StreamRetention}), and the API ({@link StreamDescriptions}, {@link StreamReads}, which find
   * streams through {@link StreamLocator}). At start, numbering continues above the largest
   * number stored, and the streams of tables deleted over a day ago are forgotten.
   *
   * @param partitions the capacity model's partition starts of a table (see {@code
   *     CapacityModel.partitionStarts}), the same array until a partition splits
   * @param onCatalogChange told the table name after this class changed its definition
   */
  public Streams(Storage storage, Catalog catalog, String region, String accountId, Clock clock,
      Function<TableDefinition, long[]> partitions, Consumer<String> onCatalogChange) {
    int writer = WriterIds.claim(storage);
    StreamSequencer sequencer = new StreamSequencer(clock, writer);
    this.watermarks = new Watermarks(storage, sequencer, writer);
    this.writes = new StreamWrites(sequencer, watermarks);
    this.following = new ShardFollowing(catalog, sequencer, partitions, onCatalogChange);
    this.retention = new StreamRetention(storage, catalog, sequencer, following);
    StreamLocator locator =
        new StreamLocator(catalog, sequencer, region, accountId, following, retention);
    this.descriptions = new StreamDescriptions(
        storage, catalog, sequencer, watermarks, locator, retention);
    this.reads = new StreamReads(storage, sequencer, watermarks, locator, region);
    writes.recover(storage, catalog);
    retention.forgetExpired();
  }

  /** The write hook, which the index write path calls in every write attempt. */
  public StreamWrites writes() {
    return writes;
  }

  /**
   * Records in the catalog what the table's enabled stream does not know yet of its partitions:
   * the first layout, or the splits since. Call before a write attempt reads the table's
   * definition (an attempt that changed the catalog itself would then fail on the version it
   * read); returns whether the catalog changed, and then the definition must be read again.
   */
  public boolean follow(TableDefinition table) {
    return following.follow(table);
  }

  /**
   * Forgets the streams of tables deleted more than 24 hours ago, with their records (at most
   * once a minute; see {@link StreamRetention}).
   */
  public void forgetExpired() {
    retention.forgetExpired();
  }

  /**
   * Deletes every record of a stream that is forgotten (disabled, or of a deleted table, more
   * than 24 hours ago). Safe to repeat.
   */
  public void deleteRecords(TableDefinition table, StreamDefinition stream) {
    retention.deleteRecords(table, stream);
  }

  @Override
  public ListStreamsResponse listStreams(ListStreamsRequest r) {
    return descriptions.listStreams(r);
  }

  @Override
  public DescribeStreamResponse describeStream(DescribeStreamRequest r) {
    return descriptions.describeStream(r);
  }

  @Override
  public GetShardIteratorResponse getShardIterator(GetShardIteratorRequest r) {
    return reads.getShardIterator(r);
  }

  @Override
  public GetRecordsResponse getRecords(GetRecordsRequest r) {
    return reads.getRecords(r);
  }

  /** Stops publishing this engine's watermark and withdraws it ({@link Watermarks}). */
  @Override
  public void close() {
    watermarks.close();
  }
}
