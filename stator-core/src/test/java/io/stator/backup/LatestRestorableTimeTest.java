package io.stator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.KeySchemaElement;
import io.stator.api.PointInTimeRecoverySpecification;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.RestoreTableToPointInTimeRequest;
import io.stator.api.ScanRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UpdateContinuousBackupsRequest;
import io.stator.capacity.ManualClock;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.engine.HeldStorage;
import io.stator.schema.Catalog;
import io.stator.schema.TableDefinition;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A point-in-time restore to the latest restorable time while a transaction staged before it
 * has not committed yet: the transaction either commits before the restore's copy reads, or
 * after the time, never in between, so the restored table is the table as the history says it
 * was at that time. Held at the storage here; on a networked storage a commit takes a round
 * trip, so a write staged just before the time may reach the store after the copy passed it.
 */
class LatestRestorableTimeTest {
  private final MemoryStorage memory = new MemoryStorage();
  private final HeldStorage storage = new HeldStorage(memory);
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
  private final Engine db = new Engine(storage, EngineOptions.defaults().withClock(clock));

  @AfterEach
  void close() {
    storage.release.countDown();
    db.close();
  }

  private static Map<String, AttributeValue> account(String id, int balance) {
    return Map.of("id", AttributeValue.s(id), "balance", AttributeValue.n("" + balance));
  }

  private static TransactWriteItem put(Map<String, AttributeValue> item) {
    return new TransactWriteItem(null, new Put(item, "Accounts", null, null, null, null), null,
        null);
  }

  private Map<String, Map<String, AttributeValue>> items(String table) {
    Map<String, Map<String, AttributeValue>> out = new HashMap<>();
    for (Map<String, AttributeValue> i : db.scan(new ScanRequest(table, null, null, null, true,
        null, null, null, null, null, null, null, null, null, null, null)).items()) {
      out.put(((AttributeValue.S) i.get("id")).value(), i);
    }
    return out;
  }

  @Test
  void aTransactionStagedBeforeTheTimeIsInTheRestoreOnlyIfTheHistorySaysSo() throws Exception {
    db.createTable(new CreateTableRequest("Accounts",
        List.of(new AttributeDefinition("id", "S")), List.of(new KeySchemaElement("id", "HASH")),
        null, null, "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
    db.updateContinuousBackups(new UpdateContinuousBackupsRequest("Accounts",
        new PointInTimeRecoverySpecification(true, null)));
    clock.advanceSeconds(1);
    for (String id : List.of("a", "b")) {
      db.putItem(new PutItemRequest("Accounts", account(id, 1), null, null, null, null, null,
          null, null, null, null));
    }
    clock.advanceSeconds(1);
    CompletableFuture<Void> transaction = CompletableFuture.runAsync(() -> {
      try {
        db.transactWriteItems(new TransactWriteItemsRequest(
            List.of(put(account("a", 2)), put(account("b", 2))), null, null, null));
      } catch (DynamoDbException cancelled) {
        // a conflict with the restore's catalog change may cancel it: then it wrote nothing
      }
    });
    assertThat(storage.held.await(30, TimeUnit.SECONDS)).isTrue(); // staged, not committed
    clock.advanceSeconds(1);

    db.restoreTableToPointInTime(new RestoreTableToPointInTimeRequest(null, "Accounts",
        "Restored", true, null, null, null, null, null, null, null));
    Instant at = db.describeTable(new DescribeTableRequest("Restored")).table()
        .restoreSummary().restoreDateTime();
    clock.advanceSeconds(1);
    storage.release.countDown();
    transaction.get(30, TimeUnit.SECONDS);
    while (!db.describeTable(new DescribeTableRequest("Restored")).table().tableStatus()
        .equals("ACTIVE")) {
      Thread.sleep(10);
    }

    TableDefinition accounts = new Catalog(memory).get("Accounts").orElseThrow().table();
    Map<String, Map<String, AttributeValue>> asOf = new HashMap<>();
    for (String id : List.of("a", "b")) {
      Map<String, AttributeValue> then = ChangeHistory.asOf(memory, accounts,
          accounts.storageKey(Map.of("id", AttributeValue.s(id))), at).orElseThrow().item();
      asOf.put(id, then);
    }
    assertThat(items("Restored")).isEqualTo(asOf);
  }
}
