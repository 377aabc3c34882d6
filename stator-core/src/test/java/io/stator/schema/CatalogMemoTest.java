package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.stator.storage.memory.MemoryStorage;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Catalog.get decodes a record once per version, and always answers the stored record. */
class CatalogMemoTest {
  private static final KeyAttribute ID = new KeyAttribute("id", "S");

  private static TableDefinition table(String id, String status) {
    return new TableDefinition(
        "Orders", id, "table." + id, ID, null, List.of(ID), TableDefinition.PAY_PER_REQUEST, 0,
        0, Instant.parse("2026-01-01T00:00:00Z"), null, null, null, status,
        null, null, null, null, null, null);
  }

  @Test
  void anUnchangedRecordIsDecodedOnce() {
    Catalog catalog = new Catalog(new MemoryStorage());
    catalog.create(table("a", "ACTIVE"));
    Catalog.Entry first = catalog.get("Orders").orElseThrow();
    assertThat(catalog.get("Orders").orElseThrow()).isSameAs(first);
    assertThat(catalog.all()).singleElement().isSameAs(first);
  }

  @Test
  void everyChangeIsSeenEvenWhenMadeThroughAnotherCatalogOnTheSameStorage() {
    MemoryStorage storage = new MemoryStorage();
    Catalog reader = new Catalog(storage);
    Catalog writer = new Catalog(storage);
    writer.create(table("a", "CREATING"));
    Catalog.Entry created = reader.get("Orders").orElseThrow();
    assertThat(created.table().status()).isEqualTo("CREATING");

    writer.replace(table("a", "ACTIVE"), created.version());
    Catalog.Entry updated = reader.get("Orders").orElseThrow();
    assertThat(updated.table().status()).isEqualTo("ACTIVE");
    assertThat(updated.version()).isNotEqualTo(created.version());

    writer.delete(updated.table(), updated.version(), java.time.Instant.now());
    assertThat(reader.get("Orders")).isEmpty();

    // Re-created under the same name: a new record version, so never the old definition.
    writer.create(table("b", "ACTIVE"));
    assertThat(reader.get("Orders").orElseThrow().table().tableId()).isEqualTo("b");
  }
}
