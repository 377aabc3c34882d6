package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.get;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static io.stator.engine.Fixtures.putRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stator.api.DeleteItemRequest;
import io.stator.api.DynamoDbException;
import io.stator.api.ErrorType;
import io.stator.api.Put;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A PutItem, UpdateItem or DeleteItem on an item of a TransactWriteItems in progress fails with
 * TransactionConflictException and writes nothing, as on DynamoDB. The transaction is held at
 * its commit by a storage that blocks it on a latch, so the overlap is certain.
 */
class TransactionConflictTest {
  private static final String TABLE = "Orders";

  private final HeldStorage storage = new HeldStorage(new MemoryStorage());
  private final Engine db =
      new Engine(storage, EngineOptions.defaults().withTimeToLiveSweepInterval(Duration.ZERO));

  @AfterEach
  void close() {
    storage.release.countDown();
    db.close();
  }

  @Test
  void singleItemWritesOnAnItemOfARunningTransactionFailAndWriteNothing() throws Exception {
    db.createTable(create(TABLE, "pk", "S", null, null));
    put(db, TABLE, item("pk", "a", "v", 0));
    CompletableFuture<Void> transaction = CompletableFuture.runAsync(() ->
        db.transactWriteItems(new TransactWriteItemsRequest(List.of(
            new TransactWriteItem(null, new Put(item("pk", "a", "v", 1), TABLE, null, null, null,
                null), null, null),
            new TransactWriteItem(null, new Put(item("pk", "b", "v", 1), TABLE, null, null, null,
                null), null, null)), null, null, null)));
    assertThat(storage.held.await(30, TimeUnit.SECONDS)).as("transaction at its commit").isTrue();

    // PutItem on an existing item, PutItem on an item the transaction creates, UpdateItem and
    // DeleteItem, also with a condition that would fail: all rejected the same way.
    List<Runnable> writes = List.of(
        () -> db.putItem(putRequest(TABLE, item("pk", "a", "v", 9), null)),
        () -> db.putItem(putRequest(TABLE, item("pk", "b", "v", 9), null)),
        () -> db.updateItem(new UpdateItemRequest(TABLE, item("pk", "a"), "SET v = :v", null,
            null, Map.of(":v", AttributeValue.n("9")), null, null, null, null, null, null, null)),
        () -> db.deleteItem(new DeleteItemRequest(
            TABLE, item("pk", "a"), "v = :x", null, Map.of(":x", AttributeValue.n("5")), null,
            null, null, null, null, null)));
    for (Runnable write : writes) {
      DynamoDbException e = catchThrowableOfType(write::run, DynamoDbException.class);
      assertThat(e).isNotNull();
      assertThat(e.type()).isEqualTo(ErrorType.TransactionConflictException);
      assertThat(e.getMessage()).isEqualTo("Transaction is ongoing for the item");
    }
    // Reads are unaffected, and an item outside the transaction is written as usual.
    assertThat(read("a")).isEqualTo(item("pk", "a", "v", 0));
    assertThat(read("b")).isNull();
    put(db, TABLE, item("pk", "c", "v", 2));

    storage.release.countDown();
    transaction.get(10, TimeUnit.SECONDS);
    assertThat(read("a")).isEqualTo(item("pk", "a", "v", 1));
    assertThat(read("b")).isEqualTo(item("pk", "b", "v", 1));
    assertThat(read("c")).isEqualTo(item("pk", "c", "v", 2));

    // Once the transaction is over, the same writes succeed.
    put(db, TABLE, item("pk", "a", "v", 9));
    assertThat(read("a")).isEqualTo(item("pk", "a", "v", 9));
  }

  @Test
  void aCancelledTransactionReleasesItsItems() {
    db.createTable(create(TABLE, "pk", "S", null, null));
    DynamoDbException e = catchThrowableOfType(() ->
        db.transactWriteItems(new TransactWriteItemsRequest(List.of(
            new TransactWriteItem(null, new Put(item("pk", "a", "v", 1), TABLE,
                "attribute_exists(pk)", null, null, null), null, null)), null, null, null)),
        DynamoDbException.class);
    assertThat(e.type()).isEqualTo(ErrorType.TransactionCanceledException);
    put(db, TABLE, item("pk", "a", "v", 2));
    assertThat(read("a")).isEqualTo(item("pk", "a", "v", 2));
  }

  private Map<String, AttributeValue> read(String pk) {
    return db.getItem(get(TABLE, item("pk", pk))).item();
  }
}
