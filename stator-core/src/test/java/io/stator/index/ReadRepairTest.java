package io.stator.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.api.AttributeDefinition;
import io.stator.api.CreateTableRequest;
import io.stator.api.GlobalSecondaryIndex;
import io.stator.api.KeySchemaElement;
import io.stator.api.Projection;
import io.stator.api.PutItemRequest;
import io.stator.api.QueryRequest;
import io.stator.engine.Engine;
import io.stator.engine.EngineOptions;
import io.stator.item.ItemCodec;
import io.stator.schema.Catalog;
import io.stator.schema.IndexDefinition;
import io.stator.schema.TableDefinition;
import io.stator.storage.Commit;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The propagator applies a change record by read-repair: a record older than the item's current
 * state (a synchronous write happened after it) must not bring the index back to the record's
 * state, and must remove the entries the record's images name.
 */
class ReadRepairTest {
  private final MemoryStorage storage = new MemoryStorage();
  private Engine db = new Engine(storage, EngineOptions.defaults());

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void anOutOfDateRecordDoesNotRegressTheIndex() throws Exception {
    db.createTable(new CreateTableRequest("Tbl",
        List.of(new AttributeDefinition("pk", "S"), new AttributeDefinition("g", "S")),
        List.of(new KeySchemaElement("pk", "HASH")), null,
        List.of(new GlobalSecondaryIndex("ByG", List.of(new KeySchemaElement("g", "HASH")),
            new Projection("INCLUDE", List.of("v")), null)),
        "PAY_PER_REQUEST", null, null, null, null, null, null, null, null));
    // Synchronous writes (lag zero): k1 moved from a to b, k2 is at c.
    put(item("k1", "a", "1"));
    put(item("k1", "b", "2"));
    put(item("k2", "c", "3"));
    TableDefinition table = new Catalog(storage).get("Tbl").orElseThrow().table();
    IndexDefinition byG = table.index("ByG");
    // As a race between an asynchronous write and a synchronous one can leave it: a stale entry
    // of k1 at a, and in the log the out-of-date records of k1's first write (none -> a) and of
    // a delete of k2 that a later write has undone (c -> none).
    storage.commit(new Commit()
        .put(byG.space(), IndexKeys.entryKey(table, byG, item("k1", "a", "1")),
            ItemCodec.encode(IndexKeys.project(table, byG, item("k1", "a", "1"))))
        .put(table.changeLog(), ChangeRecord.key(1),
            ChangeRecord.encode(0, null, ItemCodec.encode(item("k1", "a", "1"))))
        .put(table.changeLog(), ChangeRecord.key(2),
            ChangeRecord.encode(0, ItemCodec.encode(item("k2", "c", "3")), null)));
    assertThat(query("a")).hasSize(1);
    // A restart finds the log and applies it.
    db.close();
    db = new Engine(storage, EngineOptions.defaults());
    assertThat(db.awaitIndexes(Duration.ofSeconds(60))).isTrue();
    assertThat(query("a")).isEmpty();
    assertThat(query("b")).containsExactly(Map.of("pk", s("k1"), "g", s("b"), "v", s("2")));
    assertThat(query("c")).containsExactly(Map.of("pk", s("k2"), "g", s("c"), "v", s("3")));
    assertThat(storage.stats(table.changeLog()).records()).isZero();
    // The backlog is gone: writes are synchronous again.
    put(item("k2", "d", "4"));
    assertThat(query("c")).isEmpty();
    assertThat(query("d")).hasSize(1);
    assertThat(storage.stats(table.changeLog()).records()).isZero();
  }

  private void put(Map<String, AttributeValue> item) {
    db.putItem(new PutItemRequest("Tbl", item, null, null, null, null, null, null, null, null,
        null));
  }

  private List<Map<String, AttributeValue>> query(String g) {
    return db.query(new QueryRequest("Tbl", "ByG", null, null, null, null, null, "g = :g", null,
        null, null, Map.of(":g", s(g)), null, null, null, null, null)).items();
  }

  private static Map<String, AttributeValue> item(String pk, String g, String v) {
    return Map.of("pk", s(pk), "g", s(g), "v", s(v));
  }

  private static AttributeValue s(String value) {
    return AttributeValue.s(value);
  }
}
