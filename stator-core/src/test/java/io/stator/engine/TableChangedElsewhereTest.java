package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.BatchWriteItemRequest;
import io.stator.api.ProvisionedThroughput;
import io.stator.api.Put;
import io.stator.api.PutRequest;
import io.stator.api.TransactWriteItem;
import io.stator.api.TransactWriteItemsRequest;
import io.stator.api.UpdateItemRequest;
import io.stator.api.UpdateTableRequest;
import io.stator.api.WriteRequest;
import io.stator.schema.Catalog;
import io.stator.storage.Commit;
import io.stator.storage.Storage;
import io.stator.storage.StoredRecord;
import io.stator.value.AttributeValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Another engine on the same storage (another server of a shared store) changes a table that
 * this engine's writes know from their cached definition. Every write expects the catalog
 * version of the definition it was computed against, so each meets one conflict on the catalog
 * record, reads the definition from the storage again, and succeeds. Before, a write retried
 * with the same cached copy, and conflicted forever.
 */
class TableChangedElsewhereTest extends EngineTest {

  @Test
  void everyKindOfWriteReadsTheTableAgainAfterAnotherEngineChangedIt() {
    StaleAttempts storage = new StaleAttempts(spec.storage().apply(dir.resolve("shared")));
    try (Engine engine = new Engine(storage, spec.options().apply(options()));
        Engine other = new Engine(new Unclosed(storage.base), spec.options().apply(options()))) {
      engine.createTable(Fixtures.provisioned("Prov", 5, 5));
      Fixtures.put(engine, "Prov", item("pk", "cached")); // the definition is now cached

      List<Runnable> writes = List.of(
          () -> Fixtures.put(engine, "Prov", item("pk", "put")),
          () -> engine.updateItem(new UpdateItemRequest("Prov", item("pk", "updated"),
              "SET n = :n", null, null, Map.of(":n", AttributeValue.n("1")), null, null, null,
              null, null, null, null)),
          () -> engine.deleteItem(Fixtures.delete("Prov", item("pk", "cached"), null)),
          () -> engine.batchWriteItem(new BatchWriteItemRequest(
              Map.of("Prov", List.of(new WriteRequest(new PutRequest(item("pk", "batch")), null))),
              null, null)),
          () -> engine.transactWriteItems(new TransactWriteItemsRequest(List.of(
              new TransactWriteItem(null,
                  new Put(item("pk", "transaction"), "Prov", null, null, null, null), null, null)),
              null, null, null)));
      long capacity = 5;
      for (Runnable write : writes) {
        capacity++;
        other.updateTable(new UpdateTableRequest("Prov", null, null,
            new ProvisionedThroughput(capacity, capacity), null, null, null, null));
        int before = storage.stale;
        write.run();
        assertThat(storage.stale - before).as("attempts against the old definition").isEqualTo(1);
      }

      for (String pk : List.of("put", "updated", "batch", "transaction")) {
        assertThat(other.getItem(Fixtures.get("Prov", item("pk", pk))).item()).isNotNull();
      }
      assertThat(other.getItem(Fixtures.get("Prov", item("pk", "cached"))).item()).isNull();
    }
  }

  /**
   * The storage of the engine under test: counts its commits that expect a table's catalog
   * record at a version the record no longer has, and fails a write that keeps making them.
   */
  private static final class StaleAttempts extends InterceptingStorage {
    final Storage base;
    int stale;

    StaleAttempts(Storage base) {
      super(base);
      this.base = base;
    }

    @Override
    protected void beforeCommit(Commit commit) {
      for (Commit.Expectation e : commit.expectations()) {
        if (Catalog.changedTable(e).isPresent()
            && base.get(e.space(), e.key()).map(StoredRecord::version).orElse(0L) != e.version()
            && ++stale > 10) {
          throw new AssertionError("a write keeps committing against an old definition");
        }
      }
    }
  }

  /** The same storage for a second engine, which leaves closing it to the first. */
  private static final class Unclosed extends InterceptingStorage {
    Unclosed(Storage base) {
      super(base);
    }

    @Override
    protected void beforeCommit(Commit commit) {}

    @Override
    public void close() {}
  }
}
