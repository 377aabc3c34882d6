package io.stator.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.storage.Commit;
import io.stator.storage.CommitConflictException;
import io.stator.storage.StorageKey;
import io.stator.storage.StoredRecord;
import io.stator.storage.memory.MemoryStorage;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Writes expect their table's definition through the fence of their item's partition: every
 * change of the record moves every fence with it, whichever catalog made it, and a record
 * written without fences is expected itself.
 */
class CatalogFencesTest {
  private static final KeyAttribute ID = new KeyAttribute("id", "S");

  private static TableDefinition table(String name, String id, String status) {
    return new TableDefinition(
        name, id, "table." + id, ID, null, List.of(ID), TableDefinition.PAY_PER_REQUEST, 0,
        0, Instant.parse("2026-01-01T00:00:00Z"), null, null, null, status,
        null, null, null, null, null, null);
  }

  /** A key of an item whose partition begins with {@code first}. */
  private static StorageKey item(int first) {
    return StorageKey.of(new byte[] {(byte) first, 7, 7});
  }

  /** A write of one item that expects {@code entry}'s definition unchanged. */
  private static Commit write(Catalog.Entry entry, int first) {
    Commit commit = new Commit().put("items", item(first), new byte[] {1});
    entry.expectUnchanged(commit, item(first));
    return commit;
  }

  @Test
  void aWriteAgainstAChangedDefinitionConflictsWhateverItsPartition() {
    MemoryStorage storage = new MemoryStorage();
    storage.createSpace("items");
    Catalog reader = new Catalog(storage);
    Catalog writer = new Catalog(storage);
    writer.create(table("Orders", "a", "CREATING"));
    Catalog.Entry created = reader.get("Orders").orElseThrow();
    assertThat(created.fenced()).isTrue();
    for (int b = 0; b < 256; b++) {
      storage.commit(write(created, b));
    }

    writer.replace(table("Orders", "a", "ACTIVE"), created.version());
    Catalog.Entry updated = reader.get("Orders").orElseThrow();
    for (int b = 0; b < 256; b++) {
      Commit stale = write(created, b);
      assertThatThrownBy(() -> storage.commit(stale))
          .isInstanceOfSatisfying(CommitConflictException.class, e -> {
            assertThat(e.failed().space()).isEqualTo(Catalog.FENCES);
            assertThat(Catalog.changedTable(e.failed())).contains("Orders");
          });
      storage.commit(write(updated, b));
    }
  }

  @Test
  void theFencesSpreadOverTheFirstBytesAndLeaveWithTheirTable() {
    MemoryStorage storage = new MemoryStorage();
    Catalog catalog = new Catalog(storage);
    catalog.create(table("Orders", "a", "ACTIVE"));
    catalog.create(table("Users", "b", "ACTIVE"));
    Catalog.Entry orders = catalog.get("Orders").orElseThrow();
    List<StoredRecord> fences =
        storage.scan(Catalog.FENCES, null, null, null, Integer.MAX_VALUE).stream()
            .filter(r -> Catalog.changedTable(
                new Commit.Expectation(Catalog.FENCES, r.key(), 0)).orElseThrow()
                .equals("Orders"))
            .toList();
    assertThat(fences).hasSize(Catalog.FENCES_PER_TABLE)
        .allSatisfy(r -> assertThat(r.version()).isEqualTo(orders.version()));
    assertThat(fences.stream().map(r -> r.key().partition()[0] & 0xFF).distinct())
        .hasSize(Catalog.FENCES_PER_TABLE);

    catalog.delete(orders.table(), orders.version(), Instant.now());
    assertThat(storage.scan(Catalog.FENCES, null, null, null, Integer.MAX_VALUE))
        .hasSize(Catalog.FENCES_PER_TABLE)
        .allSatisfy(r -> assertThat(Catalog.changedTable(
            new Commit.Expectation(Catalog.FENCES, r.key(), 0))).contains("Users"));
  }

  @Test
  void aRecordWrittenWithoutFencesIsExpectedItselfUntilItsNextChange() {
    MemoryStorage storage = new MemoryStorage();
    storage.createSpace("items");
    Catalog catalog = new Catalog(storage);
    TableDefinition old = table("Orders", "a", "ACTIVE");
    // as an earlier release recorded it: the definition alone
    storage.commit(new Commit().put(Catalog.SPACE, Catalog.key("Orders"), Catalog.encode(old)));
    Catalog.Entry unfenced = catalog.get("Orders").orElseThrow();
    assertThat(unfenced.fenced()).isFalse();
    storage.commit(write(unfenced, 9));

    catalog.replace(old, unfenced.version());
    Commit stale = write(unfenced, 9);
    assertThatThrownBy(() -> storage.commit(stale))
        .isInstanceOfSatisfying(CommitConflictException.class,
            e -> assertThat(e.failed().space()).isEqualTo(Catalog.SPACE));
    Catalog.Entry fenced = catalog.get("Orders").orElseThrow();
    assertThat(fenced.fenced()).isTrue();
    storage.commit(write(fenced, 9));
    assertThat(storage.scan(Catalog.FENCES, null, null, null, Integer.MAX_VALUE))
        .hasSize(Catalog.FENCES_PER_TABLE);
  }
}
