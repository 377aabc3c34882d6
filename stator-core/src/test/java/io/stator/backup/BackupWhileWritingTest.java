package io.stator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateBackupRequest;
import io.stator.api.CreateTableRequest;
import io.stator.api.DescribeTableRequest;
import io.stator.api.KeySchemaElement;
import io.stator.api.PutItemRequest;
import io.stator.api.RestoreTableFromBackupRequest;
import io.stator.api.ScanRequest;
import io.stator.api.ScanResponse;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.Update;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.engine.InterceptingStorage;
import io.stator.item.ItemCodec;
import io.stator.schema.Catalog;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A backup on a storage whose copy of a space is not one instant (Cassandra's, page by page),
 * played on memory told so: a transfer that commits between two pages of the copy's read,
 * taking money from an account the copy has not read yet and giving it to one it has, is in
 * the backup wholly or not at all, so the restored accounts hold the same total. A copy page by
 * page would hold the debit and not the credit. Once made, the backup leaves the table as it
 * found it: no history kept, no record of it left, no setting left.
 */
class BackupWhileWritingTest {
  private static final int ACCOUNTS = 150; // more than one page of the copy's read
  private final MemoryStorage memory = new MemoryStorage();
  private final TransferBetweenPages storage = new TransferBetweenPages(memory);
  private final Engine db = new Engine(storage, EngineOptions.defaults());

  /** Not one instant, and runs a transfer after the first page of the table's first scan. */
  private final class TransferBetweenPages extends InterceptingStorage {
    volatile String armedFor;
    volatile boolean transferred;

    TransferBetweenPages(MemoryStorage delegate) {
      super(delegate);
    }

    @Override
    protected void beforeCommit(Commit commit) {}

    @Override
    public boolean copiesAtOneInstant() {
      return false;
    }

    @Override
    public List<StoredRecord> scan(
        String space, byte[] from, byte[] to, StorageKey startAfter, int limit) {
      List<StoredRecord> page = super.scan(space, from, to, startAfter, limit);
      if (space.equals(armedFor) && startAfter == null && page.size() < ACCOUNTS) {
        armedFor = null;
        Set<String> read = new HashSet<>();
        for (StoredRecord r : page) {
          read.add(id(ItemCodec.decode(r.value())));
        }
        String unread = null;
        for (int i = 0; i < ACCOUNTS && unread == null; i++) {
          unread = read.contains("a" + i) ? null : "a" + i;
        }
        transfer(unread, id(ItemCodec.decode(page.get(0).value())), 30);
        transferred = true;
      }
      return page;
    }
  }

  private static String id(Map<String, AttributeValue> item) {
    return ((AttributeValue.S) item.get("id")).value();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void transfer(String from, String to, int amount) {
    db.transactWriteItems(new TransactWriteItemsRequest(List.of(
        add(from, -amount), add(to, amount)), null, null, null));
  }

  private static TransactWriteItem add(String id, int amount) {
    return new TransactWriteItem(null, null, null, new Update(Map.of("id", AttributeValue.s(id)),
        "ADD balance :a", "Accounts", null, null,
        Map.of(":a", AttributeValue.n(Integer.toString(amount))), null));
  }

  private BigDecimal total(String table) {
    BigDecimal sum = BigDecimal.ZERO;
    int items = 0;
    Map<String, AttributeValue> start = null;
    do {
      ScanResponse page = db.scan(new ScanRequest(table, null, null, null, true, start, null,
          null, null, null, null, null, null, null, null, null));
      for (Map<String, AttributeValue> item : page.items()) {
        sum = sum.add(new BigDecimal(((AttributeValue.N) item.get("balance")).value()));
        items++;
      }
      start = page.lastEvaluatedKey();
    } while (start != null);
    assertThat(items).as("accounts in %s", table).isEqualTo(ACCOUNTS);
    return sum;
  }

  @Test
  void aTransferDuringTheCopyIsInTheBackupWhollyOrNotAtAll() throws Exception {
    db.createTable(new CreateTableRequest("Accounts",
        List.of(new AttributeDefinition("id", "S")), List.of(new KeySchemaElement("id", "HASH")),
        null, null, "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
    for (int i = 0; i < ACCOUNTS; i++) {
      db.putItem(new PutItemRequest("Accounts", Map.of("id", AttributeValue.s("a" + i),
          "balance", AttributeValue.n("100")), null, null, null, null, null, null, null, null,
          null));
    }
    TableDefinition before = new Catalog(memory).get("Accounts").orElseThrow().table();
    storage.armedFor = before.space();

    String arn = db.createBackup(new CreateBackupRequest("Accounts", "during"))
        .backupDetails().backupArn();
    assertThat(storage.transferred).as("a transfer between two pages of the copy").isTrue();
    db.restoreTableFromBackup(new RestoreTableFromBackupRequest("Restored", arn, null, null,
        null, null, null, null));
    while (!db.describeTable(new DescribeTableRequest("Restored")).table().tableStatus()
        .equals("ACTIVE")) {
      Thread.sleep(10);
    }
    assertThat(total("Restored")).isEqualByComparingTo(BigDecimal.valueOf(100L * ACCOUNTS));
    assertThat(total("Accounts")).isEqualByComparingTo(BigDecimal.valueOf(100L * ACCOUNTS));

    TableDefinition after = new Catalog(memory).get("Accounts").orElseThrow().table();
    assertThat(after.settings().backupHistorySince()).isNull();
    assertThat(after.settings().keepsHistory()).isFalse();
    assertThat(memory.scan(after.history(), null, null, null, 10)).isEmpty();
    db.putItem(new PutItemRequest("Accounts", Map.of("id", AttributeValue.s("a0"),
        "balance", AttributeValue.n("1")), null, null, null, null, null, null, null, null,
        null));
    assertThat(memory.scan(after.history(), null, null, null, 10)).as("no history kept")
        .isEmpty();
  }
}
