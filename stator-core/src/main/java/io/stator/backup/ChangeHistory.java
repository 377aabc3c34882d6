package io.stator.backup;

import io.stator.item.ItemCodec;
import io.stator.schema.SpaceNames;
import io.stator.schema.TableDefinition;
import io.stator.schema.TableSettings.PointInTimeRecovery;
import io.stator.storage.Bound;
import io.stator.storage.Commit;
import io.stator.storage.ScanPage;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.stream.StreamWrites;
import io.stator.value.AttributeValue;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The change history of a table with point-in-time recovery enabled: one record per committed
 * change of an item, written in the change's own commit ({@link #stage}, called by the write
 * hook every write path calls, {@code Indexes.stage}), so a record exists if and only if its
 * change committed.
 *
 * <p>A record sits in the table's space {@code history.<tableId>} under the item's key (its
 * table key as one partition) and the change's time (the engine's clock when the write was
 * staged, in milliseconds, then a number taken from a counter, which orders two changes of one
 * item in one millisecond as they committed: the second was staged after it read the first).
 * It holds the item before and after the change (either absent).
 *
 * <p>Why no base copy of the table beside it: the item as of a time T is found from the records
 * and the live table alone. An item with a record at or before T is that last record's new
 * image; an item whose records all come after T is the first one's old image; an item with no
 * record has not changed since recovery was enabled (every commit since carries a record), so it
 * is the live item. That also makes trimming a plain delete of the records older than the
 * window: the item as of any time inside it is still found, from a later record's old image or
 * from the live table, and a base copy never needs refolding. It costs the old image in each
 * record (about twice a stream record of NEW_IMAGE).
 */
public final class ChangeHistory {
  private static final byte FORMAT_VERSION = 1;
  private static final int PAGE = 100;

  /**
   * Orders changes within one millisecond. Per process: across processes sharing a store two
   * changes of one item in one millisecond are ordered by the counter's values, not their commit;
   * each value is made to end in the engine's id ({@code StreamWrites.writer}), so two processes
   * never give two records of one item one key, where the later commit would replace the earlier
   * record.
   */
  private static final AtomicLong COUNTER = new AtomicLong();

  private ChangeHistory() {}

  /**
   * The times a table with recovery enabled can be restored to: from the later of when recovery
   * was enabled and the start of its recovery period, to now. DynamoDB's latest restorable time
   * is about five minutes back; Stator's is the present, since a change's record is written in
   * the change's own commit rather than shipped afterwards.
   */
  public record Window(Instant earliest, Instant latest) {
    public boolean contains(Instant t) {
      return !t.isBefore(earliest) && !t.isAfter(latest);
    }
  }

  public static Window window(PointInTimeRecovery pitr, Instant now) {
    Instant periodStart = now.minus(Duration.ofDays(pitr.recoveryPeriodInDays()));
    Instant earliest = pitr.enabledAt().isAfter(periodStart) ? pitr.enabledAt() : periodStart;
    return new Window(earliest, now.isBefore(earliest) ? earliest : now);
  }

  /** The item as of a time: its image then, or null when it did not exist. */
  public record AsOf(Map<String, AttributeValue> item) {}

  /**
   * Adds the record of an item's change to {@code commit} when the table keeps a history ({@link
   * io.stator.schema.TableSettings#keepsHistory}) and the change changes the item.
   *
   * <p>Every record of one commit carries the same time, that of its first: the items a
   * transaction changes are then all changed as of a time or all not, so a restore or a backup
   * as of any time never holds half of a transaction (a transfer's debit without its credit),
   * even when the clock turned a millisecond while the transaction was staged.
   */
  public static void stage(TableDefinition table, Map<String, AttributeValue> oldItem,
      Map<String, AttributeValue> newItem, Clock clock, int writer, Commit commit) {
    if (!table.settings().keepsHistory() || Objects.equals(oldItem, newItem)) {
      return;
    }
    StorageKey itemKey = table.storageKey(newItem != null ? newItem : oldItem);
    ByteBuffer sort = ByteBuffer.allocate(16);
    sort.putLong(commitMillis(commit, clock))
        .putLong(COUNTER.incrementAndGet() * StreamWrites.WRITERS + writer);
    commit.put(table.history(), new StorageKey(partition(itemKey), sort.array()),
        encode(oldItem, newItem));
  }

  /** The time of the history records {@code commit} already holds, else the clock's. */
  private static long commitMillis(Commit commit, Clock clock) {
    for (Commit.Write w : commit.writes()) {
      if (SpaceNames.isHistory(w.space()) && !w.isDelete()) {
        return ByteBuffer.wrap(w.key().sort()).getLong();
      }
    }
    return clock.millis();
  }

  /**
   * The item under {@code itemKey} as of {@code at}, if the history has a record of it; empty
   * when it has none (the item has not changed since recovery was enabled).
   */
  public static Optional<AsOf> asOf(Storage storage, TableDefinition table,
      StorageKey itemKey, Instant at) {
    byte[] partition = partition(itemKey);
    Bound upTo = Bound.inclusive(timeBound(at.toEpochMilli(), -1));
    List<StoredRecord> before =
        storage.query(table.history(), partition, null, upTo, false, 1);
    if (!before.isEmpty()) {
      return Optional.of(new AsOf(image(before.get(0).value(), false)));
    }
    List<StoredRecord> after =
        storage.query(table.history(), partition, null, null, true, 1);
    if (!after.isEmpty()) {
      return Optional.of(new AsOf(image(after.get(0).value(), true)));
    }
    return Optional.empty();
  }

  /**
   * Calls {@code each} with the key of every item that has records (once per item, in key
   * order), for a restore to find the items that the live table no longer has.
   */
  public static void changedItems(Storage storage, TableDefinition table,
      Consumer<StorageKey> each) {
    StorageKey after = null;
    byte[] last = null;
    while (true) {
      ScanPage page = storage.scanPage(table.history(), null, null, after, PAGE);
      for (StoredRecord r : page.records()) {
        if (last == null || !Arrays.equals(last, r.key().partition())) {
          last = r.key().partition();
          each.accept(itemKey(last));
        }
      }
      if (!page.more()) {
        return;
      }
      after = page.records().get(page.records().size() - 1).key();
    }
  }

  /**
   * Deletes the records older than {@code before}: the items as of any later time are still
   * found (see the class comment). Returns how many it deleted.
   */
  public static long trim(Storage storage, TableDefinition table, Instant before) {
    long cutoff = before.toEpochMilli();
    long deleted = 0;
    StorageKey after = null;
    try {
      while (true) {
        ScanPage page = storage.scanPage(table.history(), null, null, after, PAGE);
        Commit commit = new Commit();
        int n = 0;
        for (StoredRecord r : page.records()) {
          if (ByteBuffer.wrap(r.key().sort()).getLong() < cutoff) {
            commit.delete(table.history(), r.key());
            n++;
          }
        }
        if (n > 0) {
          storage.commit(commit);
          deleted += n;
        }
        if (!page.more()) {
          return deleted;
        }
        after = page.records().get(page.records().size() - 1).key();
      }
    } catch (StorageException gone) {
      return deleted; // recovery disabled or the table deleted meanwhile: its history is gone
    }
  }

  /**
   * An item's net change over a period: its image at the period's start ({@code oldImage}) and
   * at its end ({@code newImage}), either null when the item did not exist then, and the time of
   * its last change in the period, in milliseconds.
   */
  public record Change(Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage,
      long lastChangeMillis) {}

  /**
   * Calls {@code each} once for every item changed after {@code from} and at or before {@code
   * to}, in key order, with its net change: the old image of its first record in the period and
   * the new image of its last. One pass over the history, holding one item's records at a time.
   */
  public static void changesBetween(Storage storage, TableDefinition table, Instant from,
      Instant to, Consumer<Change> each) {
    long fromMillis = from.toEpochMilli();
    long toMillis = to.toEpochMilli();
    byte[] item = null;
    Map<String, AttributeValue> first = null;
    byte[] last = null;
    long lastMillis = 0;
    boolean any = false;
    StorageKey after = null;
    while (true) {
      ScanPage page = storage.scanPage(table.history(), null, null, after, PAGE);
      for (StoredRecord r : page.records()) {
        if (item == null || !Arrays.equals(item, r.key().partition())) {
          if (any) {
            each.accept(new Change(first, image(last, false), lastMillis));
          }
          item = r.key().partition();
          any = false;
        }
        long millis = ByteBuffer.wrap(r.key().sort()).getLong();
        if (millis > fromMillis && millis <= toMillis) {
          if (!any) {
            first = image(r.value(), true);
            any = true;
          }
          last = r.value();
          lastMillis = millis;
        }
      }
      if (!page.more()) {
        if (any) {
          each.accept(new Change(first, image(last, false), lastMillis));
        }
        return;
      }
      after = page.records().get(page.records().size() - 1).key();
    }
  }

  /** The history's partition of an item: its table key's partition and sort, one after the other. */
  static byte[] partition(StorageKey itemKey) {
    byte[] p = itemKey.partition();
    byte[] s = itemKey.sort();
    return ByteBuffer.allocate(4 + p.length + s.length).putInt(p.length).put(p).put(s).array();
  }

  static StorageKey itemKey(byte[] partition) {
    ByteBuffer b = ByteBuffer.wrap(partition);
    byte[] p = new byte[b.getInt()];
    b.get(p);
    byte[] s = new byte[b.remaining()];
    b.get(s);
    return new StorageKey(p, s);
  }

  /** The last sort key of a millisecond ({@code counter} -1: every counter value of it). */
  private static byte[] timeBound(long millis, long counter) {
    return ByteBuffer.allocate(16).putLong(millis).putLong(counter).array();
  }

  static byte[] encode(Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem) {
    byte[] o = oldItem == null ? new byte[0] : ItemCodec.encode(oldItem);
    byte[] n = newItem == null ? new byte[0] : ItemCodec.encode(newItem);
    return ByteBuffer.allocate(1 + 2 * 5 + o.length + n.length)
        .put(FORMAT_VERSION)
        .put((byte) (oldItem == null ? 0 : 1)).putInt(o.length).put(o)
        .put((byte) (newItem == null ? 0 : 1)).putInt(n.length).put(n)
        .array();
  }

  /** The old ({@code old}) or new image a record holds, null for none. */
  static Map<String, AttributeValue> image(byte[] record, boolean old) {
    ByteBuffer b = ByteBuffer.wrap(record);
    if (b.get() != FORMAT_VERSION) {
      throw new StorageException("unknown change history record format version "
          + (record[0] & 0xFF) + "; this release reads version " + FORMAT_VERSION);
    }
    for (int i = 0; ; i++) {
      boolean present = b.get() == 1;
      byte[] bytes = new byte[b.getInt()];
      b.get(bytes);
      if (i == (old ? 0 : 1)) {
        return present ? ItemCodec.decode(bytes) : null;
      }
    }
  }
}
