package io.stator.storage.rocksdb;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.KeySchemaElement;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.TransactionCanceledException;
import io.stator.api.Update;
import io.stator.value.AttributeValue;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The process {@link TransactionCrashTest} kills: bank transfers as TransactWriteItems on
 * RocksDB, each debiting one account, crediting another and logging the transfer under its
 * sequence number; prints {@code <seq>;} after each transfer returned.
 */
public final class TransactionCrashWriter {
  static final String ACCOUNTS = "Accounts";
  static final String TRANSFERS = "Transfers";
  static final int ACCOUNT_COUNT = 10;
  static final long INITIAL = 1000;

  private TransactionCrashWriter() {}

  public static void main(String[] args) {
    Database db = Stator.open(RocksDbStorage.open(Path.of(args[0])));
    db.createTable(table(ACCOUNTS, "id"));
    db.createTable(table(TRANSFERS, "seq"));
    for (int i = 0; i < ACCOUNT_COUNT; i++) {
      db.putItem(new PutItemRequest(ACCOUNTS, Map.of("id", AttributeValue.s("acc" + i),
          "balance", AttributeValue.n(String.valueOf(INITIAL))),
          null, null, null, null, null, null, null, null, null));
    }
    System.out.println("ready;");
    System.out.flush();
    Random random = new Random(42);
    for (int seq = 0; ; ) {
      int from = random.nextInt(ACCOUNT_COUNT);
      int to = (from + 1 + random.nextInt(ACCOUNT_COUNT - 1)) % ACCOUNT_COUNT;
      int amount = 1 + random.nextInt(200);
      AttributeValue x = AttributeValue.n(String.valueOf(amount));
      try {
        db.transactWriteItems(new TransactWriteItemsRequest(List.of(
            new TransactWriteItem(null, null, null, new Update(
                Map.of("id", AttributeValue.s("acc" + from)), "SET balance = balance - :x",
                ACCOUNTS, "balance >= :x", null, Map.of(":x", x), null)),
            new TransactWriteItem(null, null, null, new Update(
                Map.of("id", AttributeValue.s("acc" + to)), "SET balance = balance + :x",
                ACCOUNTS, null, null, Map.of(":x", x), null)),
            new TransactWriteItem(null, new Put(Map.of(
                "seq", AttributeValue.n(String.valueOf(seq)),
                "from", AttributeValue.s("acc" + from),
                "to", AttributeValue.s("acc" + to),
                "amount", x), TRANSFERS, null, null, null, null), null, null)),
            null, null, null));
        System.out.println(seq + ";");
        System.out.flush();
        seq++;
      } catch (TransactionCanceledException e) {
        // insufficient funds: try another transfer under the same sequence number
      }
    }
  }

  private static CreateTableRequest table(String name, String key) {
    return new CreateTableRequest(name,
        List.of(new AttributeDefinition(key, key.equals("seq") ? "N" : "S")),
        List.of(new KeySchemaElement(key, "HASH")),
        null, null, "PAY_PER_REQUEST", null, null, null, null, null, null, null, null);
  }
}
