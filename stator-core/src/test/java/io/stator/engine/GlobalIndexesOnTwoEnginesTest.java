package io.stator.engine;

import static io.stator.engine.Fixtures.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.stator.capacity.ManualClock;
import io.stator.storage.memory.MemoryStorage;
import io.stator.value.AttributeValue;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two engines on one storage, as two servers of a shared store, both writing one table whose GSI
 * goes through the change log (synchronous GSI writes off and a lag, as while a GSI backfills):
 * each engine numbers its change records, and the two must never give two records one number,
 * or the later commit replaces the earlier record and that item's change never reaches the GSI.
 */
class GlobalIndexesOnTwoEnginesTest {
  private static final int ITEMS = 20;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
  private final MemoryStorage storage = new MemoryStorage();
  private final EngineOptions options = EngineOptions.defaults().withClock(clock)
      .withTimeToLiveSweepInterval(Duration.ZERO).withSynchronousGlobalIndexes(false)
      .withGsiLag(Duration.ofSeconds(1));
  private final Engine a = new Engine(storage, options);
  private final Engine b = new Engine(storage, options);

  @AfterEach
  void close() {
    try {
      a.close();
    } finally {
      b.close();
    }
  }

  @Test
  void changeRecordsOfBothEnginesAllReachTheIndex() throws Exception {
    a.createTable(IndexesTest.orders("Orders"));
    // the lag holds every record in the log (the clock stands still) until all are written
    for (int i = 0; i < ITEMS; i++) {
      put(a, "Orders", IndexesTest.order("u", "a" + i, "p", "1", "s", null));
      put(b, "Orders", IndexesTest.order("u", "b" + i, "p", "1", "s", null));
    }
    clock.advanceSeconds(2);
    assertThat(a.awaitIndexes(Duration.ofSeconds(30))).isTrue();
    assertThat(b.awaitIndexes(Duration.ofSeconds(30))).isTrue();
    var page = a.query(IndexesTest.indexQuery("Orders", "ProductOrderIndex", "productId = :p",
        Map.of(":p", AttributeValue.s("p"))));
    assertThat(page.lastEvaluatedKey()).isNull();
    Set<String> orders = new HashSet<>();
    page.items().forEach(i -> orders.add(((AttributeValue.S) i.get("orderId")).value()));
    assertThat(orders).hasSize(2 * ITEMS);
    IndexInvariants.checkAll(a);
  }

  @Test
  void whatAnEngineThatStoppedLeftInTheLogReachesTheIndexThroughTheHousekeepingsHolder()
      throws Exception {
    a.createTable(IndexesTest.orders("Orders"));
    // an engine whose records wait an hour: as if it had stopped before applying them
    try (Engine stopped = new Engine(storage, options.withGsiLag(Duration.ofHours(1)))) {
      for (int i = 0; i < ITEMS; i++) {
        put(stopped, "Orders", IndexesTest.order("u", "s" + i, "p", "1", "s", null));
      }
      clock.advanceSeconds(2 * 60);
      assertThat(a.housekeepNow()).isTrue();
      assertThat(a.awaitIndexes(Duration.ofSeconds(30))).isTrue();
      assertThat(ordersOfProduct()).hasSize(ITEMS);
      IndexInvariants.checkAll(a);
    }
  }

  private Set<String> ordersOfProduct() {
    var page = a.query(IndexesTest.indexQuery("Orders", "ProductOrderIndex", "productId = :p",
        Map.of(":p", AttributeValue.s("p"))));
    Set<String> orders = new HashSet<>();
    page.items().forEach(i -> orders.add(((AttributeValue.S) i.get("orderId")).value()));
    return orders;
  }
}
