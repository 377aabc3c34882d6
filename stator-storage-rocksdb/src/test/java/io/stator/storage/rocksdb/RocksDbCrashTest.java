package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.CrashWriter.COUNTER;
import static io.stator.storage.rocksdb.CrashWriter.INDEX;
import static io.stator.storage.rocksdb.CrashWriter.ITEMS;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.ChildJvm;
import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a writing process with SIGKILL and checks what an acknowledged write means: every commit
 * the writer saw return is present after reopening, and no commit is visible in part. The writer
 * acknowledges each commit as it returns, or, with group commit, each group of commits once
 * {@link RocksDbStorage#awaitDurable} returned after them.
 */
class RocksDbCrashTest {
  private static final int ACKS_BEFORE_KILL = 3000;

  @TempDir Path dir;

  @ParameterizedTest(name = "group of {0} (0: durable when each commit returns)")
  @ValueSource(ints = {0, 7})
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void everyAcknowledgedCommitSurvivesKillNine(int group) throws Exception {
    Path store = dir.resolve("store");
    Path errors = dir.resolve("writer.err");
    Process writer =
        ChildJvm.start(
            CrashWriter.class, errors, store.toString(), "10000000", Integer.toString(group));
    int lastAck = -1;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(writer.getInputStream(), UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lastAck = ack(line, lastAck);
        if (lastAck + 1 == ACKS_BEFORE_KILL) {
          // SIGKILL: no shutdown hook, no close, no flush. Through the ProcessHandle, because
          // Process.destroyForcibly() would also close our end of its stdout, and the
          // acknowledgements still in the pipe count.
          writer.toHandle().destroyForcibly();
          break;
        }
      }
      writer.waitFor(30, TimeUnit.SECONDS);
      // Lines the writer printed before it died were acknowledgements too.
      while ((line = out.readLine()) != null) {
        lastAck = ack(line, lastAck);
      }
    } finally {
      writer.destroyForcibly();
    }
    assertThat(lastAck + 1)
        .as("acknowledged commits; writer stderr: %s", Files.readString(errors))
        .isGreaterThanOrEqualTo(ACKS_BEFORE_KILL);
    assertThat(writer.exitValue()).as("killed, not finished").isNotZero();

    try (RocksDbStorage storage = RocksDbStorage.open(store)) {
      assertThat(storage.get(ITEMS, COUNTER)).as("counter; acknowledged %d", lastAck).isPresent();
      StoredRecord counter = storage.get(ITEMS, COUNTER).orElseThrow();
      int committed = ByteBuffer.wrap(counter.value()).getInt();
      assertThat(committed).isGreaterThanOrEqualTo(lastAck);

      // Items 0..committed and nothing else (the counter sorts after the items' partition).
      List<StoredRecord> items = storage.query(ITEMS, new byte[] {'i'}, null, null, true, 1 << 24);
      assertThat(items).hasSize(committed + 1);
      long maxVersion = counter.version();
      for (int i = 0; i <= committed; i++) {
        StoredRecord item = items.get(i);
        assertThat(item.key()).isEqualTo(CrashWriter.item(i));
        assertThat(item.value()).isEqualTo(CrashWriter.value(i));
        StoredRecord entry = storage.get(INDEX, CrashWriter.indexEntry(i)).orElseThrow();
        assertThat(entry.version()).isEqualTo(item.version());
        maxVersion = Math.max(maxVersion, item.version());
      }
      assertThat(storage.stats(INDEX).records()).isEqualTo(committed + 1L);
      // The counter's commit is the last one applied: it carries the greatest version.
      assertThat(counter.version()).isEqualTo(maxVersion);

      // Versions issued after the crash are greater than every version before it.
      StorageKey next = CrashWriter.item(committed + 1);
      storage.commit(new Commit().put(ITEMS, next, new byte[] {1}));
      assertThat(storage.get(ITEMS, next).orElseThrow().version()).isGreaterThan(maxVersion);
    }
  }

  private static int ack(String line, int previous) {
    assertThat(line).as("a complete acknowledgement").matches("\\d+;");
    int ack = Integer.parseInt(line.substring(0, line.length() - 1));
    assertThat(ack).isEqualTo(previous + 1);
    return ack;
  }
}
