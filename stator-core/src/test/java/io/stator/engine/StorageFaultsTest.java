package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.GetItemRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.StreamSpecification;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.schema.StreamDefinition;
import io.stator.storage.FaultyStorage;
import io.stator.storage.StorageException;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine over a storage that fails: a commit that fails writes nothing of the request (not
 * its item, nor its index entries, nor its stream record) and the engine answers with the fault;
 * a commit whose answer is lost leaves the whole write or none of it; the GSI propagator and
 * slow commits lose nothing. After every test each index is its table's projection.
 */
class StorageFaultsTest {
  private final MemoryStorage memory = new MemoryStorage();
  private final FaultyStorage storage = new FaultyStorage(memory);
  private Engine db = new Engine(storage, EngineOptions.defaults());

  @AfterEach
  void close() {
    try {
      IndexInvariants.checkAll(db);
    } finally {
      db.close();
    }
  }

  @Test
  void aFailedCommitWritesNothingAndTheNextWriteSucceeds() {
    createOrders();
    storage.failCommits(1);

    assertThatThrownBy(() -> put(order("alice", "1", "open")))
        .isInstanceOf(StorageException.class);

    assertThat(storage.injected()).isEqualTo(1);
    assertThat(get("alice", "1")).isNull();
    assertThat(streamRecords()).isZero();
    put(order("alice", "1", "open"));
    assertThat(get("alice", "1")).containsEntry("status", AttributeValue.s("open"));
    assertThat(streamRecords()).isEqualTo(1);
  }

  @Test
  void aFailedTransactionWritesNoneOfItsItems() {
    createOrders();
    storage.failCommits(1);

    assertThatThrownBy(
            () ->
                db.transactWriteItems(
                    new TransactWriteItemsRequest(
                        List.of(
                            transactPut(order("alice", "1", "open")),
                            transactPut(order("bob", "2", "open"))),
                        null, null, null)))
        .isInstanceOf(StorageException.class);

    assertThat(get("alice", "1")).isNull();
    assertThat(get("bob", "2")).isNull();
    assertThat(streamRecords()).isZero();
  }

  @Test
  void aCommitWhoseAnswerIsLostLeavesTheWholeWrite() {
    createOrders();
    put(order("alice", "1", "open"));
    storage.failCommitsAfterWriting(1);

    assertThatThrownBy(() -> update("alice", "1", "shipped"))
        .isInstanceOf(StorageException.class);

    // written with its index entry and its stream record, all together (checked after the test)
    assertThat(get("alice", "1")).containsEntry("status", AttributeValue.s("shipped"));
    assertThat(streamRecords()).isEqualTo(2);
  }

  @Test
  void aFailedReadChangesNothing() {
    createOrders();
    put(order("alice", "1", "open"));
    storage.onlyReads(space -> space.startsWith("table.")).failReads(1);

    assertThatThrownBy(() -> update("alice", "1", "shipped"))
        .isInstanceOf(StorageException.class);

    assertThat(get("alice", "1")).containsEntry("status", AttributeValue.s("open"));
  }

  @Test
  void theGlobalIndexPropagatorCatchesUpAfterItsCommitsFail() throws Exception {
    db.close();
    db = new Engine(storage, EngineOptions.defaults().withSynchronousGlobalIndexes(false));
    createOrders();
    storage.onlyCommits(space -> space.startsWith("index.")).failCommits(5);

    for (int i = 0; i < 20; i++) {
      put(order("c" + i, "1", "open"));
    }

    assertThat(db.awaitIndexes(Duration.ofSeconds(30))).isTrue();
    assertThat(storage.injected()).isEqualTo(5);
    // the index is its table's projection: checked after the test
  }

  @Test
  void slowCommitsLoseNoUpdate() throws Exception {
    createOrders();
    put(order("alice", "1", "open"));
    storage.slowCommits(Duration.ofMillis(2));
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        done.add(
            writers.submit(
                () -> {
                  for (int i = 0; i < 25; i++) {
                    db.updateItem(
                        new UpdateItemRequest(
                            "Orders", key("alice", "1"), "ADD n :one", null, null,
                            Map.of(":one", AttributeValue.n("1")), null, null, null, null, null,
                            null, null));
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      writers.shutdownNow();
    }
    assertThat(get("alice", "1")).containsEntry("n", AttributeValue.n("100"));
  }

  private void createOrders() {
    db.createTable(
        new CreateTableRequest(
            "Orders",
            List.of(
                new AttributeDefinition("customer", "S"),
                new AttributeDefinition("id", "S"),
                new AttributeDefinition("status", "S")),
            List.of(
                new KeySchemaElement("customer", "HASH"), new KeySchemaElement("id", "RANGE")),
            null,
            List.of(
                new GlobalSecondaryIndex(
                    "ByStatus",
                    List.of(new KeySchemaElement("status", "HASH")),
                    new Projection("ALL", null),
                    null)),
            "PAY_PER_REQUEST", null, new StreamSpecification(true, "NEW_AND_OLD_IMAGES"), null,
            null, null, null, null, null));
  }

  private static Map<String, AttributeValue> order(String customer, String id, String status) {
    return item("customer", customer, "id", id, "status", status);
  }

  private static Map<String, AttributeValue> key(String customer, String id) {
    return item("customer", customer, "id", id);
  }

  private void put(Map<String, AttributeValue> item) {
    db.putItem(
        new PutItemRequest("Orders", item, null, null, null, null, null, null, null, null, null));
  }

  private void update(String customer, String id, String status) {
    db.updateItem(
        new UpdateItemRequest(
            "Orders", key(customer, id), "SET #s = :s", null, Map.of("#s", "status"),
            Map.of(":s", AttributeValue.s(status)), null, null, null, null, null, null, null));
  }

  private static TransactWriteItem transactPut(Map<String, AttributeValue> item) {
    return new TransactWriteItem(null, new Put(item, "Orders", null, null, null, null), null, null);
  }

  private Map<String, AttributeValue> get(String customer, String id) {
    return db.getItem(new GetItemRequest("Orders", key(customer, id), true, null, null, null, null))
        .item();
  }

  /** The records of the streams, read from the storage underneath. */
  private int streamRecords() {
    return memory.scan(StreamDefinition.SHARED_SPACE, null, null, null, Integer.MAX_VALUE).size();
  }
}
