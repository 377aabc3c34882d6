package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.BatchWriteItemRequest;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteItemRequest;
import io.stator.api.DeleteRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.Put;
import io.stator.api.PutItemRequest;
import io.stator.api.PutRequest;
import io.stator.api.StreamSpecification;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.Update;
import io.stator.api.UpdateItemRequest;
import io.stator.api.WriteRequest;
import io.stator.schema.StreamDefinition;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.FaultyStorage;
import io.stator.storage.Storage;
import io.stator.storage.StorageException;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Writes whose commit ends with an unknown outcome, applied or not (single-item writes,
 * BatchWriteItem, and TransactWriteItems with a ClientRequestToken retried as an SDK retries a 500): each is applied
 * exactly once and answers what it would have answered had the storage told it the outcome (see
 * {@code UnknownOutcomes}). "Applied once" is counted in the table's stream, which gets one
 * record per applied write of an item; the index invariants are checked after each test.
 */
class UnknownOutcomesTest extends EngineTest {
  private static final List<Fault> FAULTS = List.of(
      new Fault("applied, answer lost", s -> s.unknownOutcomeAfterApplying(1)),
      new Fault("not applied, answer lost", s -> s.unknownOutcomeWithoutApplying(1)));

  private record Fault(String name, Consumer<FaultyStorage> inject) {}

  @Test
  void anAddIsAppliedOnce() {
    for (Fault fault : FAULTS) {
      try (Faulty f = open()) {
        f.engine.putItem(Fixtures.putRequest("Things", item("pk", "a", "g", "x", "n", 5), null));
        fault.inject.accept(f.storage);

        var response = f.engine.updateItem(new UpdateItemRequest("Things", item("pk", "a"),
            "ADD n :one", null, null, Map.of(":one", AttributeValue.n("1")), "UPDATED_NEW",
            null, null, null, null, null, null));

        assertThat(f.storage.injected()).as(fault.name()).isEqualTo(1);
        assertThat(response.attributes()).as(fault.name()).isEqualTo(item("n", 6));
        assertThat(f.item("a")).as(fault.name()).containsEntry("n", AttributeValue.n("6"));
        assertThat(f.streamRecords()).as(fault.name()).isEqualTo(2);
      }
    }
  }

  @Test
  void aConditionalPutSucceedsOnceAndWritesOnce() {
    for (Fault fault : FAULTS) {
      try (Faulty f = open()) {
        fault.inject.accept(f.storage);

        var response = f.engine.putItem(new PutItemRequest("Things", item("pk", "a", "g", "x"),
            "attribute_not_exists(pk)", null, null, "ALL_OLD", null, null, null, null, null));

        assertThat(f.storage.injected()).as(fault.name()).isEqualTo(1);
        assertThat(response.attributes()).as(fault.name()).isNull();
        assertThat(f.item("a")).as(fault.name()).isEqualTo(item("pk", "a", "g", "x"));
        assertThat(f.streamRecords()).as(fault.name()).isEqualTo(1);
      }
    }
  }

  @Test
  void aDeleteReturnsTheOldItem() {
    for (Fault fault : FAULTS) {
      try (Faulty f = open()) {
        f.engine.putItem(Fixtures.putRequest("Things", item("pk", "a", "g", "x", "n", 5), null));
        fault.inject.accept(f.storage);

        var response = f.engine.deleteItem(new DeleteItemRequest("Things", item("pk", "a"),
            "attribute_exists(pk)", null, null, "ALL_OLD", null, null, null, null, null));

        assertThat(f.storage.injected()).as(fault.name()).isEqualTo(1);
        assertThat(response.attributes()).as(fault.name())
            .isEqualTo(item("pk", "a", "g", "x", "n", 5));
        assertThat(f.item("a")).as(fault.name()).isNull();
        assertThat(f.streamRecords()).as(fault.name()).isEqualTo(2);
      }
    }
  }

  @Test
  void aWriteWhoseTriesStayUnknownAnswersTheFaultAndIsNotApplied() {
    try (Faulty f = open()) {
      f.engine.putItem(Fixtures.putRequest("Things", item("pk", "a", "n", 5), null));
      f.storage.unknownOutcomeWithoutApplying(UnknownOutcomes.TRIES);

      assertThatThrownBy(() -> f.engine.updateItem(new UpdateItemRequest("Things", item("pk", "a"),
              "ADD n :one", null, null, Map.of(":one", AttributeValue.n("1")), null, null, null,
              null, null, null, null)))
          .isInstanceOf(CommitOutcomeUnknownException.class);

      assertThat(f.storage.injected()).isEqualTo(UnknownOutcomes.TRIES);
      assertThat(f.item("a")).containsEntry("n", AttributeValue.n("5"));
      assertThat(f.streamRecords()).isEqualTo(1);
    }
  }

  @Test
  void aTransactionWithATokenIsAppliedOnceAndItsRetryAnswersSuccess() {
    for (Fault fault : FAULTS) {
      try (Faulty f = open()) {
        f.engine.putItem(Fixtures.putRequest("Things", item("pk", "c", "n", 5), null));
        fault.inject.accept(f.storage);

        f.engine.transactWriteItems(addAndPut("token-1"));
        f.engine.transactWriteItems(addAndPut("token-1")); // the SDK's retry, as after a 500

        assertThat(f.storage.injected()).as(fault.name()).isEqualTo(1);
        assertThat(f.item("c")).as(fault.name()).containsEntry("n", AttributeValue.n("6"));
        assertThat(f.item("p")).as(fault.name()).isNotNull();
        assertThat(f.streamRecords()).as(fault.name()).isEqualTo(3);
      }
    }
  }

  @Test
  void aTransactionAnsweredWithTheFaultIsNotAppliedAgainByItsRetry() {
    try (Faulty f = open()) {
      f.engine.putItem(Fixtures.putRequest("Things", item("pk", "c", "n", 5), null));
      // Applied, and the read that would find out fails: the engine cannot tell, answers the
      // fault (a 500), and keeps the token with the commit in question. Only this thread's reads
      // fail: with asynchronous GSIs the propagator reads the table too, and must not take it
      Thread request = Thread.currentThread();
      f.storage.unknownOutcomeAfterApplying(1)
          .onlyReads(space -> Thread.currentThread() == request && space.startsWith("table."))
          .failReads(1);

      assertThatThrownBy(() -> f.engine.transactWriteItems(addAndPut("token-2")))
          .isInstanceOf(StorageException.class);
      f.engine.transactWriteItems(addAndPut("token-2"));

      assertThat(f.storage.injected()).isEqualTo(2);
      assertThat(f.item("c")).containsEntry("n", AttributeValue.n("6"));
      assertThat(f.streamRecords()).isEqualTo(3);
    }
  }

  @Test
  void aTransactionWhoseTriesStayUnknownIsAppliedOnceByItsRetry() {
    try (Faulty f = open()) {
      f.engine.putItem(Fixtures.putRequest("Things", item("pk", "c", "n", 5), null));
      f.storage.unknownOutcomeWithoutApplying(UnknownOutcomes.TRIES);

      assertThatThrownBy(() -> f.engine.transactWriteItems(addAndPut("token-3")))
          .isInstanceOf(CommitOutcomeUnknownException.class);
      assertThat(f.item("c")).containsEntry("n", AttributeValue.n("5"));
      f.engine.transactWriteItems(addAndPut("token-3"));
      f.engine.transactWriteItems(addAndPut("token-3"));

      assertThat(f.storage.injected()).isEqualTo(UnknownOutcomes.TRIES);
      assertThat(f.item("c")).containsEntry("n", AttributeValue.n("6"));
      assertThat(f.streamRecords()).isEqualTo(3);
    }
  }

  @Test
  void aBatchWriteIsAppliedOnceAndAnswersSuccess() {
    for (Fault fault : FAULTS) {
      try (Faulty f = open()) {
        f.engine.putItem(Fixtures.putRequest("Things", item("pk", "d", "g", "x"), null));
        fault.inject.accept(f.storage);

        var response = f.engine.batchWriteItem(new BatchWriteItemRequest(Map.of("Things", List.of(
            new WriteRequest(new PutRequest(item("pk", "a", "g", "x")), null),
            new WriteRequest(null, new DeleteRequest(item("pk", "d"))))), null, null));

        assertThat(f.storage.injected()).as(fault.name()).isEqualTo(1);
        assertThat(response.unprocessedItems()).as(fault.name()).isNullOrEmpty();
        assertThat(f.item("a")).as(fault.name()).isEqualTo(item("pk", "a", "g", "x"));
        assertThat(f.item("d")).as(fault.name()).isNull();
        assertThat(f.streamRecords()).as(fault.name()).isEqualTo(3);
      }
    }
  }

  /** A transaction that adds 1 to item c's n and puts item p. */
  private static TransactWriteItemsRequest addAndPut(String token) {
    return new TransactWriteItemsRequest(List.of(
        new TransactWriteItem(null, null, null, new Update(item("pk", "c"), "ADD n :one",
            "Things", null, null, Map.of(":one", AttributeValue.n("1")), null)),
        new TransactWriteItem(null, new Put(item("pk", "p", "g", "y"), "Things", null, null,
            null, null), null, null)),
        null, null, token);
  }

  /** An engine of this spec on a faulty storage, with the table Things (a GSI, a stream). */
  private Faulty open() {
    Storage base = spec.storage().apply(dir.resolve("faulty-" + System.nanoTime()));
    // Faults only for commits of items (the table's space), not of the stream's shards
    FaultyStorage storage =
        new FaultyStorage(base).onlyCommits(space -> space.startsWith("table."));
    Engine engine = new Engine(storage, spec.options().apply(options()));
    engine.createTable(new CreateTableRequest(
        "Things",
        List.of(new AttributeDefinition("pk", "S"), new AttributeDefinition("g", "S")),
        List.of(new KeySchemaElement("pk", "HASH")),
        null,
        List.of(new GlobalSecondaryIndex("ByG", List.of(new KeySchemaElement("g", "HASH")),
            new Projection("ALL", null), null)),
        "PAY_PER_REQUEST", null, new StreamSpecification(true, "NEW_AND_OLD_IMAGES"), null, null,
        null, null, null, null));
    return new Faulty(engine, storage, base);
  }

  private record Faulty(Engine engine, FaultyStorage storage, Storage base)
      implements AutoCloseable {
    Map<String, AttributeValue> item(String pk) {
      return engine.getItem(Fixtures.get("Things", Fixtures.item("pk", pk))).item();
    }

    /** The stream's records, read from the storage underneath. */
    int streamRecords() {
      return base.scan(StreamDefinition.SHARED_SPACE, null, null, null, Integer.MAX_VALUE).size();
    }

    @Override
    public void close() {
      try {
        IndexInvariants.checkAll(engine);
      } finally {
        engine.close();
      }
    }
  }
}
