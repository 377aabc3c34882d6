package io.stator.capacity;

import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The partition boundaries of each table and global secondary index, kept in the storage so that
 * a restarted server has the partitions that earlier splits made: on DynamoDB a split is
 * permanent, and a table that split for heat does not throttle again after a restart. One
 * record per table or index incarnation, under its storage space's name, holding the starts of
 * its partitions; written on every split (rare), read when the model first meets the table.
 *
 * <p>Record format: a version byte (1), the number of starts (int), then each start (long), all
 * big-endian. A record of another version is ignored, and the partitions start anew from
 * DynamoDB's rule of thumb.
 */
public final class SavedPartitions {
  /** The storage space of the records. */
  public static final String SPACE = "capacity.partitions";

  private static final byte VERSION = 1;

  /** Keeps nothing: every model starts from the rule of thumb (for tests and embedded use). */
  public static final SavedPartitions NONE = new SavedPartitions(null);

  private final Storage storage;
  /** Whether the space exists: made on the first split, as most stores never see one. */
  private volatile boolean created;

  /** @param storage where the records live, or null to keep nothing */
  public SavedPartitions(Storage storage) {
    this.storage = storage;
    this.created = storage != null && storage.spaces().contains(SPACE);
  }

  /** The starts kept for {@code resource} (a storage space name), or null. */
  long[] load(String resource) {
    if (!created) {
      return null;
    }
    Optional<StoredRecord> record;
    try {
      record = storage.get(SPACE, key(resource));
    } catch (StorageException e) {
      return null;
    }
    if (record.isEmpty()) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(record.get().value());
    if (in.remaining() < 5 || in.get() != VERSION) {
      return null;
    }
    int count = in.getInt();
    if (count < 1 || in.remaining() != count * Long.BYTES) {
      return null;
    }
    long[] starts = new long[count];
    for (int i = 0; i < count; i++) {
      starts[i] = in.getLong();
    }
    return starts;
  }

  /**
   * Keeps {@code starts} for {@code resource}. Best effort: a storage that refuses (closing)
   * loses a split, which only means the partitions are fewer after a restart.
   */
  void save(String resource, long[] starts) {
    if (storage == null) {
      return;
    }
    ByteBuffer out = ByteBuffer.allocate(5 + starts.length * Long.BYTES);
    out.put(VERSION).putInt(starts.length);
    for (long start : starts) {
      out.putLong(start);
    }
    try {
      if (!created) {
        storage.createSpace(SPACE);
        created = true;
      }
      storage.commit(new Commit().put(SPACE, key(resource), out.array()));
    } catch (StorageException e) {
      // see above
    }
  }

  /** Forgets {@code resource} (its table or index was deleted). */
  void forget(String resource) {
    if (!created) {
      return;
    }
    try {
      storage.commit(new Commit().delete(SPACE, key(resource)));
    } catch (StorageException e) {
      // a record left behind is never read: the next incarnation has another space name
    }
  }

  private static StorageKey key(String resource) {
    return StorageKey.of(resource.getBytes(StandardCharsets.UTF_8));
  }
}
