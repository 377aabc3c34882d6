package io.stator.stream;

import io.stator.api.Shard;
import io.stator.item.ItemCodec;
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

  private final StreamSequencer sequencer;
  private final Watermarks watermarks;

  StreamWrites(StreamSequencer sequencer, Watermarks watermarks) {
    this.sequencer = sequencer;
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
   * @param oldEncoded the item as the attempt read it from the table, null if absent
   * @param newEncoded the encoded item the attempt puts in the table (the very array of its
   *     commit's put, which {@link #number} completes with the record's number), null for none
   * @param identity who made the change when the service did (Time to Live), else null
   */
  public StagedRecord stage(
      TableDefinition table, Map<String, AttributeValue> oldItem,
      Map<String, AttributeValue> newItem, byte[] oldEncoded, byte[] newEncoded,
      UserIdentity identity) {
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
        change.encode(), table.space(), newItem == null ? null : newEncoded,
        oldEncoded == null ? -1 : ItemCodec.streamNumber(oldEncoded));
  }

  /**
   * Takes the sequence number of a staged record and adds the record to {@code commit}: call
   * after every check of the attempt, just before committing, and {@link #resolve} the number
   * after the commit attempt.
   */
  public long number(StagedRecord record, Commit commit) {
    // Above the item's last record, which another engine may have numbered by a clock ahead of
    // this one's: the records of one item follow the order of its changes whatever the clocks.
    long floor = Math.max(record.layout.firstSequence(0), record.previous + 1);
    boolean shared = watermarks.othersMayWrite();
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
    if (record.newEncoded != null) {
      commit.replace(record.tableSpace, record.newEncoded,
          ItemCodec.withStreamNumber(record.newEncoded, sequenceNumber));
    }
    return sequenceNumber;
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
