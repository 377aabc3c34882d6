package io.stator.storage.rocksdb;

import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The writer process of {@link RocksDbCrashTest}: commits records one by one and prints {@code
 * i;} after commit {@code i} returned, until it is killed. With a third argument {@code n} it
 * commits as a server does with group commit: it defers durability, and prints the
 * acknowledgements of each {@code n} commits only after {@link RocksDbStorage#awaitDurable}.
 *
 * <p>Commit {@code i} writes item {@code i}, its index entry (another space) and the counter
 * (= i, guarded by the counter's previous version), so after a crash a half-applied commit would
 * show up as an item without its index entry or a counter that disagrees with the items.
 */
final class CrashWriter {
  static final String ITEMS = "items";
  static final String INDEX = "index";
  static final StorageKey COUNTER = StorageKey.of(new byte[] {'c'});

  private CrashWriter() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    int group = args.length > 2 ? Integer.parseInt(args[2]) : 0;
    RocksDbStorage storage = RocksDbStorage.open(dir);
    storage.createSpace(ITEMS);
    storage.createSpace(INDEX);
    if (group > 0) {
      storage.deferDurabilityOnThisThread();
    }
    StringBuilder acknowledgements = new StringBuilder();
    for (int i = 0; i < count; i++) {
      Optional<StoredRecord> counter = storage.get(ITEMS, COUNTER);
      storage.commit(
          new Commit()
              .put(ITEMS, item(i), value(i))
              .put(INDEX, indexEntry(i), value(i))
              .put(ITEMS, COUNTER, ByteBuffer.allocate(4).putInt(i).array())
              .expect(ITEMS, COUNTER, counter.map(StoredRecord::version).orElse(0L)));
      acknowledgements.append(i).append(";\n");
      if (group == 0 || (i + 1) % group == 0) {
        storage.awaitDurable();
        System.out.print(acknowledgements);
        System.out.flush();
        acknowledgements.setLength(0);
      }
    }
    storage.close();
  }

  static StorageKey item(int i) {
    return new StorageKey(new byte[] {'i'}, ByteBuffer.allocate(4).putInt(i).array());
  }

  static StorageKey indexEntry(int i) {
    return new StorageKey(ByteBuffer.allocate(4).putInt(i % 97).array(), item(i).sort());
  }

  static byte[] value(int i) {
    byte[] value = new byte[200];
    ByteBuffer.wrap(value).putInt(i);
    return value;
  }
}
