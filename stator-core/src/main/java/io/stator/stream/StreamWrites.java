package io.stator.stream;

import io.stator.api.Shard;
import io.stator.key.KeyCodec;
import io.stator.schema.Catalog;
import io.stator.schema.KeyAttribute;
import io.stator.schema.StreamDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write hook of DynamoDB Streams: the record of a write attempt, staged when the attempt
 * computes its change, numbered by the engine's {@link StreamSequencer} and added to the
 * attempt's own commit just before it commits, so a record exists if and only if its change
 * committed (see {@link Streams}).
 */
public final class StreamWrites {
  /** How many engines writing on one storage tell their numbers apart ({@link #writer}). */
  public static final int WRITERS = StreamSequencer.WRITERS;

  /**
   * How far past the number it would take an attempt also reads the item's shard: a record of
   * the item numbered by an engine whose clock is up to this far ahead may lie in the next epoch
   * (the next shard) when this engine's number would fall just before an epoch's end.
   */
  static final long AHEAD = 60_000L * StreamSequencer.PER_MILLI;

  private final StreamSequencer sequencer;
  private final Storage storage;
  private final Watermarks watermarks;

  StreamWrites(StreamSequencer sequencer, Storage storage, Watermarks watermarks) {
    this.sequencer = sequencer;
    this.storage = storage;
    this.watermarks = watermarks;
  }

  /**
   * This engine's id among the engines writing on its storage ({@link WriterIds}), below {@link
   * #WRITERS}: the low digits of every number it takes, here and in the GSI change log.
   */
  public int writer() {
    return sequencer.writer;
  }

  /**
   * The least number at or above {@code n} that ends in {@code writer} (modulo {@link #WRITERS}):
   * how engines sharing a storage number alone without ever taking one number twice.
   */
  public static long numberOf(int writer, long n) {
    long m = n - Math.floorMod(n, (long) WRITERS) + writer;
    return m < n ? m + WRITERS : m;
  }

  /**
   * The stream record of one write attempt, if the table has an enabled stream and the write
   * changes the item: made now, numbered and added to the commit by {@link #number} just before
   * the commit, so an attempt refused before then takes no sequence number. Null when the write
   * has no record. The table's layout is the definition's: {@link Streams#follow} records a
   * split of its partitions before an attempt reads the definition, never inside one.
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

  /**
   * Takes the sequence number of a staged record and adds the record to {@code commit}: call
   * after every check of the attempt, just before committing, and {@link #resolve} the number
   * after the commit attempt.
   */
  public long number(StagedRecord record, Commit commit) {
    long floor = record.layout.firstSequence(0);
    boolean shared = watermarks.othersMayWrite();
    if (shared) {
      floor = afterTheItemsLastRecord(record, floor);
    }
    long sequenceNumber = sequencer.take(floor);
    if (shared && watermarks.quiet()) {
      // This engine was silent long enough for the others to pass its watermark: this number,
      // and any the attempt took before it, may lie below what their readers passed. The
      // attempt runs again once they have heard of it, its numbering lifted above theirs.
      sequencer.resolve(sequenceNumber);
      if (watermarks.awaitHeardAgain()) {
        throw new Paused();
      }
      sequenceNumber = sequencer.take(floor); // its store takes no publication: go on as alone
    }
    commit.put(
        record.space,
        LoggedChange.key(record.layout.route(sequenceNumber, record.hash), sequenceNumber),
        record.change);
    return sequenceNumber;
  }

  /**
   * The least number the record may take so that it follows the item's records already made,
   * whichever engine numbered them. An engine numbers by its own clock, and the clocks of
   * several servers are never quite together: a change of an item read through this engine just
   * after another engine committed the item's last change, its clock ahead of this one's, would
   * otherwise be numbered before that change and its record read first. The item's records all
   * go to one shard of an epoch (the shard of its partition key's hash), and that change's record
   * committed with it, before this attempt read the item; so numbering above the last record of
   * the shard this record goes to (and of the shard it would go to a little later, which is
   * another when an epoch ends in between) puts it after every record of the item, as the
   * commit order of the item's changes has it. Numbering above the stream's last split as well
   * keeps the record out of a shard that split closed before the change it follows. One read of
   * the end of a shard, made only when another engine may be writing (see {@link
   * Watermarks#othersMayWrite}).
   */
  private long afterTheItemsLastRecord(StagedRecord record, long floor) {
    for (StreamDefinition.Split split : record.layout.stream().splits()) {
      floor = Math.max(floor, split.sequenceNumber() + 1);
    }
    long n = sequencer.peek(floor);
    byte[] shard = record.layout.route(n, record.hash);
    byte[] later = record.layout.route(n + AHEAD, record.hash);
    floor = Math.max(floor, lastNumberIn(record.space, shard) + 1);
    if (!Arrays.equals(later, shard)) {
      floor = Math.max(floor, lastNumberIn(record.space, later) + 1);
    }
    return floor;
  }

  /** The largest sequence number stored in a shard's partition, or -1 if none. */
  private long lastNumberIn(String space, byte[] shard) {
    List<StoredRecord> last = storage.query(space, shard, null, null, false, 1);
    return last.isEmpty() ? -1 : LoggedChange.sequenceNumber(last.get(0).key());
  }

  /**
   * The engine was silent (paused) while an attempt was numbering its records ({@link
   * Watermarks#quiet}): resolve its numbers and run the attempt again, from its reads.
   */
  public static final class Paused extends RuntimeException {
    Paused() {
      super("the engine was paused while numbering a stream record", null, false, false);
    }
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

  /** At start: continue numbering above the largest sequence number of any kept stream. */
  void recover(Storage storage, Catalog catalog) {
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
