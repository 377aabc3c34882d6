package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.DeleteItemRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.PutItemRequest;
import io.stator.api.StreamSpecification;
import io.stator.api.UpdateItemRequest;
import io.stator.schema.StreamDefinition;
import io.stator.storage.CommitOutcomeUnknownException;
import io.stator.storage.FaultyStorage;
import io.stator.storage.Storage;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Single-item writes whose commit ends with an unknown outcome, applied or not: each is applied
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
        null));
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
