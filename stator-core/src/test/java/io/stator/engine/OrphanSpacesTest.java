package io.stator.engine;

import static io.stator.engine.Fixtures.create;
import static io.stator.engine.Fixtures.get;
import static io.stator.engine.Fixtures.item;
import static io.stator.engine.Fixtures.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stator.capacity.ManualClock;
import io.stator.schema.Catalog;
import io.stator.schema.OrphanSpaces;
import io.stator.storage.FaultyStorage;
import io.stator.storage.StorageException;
import io.stator.storage.memory.MemoryStorage;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The spaces no table names are dropped only once seen unused for {@link OrphanSpaces#GRACE}: a
 * server that starts, or looks, while another server's CreateTable has made its spaces and not
 * yet recorded the table leaves them, and an orphan still goes in the end.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrphanSpacesTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private final MemoryStorage store = new MemoryStorage();
  private final FaultyStorage first = new FaultyStorage(store);
  private final EngineOptions options = EngineOptions.defaults().withClock(clock);

  @Test
  void aServerStartingDuringAnotherServersCreateTableLeavesTheNewTablesSpaces() throws Exception {
    Engine creating = new Engine(first, options);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch released = new CountDownLatch(1);
    first.onlyCommits(Catalog.SPACE::equals).holdCommits(entered, released);
    CompletableFuture<?> created = CompletableFuture.runAsync(
        () -> creating.createTable(create("Orders", "id", "S", null, null)));
    assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
    Set<String> made = tableSpaces();
    assertThat(made).isNotEmpty(); // made, and no catalog record names them yet

    Engine starting = new Engine(store, options); // its first look finds them unused
    clock.advance(OrphanSpaces.GRACE.minusSeconds(1));
    starting.housekeepNow();
    assertThat(tableSpaces()).isEqualTo(made);

    first.holdCommits(null, null);
    released.countDown();
    created.get(30, TimeUnit.SECONDS);
    clock.advance(OrphanSpaces.GRACE);
    starting.housekeepNow(); // recorded now: in use, not an orphan
    assertThat(tableSpaces()).isEqualTo(made);
    put(starting, "Orders", item("id", "o1", "n", 1));
    assertThat(creating.getItem(get("Orders", item("id", "o1"))).item())
        .isEqualTo(item("id", "o1", "n", 1));
  }

  @Test
  void theSpacesOfACreateTableThatNeverRecordedItsTableAreDroppedAfterTheGracePeriod() {
    Engine engine = new Engine(first, options);
    first.onlyCommits(Catalog.SPACE::equals).failCommits(1);
    assertThatThrownBy(() -> engine.createTable(create("Lost", "id", "S", null, null)))
        .isInstanceOf(StorageException.class);
    Set<String> orphans = tableSpaces();
    assertThat(orphans).isNotEmpty();

    engine.housekeepNow(); // seen unused for the first time
    clock.advance(OrphanSpaces.GRACE.minus(Duration.ofMillis(1)));
    engine.housekeepNow();
    assertThat(tableSpaces()).isEqualTo(orphans);
    clock.advance(Duration.ofMillis(1));
    engine.housekeepNow();
    assertThat(tableSpaces()).isEmpty();
    assertThat(store.spaces()).contains(Catalog.SPACE);
  }

  private Set<String> tableSpaces() {
    return store.spaces().stream().filter(s -> s.startsWith("table."))
        .collect(Collectors.toSet());
  }
}
