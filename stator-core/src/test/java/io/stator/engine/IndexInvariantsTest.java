package io.stator.engine;

import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.Stator;
import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.Database;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.LocalSecondaryIndex;
import io.stator.api.Projection;
import io.stator.storage.Commit;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The invariant check finds an index that is not its table's projection. */
class IndexInvariantsTest {
  private final MemoryStorage storage = new MemoryStorage();
  private final Database db = Stator.open(storage, EngineOptions.defaults());

  @BeforeEach
  void createTable() {
    db.createTable(
        new CreateTableRequest(
            "Orders",
            List.of(
                new AttributeDefinition("customer", "S"),
                new AttributeDefinition("id", "S"),
                new AttributeDefinition("status", "S"),
                new AttributeDefinition("placed", "S")),
            List.of(
                new KeySchemaElement("customer", "HASH"), new KeySchemaElement("id", "RANGE")),
            List.of(
                new LocalSecondaryIndex(
                    "ByPlaced",
                    List.of(
                        new KeySchemaElement("customer", "HASH"),
                        new KeySchemaElement("placed", "RANGE")),
                    new Projection("KEYS_ONLY", null))),
            List.of(
                new GlobalSecondaryIndex(
                    "ByStatus",
                    List.of(new KeySchemaElement("status", "HASH")),
                    new Projection("INCLUDE", List.of("total")),
                    null)),
            "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
    put(db, "Orders", item("customer", "alice", "id", "1", "status", "open", "placed", "2026-01",
        "total", 5, "note", "x"));
    put(db, "Orders", item("customer", "alice", "id", "2", "placed", "2026-02"));
    put(db, "Orders", item("customer", "bob", "id", "3", "status", "shipped"));
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void indexesWrittenByTheEngineHold() {
    IndexInvariants.check(db, "Orders");
  }

  @Test
  void aMissingGlobalIndexEntryIsFound() {
    String space = space("ByStatus");
    StoredRecord entry = storage.scan(space, null, null, null, 1).get(0);
    storage.commit(new Commit().delete(space, entry.key()));

    assertThatThrownBy(() -> IndexInvariants.check(db, "Orders"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("ByStatus");
  }

  @Test
  void aStrayLocalIndexEntryIsFound() {
    String space = space("ByPlaced");
    StoredRecord entry = storage.scan(space, null, null, null, 1).get(0);
    // the same entry again under another key: an item the table does not have
    byte[] sort = entry.key().sort().clone();
    sort[sort.length - 1] ^= 1;
    storage.commit(
        new Commit().put(space, new io.stator.storage.StorageKey(entry.key().partition(), sort),
            entry.value()));

    assertThatThrownBy(() -> IndexInvariants.check(db, "Orders"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("ByPlaced");
  }

  private String space(String index) {
    return storage.spaces().stream()
        .filter(s -> s.startsWith("index.") && s.contains("." + index + "."))
        .findFirst()
        .orElseThrow();
  }
}
