package io.stator.storage.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.Stator;
import io.stator.storage.ChildJvm;
import io.stator.api.Database;
import io.stator.api.GetItemRequest;
import io.stator.api.ScanRequest;
import io.stator.value.AttributeValue;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process running transactions with SIGKILL and checks that every transaction is either
 * fully applied or not at all: replaying the transfer log that survived gives exactly the
 * balances that survived, the total is conserved, and every acknowledged transfer is there.
 */
class TransactionCrashTest {
  private static final int ACKS_BEFORE_KILL = 1500;

  @TempDir Path dir;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void transactionsAreAllOrNothingAcrossKillNine() throws Exception {
    Path store = dir.resolve("store");
    Path errors = dir.resolve("writer.err");
    Process writer = ChildJvm.start(TransactionCrashWriter.class, errors, store.toString());
    int lastAck = -1;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(writer.getInputStream(), UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.equals("ready;")) {
          continue;
        }
        lastAck = Integer.parseInt(line.substring(0, line.length() - 1));
        if (lastAck + 1 >= ACKS_BEFORE_KILL) {
          writer.toHandle().destroyForcibly(); // SIGKILL, mid-stream
          break;
        }
      }
      writer.waitFor(30, TimeUnit.SECONDS);
      while ((line = out.readLine()) != null) {
        if (line.matches("\\d+;")) {
          lastAck = Integer.parseInt(line.substring(0, line.length() - 1));
        }
      }
    } finally {
      writer.destroyForcibly();
    }
    assertThat(lastAck + 1)
        .as("acknowledged transfers; writer stderr: %s", Files.readString(errors))
        .isGreaterThanOrEqualTo(ACKS_BEFORE_KILL);

    try (Database db = Stator.open(RocksDbStorage.open(store))) {
      Map<String, Long> expected = new HashMap<>();
      for (int i = 0; i < TransactionCrashWriter.ACCOUNT_COUNT; i++) {
        expected.put("acc" + i, TransactionCrashWriter.INITIAL);
      }
      List<Map<String, AttributeValue>> transfers = db.scan(new ScanRequest(
          TransactionCrashWriter.TRANSFERS, null, null, null, true, null, null, null, null,
          null, null, null, null, null, null, null)).items();
      int maxSeq = -1;
      for (Map<String, AttributeValue> t : transfers) {
        long amount = Long.parseLong(((AttributeValue.N) t.get("amount")).value());
        expected.merge(((AttributeValue.S) t.get("from")).value(), -amount, Long::sum);
        expected.merge(((AttributeValue.S) t.get("to")).value(), amount, Long::sum);
        maxSeq = Math.max(maxSeq,
            Integer.parseInt(((AttributeValue.N) t.get("seq")).value()));
      }
      // Every acknowledged transfer survived, and the log has no gaps.
      assertThat(maxSeq).isGreaterThanOrEqualTo(lastAck);
      assertThat(transfers).hasSize(maxSeq + 1);
      long total = 0;
      for (Map.Entry<String, Long> e : expected.entrySet()) {
        long balance = Long.parseLong(((AttributeValue.N) db.getItem(new GetItemRequest(
            TransactionCrashWriter.ACCOUNTS, Map.of("id", AttributeValue.s(e.getKey())),
            true, null, null, null, null)).item().get("balance")).value());
        assertThat(balance).as("balance of %s after replaying the log", e.getKey())
            .isEqualTo(e.getValue());
        assertThat(balance).isNotNegative();
        total += balance;
      }
      assertThat(total)
          .isEqualTo(TransactionCrashWriter.ACCOUNT_COUNT * TransactionCrashWriter.INITIAL);
    }
  }
}
