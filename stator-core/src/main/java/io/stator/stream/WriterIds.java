package io.stator.stream;

import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.Storage;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The id of an engine among the engines writing stream records on one storage, in the low digits
 * of each number it takes (see {@link StreamSequencer}), so that servers sharing a store never
 * make one SequenceNumber (nor, since it is derived from the number, one eventID) twice.
 *
 * <p>One record in the space {@value #SPACE} counts the engines started on the store; an engine
 * claims the next count at start with a commit expecting the record it read, and its id is that
 * count modulo {@link StreamSequencer#WRITERS}. So two engines running at once share an id only
 * if {@code WRITERS} engines started between them, where a random id would clash for one pair of
 * servers in a thousand. It costs one read and one commit at start, nothing per record.
 */
final class WriterIds {
  static final String SPACE = "stream-writers";
  private static final StorageKey STARTED =
      StorageKey.of("started".getBytes(StandardCharsets.UTF_8));

  private WriterIds() {}

  /** Claims this engine's id: the number of engines started on {@code storage} before it. */
  static int claim(Storage storage) {
    storage.createSpace(SPACE);
    while (true) {
      Optional<StoredRecord> now = storage.get(SPACE, STARTED);
      long started = now.map(r -> ByteBuffer.wrap(r.value()).getLong()).orElse(0L);
      long expected = now.map(StoredRecord::version).orElse(Commit.Expectation.ABSENT);
      byte[] next = ByteBuffer.allocate(Long.BYTES).putLong(started + 1).array();
      try {
        storage.commit(new Commit().expect(SPACE, STARTED, expected).put(SPACE, STARTED, next));
        return (int) Math.floorMod(started, (long) StreamSequencer.WRITERS);
      } catch (CommitConflictException e) {
        // another engine started between the read and the commit: read its count and go on
      }
    }
  }
}
